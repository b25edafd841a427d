/**
 * The clean-up's worker thread: where it cannot start, the jobs still run (in main's thread), with the same answers.
 * (The built thread itself runs in test/integration/checkpoint-upkeep.test.ts.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { threadRunner } from "../../../../src/main/checkpoints/thread-runner";

let data: string;
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), "paddock-thread-runner-"));
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

describe("the clean-up's thread runner", () => {
  it("runs the jobs in main's thread when the thread's file is missing", async () => {
    const runner = threadRunner(join(data, "no-such-thread.js"));
    expect(await runner.run("bytes", data)).toBe(0);
    expect(await runner.run("removeSessions", data, ["chat-1"], 0)).toEqual({ removedBytes: 0 });
    await runner.dispose();
  });
});
