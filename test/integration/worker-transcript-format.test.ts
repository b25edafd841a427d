/**
 * A worker and transcripts of other versions (transcript-format.ts): a newer version's is refused in words and left
 * as it is, byte for byte; an earlier version's opens, and what the worker appends to it says its format.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TRANSCRIPT_FORMAT } from "../../src/shared-node/session-files/transcript-format";
import { startHarness, waitForView, type Harness } from "../../testkit/worker-harness";
import { messageText } from "../../testkit/message-text";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  mkdirSync(join(h.dataDir, "sessions"), { recursive: true });
});
afterEach(async () => {
  await h.close();
});

describe("a worker opening transcripts of other versions", () => {
  it("refuses a newer version's, saying so, and never writes to it", async () => {
    const file = join(h.dataDir, "sessions", "newer.jsonl");
    const newer = `${JSON.stringify({ t: "message", v: TRANSCRIPT_FORMAT + 1, message: { role: "user", content: "hello", timestamp: 1 } })}\n`;
    writeFileSync(file, newer);
    await expect(h.broker.attach("newer", "window-1")).rejects.toThrow(/saved by a newer version of Paddock .*Update Paddock to open it; the file is left as it is/);
    expect(readFileSync(file, "utf8")).toBe(newer);
  });

  it("opens an earlier version's, and the first record it appends carries today's format", async () => {
    const file = join(h.dataDir, "sessions", "older.jsonl");
    copyFileSync(resolve("test/fixtures/transcripts/format-1-drop.jsonl"), file);
    const client = await h.client("older");
    expect(client.mirror.getView().state.messages.map((m) => messageText(m))).toEqual(["Hello", "Hello! How can I help?"]);
    await client.prompt("again");
    await waitForView(client, (v) => !v.state.isStreaming);
    const appended = readFileSync(file, "utf8").trim().split("\n").slice(4).map((l) => JSON.parse(l));
    expect(appended[0]).toMatchObject({ t: "message", v: TRANSCRIPT_FORMAT, message: { role: "user" } });
    expect(appended.slice(1).every((record) => record.v === undefined)).toBe(true);
  });
});
