/**
 * `core.savePending()`, what main runs when the system is about to end the app (Windows' session end, a shutdown):
 * the session index's debounced changes reach the disk now, and nothing stops: the core goes on working after it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { createTestCore } from "../../testkit/test-core";

let core: Core<never> | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const titlesOnDisk = (core: Core<never>): string[] => {
  try {
    const file = JSON.parse(readFileSync(core.files.sessionIndexFile, "utf8")) as { sessions: Array<{ title?: string }> };
    return file.sessions.map((s) => s.title ?? "");
  } catch {
    return [];
  }
};

describe("saving main's pending writes before the system ends the app", () => {
  it("writes the session index's debounced changes now, and stops nothing", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "paddock-save-pending-"));
    core = await createTestCore({ dataDir });
    const chat = await core.service.createSession();
    await core.savePending();
    await core.service.renameSession(chat.id, "Saved before the session ended");
    // Debounced (250 ms): not on disk yet.
    expect(titlesOnDisk(core)).not.toContain("Saved before the session ended");
    await core.savePending();
    expect(titlesOnDisk(core)).toContain("Saved before the session ended");
    // The core works on: another change, saved again.
    await core.service.renameSession(chat.id, "And after");
    await core.savePending();
    expect(titlesOnDisk(core)).toContain("And after");
  }, 60_000);
});
