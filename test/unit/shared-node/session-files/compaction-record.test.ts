/** The `compaction` record: journaled with the marker, replayed on load, and a damaged one skipped and reported. */
import { appendFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { loadTranscript } from "../../../../src/shared-node/session-files/transcript-store";
import { useTempTranscript } from "../../../../testkit/temp-transcript";
import { compactionRecord } from "../../../../src/shared-node/session-files/compaction-record";
import { isInterruptedReply } from "../../../../src/shared/agent/unfinished-reply";
import { compactedView } from "../../../../src/shared/agent/compaction";
import { marker, reply, usage, user } from "../../shared/agent/compaction-fixtures";

const temp = useTempTranscript("paddock-compaction-", "s1.jsonl");
const write = temp.write;

describe("compaction records", () => {
  it("replay as the marker in its place, so a restarted worker sends the same context", async () => {
    const m = marker({ firstKeptIndex: 2, files: { read: ["a.ts"], modified: [] }, usage: usage(300, 40), reason: "manual" });
    await write(
      { t: "message", message: user("one") },
      { t: "message", message: reply("1") },
      { t: "message", message: user("two") },
      { t: "message", message: reply("2") },
      compactionRecord(m),
      { t: "message", message: user("three") },
    );
    const loaded = await loadTranscript(temp.file);
    expect(loaded.problems).toEqual([]);
    expect(loaded.messages).toEqual([user("one"), reply("1"), user("two"), reply("2"), m, user("three")]);
    expect(compactedView(loaded.messages).messages).toEqual([m, user("two"), reply("2"), user("three")]);
  });

  it("journal every message: the marker adds, never replaces", async () => {
    await write({ t: "message", message: user("one") }, { t: "message", message: user("two") }, compactionRecord(marker({ firstKeptIndex: 1 })));
    expect((await loadTranscript(temp.file)).messages).toHaveLength(3);
  });

  it("a damaged record is skipped and reported, and the messages around it kept", async () => {
    await write({ t: "message", message: user("one") }, { t: "message", message: user("two") });
    const good = compactionRecord(marker({ firstKeptIndex: 1 }));
    await appendFile(temp.file, JSON.stringify({ ...good, summary: 42 }) + "\n");
    await appendFile(temp.file, JSON.stringify({ ...good, firstKeptIndex: -1 }) + "\n");
    await appendFile(temp.file, JSON.stringify({ ...good, reason: "whim" }) + "\n");
    await appendFile(temp.file, JSON.stringify({ ...good, files: { read: [1] } }) + "\n");
    // Points past the messages before it: it would make the model lose them all.
    await appendFile(temp.file, JSON.stringify({ ...good, firstKeptIndex: 9 }) + "\n");
    await appendFile(temp.file, JSON.stringify({ t: "message", message: user("three") }) + "\n");
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("one"), user("two"), user("three")]);
    expect(loaded.problems.map((p) => [p.line, p.kind])).toEqual([
      [3, "corrupt-line"],
      [4, "corrupt-line"],
      [5, "corrupt-line"],
      [6, "corrupt-line"],
      [7, "corrupt-line"],
    ]);
    expect(loaded.problems[4].detail).toMatch(/past the 2 before it/);
  });

  it("keeps only known fields", async () => {
    await write({ t: "message", message: user("one") }, { t: "message", message: user("two") });
    await appendFile(temp.file, JSON.stringify({ ...compactionRecord(marker({ firstKeptIndex: 1 })), extra: "x".repeat(10) }) + "\n");
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages[2]).toEqual(marker({ firstKeptIndex: 1 }));
  });

  it("end a checkpointed reply that never finished, as any message of another role does", async () => {
    const partial: AssistantMessage = { ...reply("half a"), stopReason: "stop" };
    await write({ t: "message", message: user("one") }, { t: "partial", message: partial }, compactionRecord(marker({ firstKeptIndex: 0 })));
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "compaction"]);
    expect(isInterruptedReply(loaded.messages[1])).toBe(true);
  });

  it("older transcripts, without any, load as before", async () => {
    await write({ t: "message", message: user("one") }, { t: "drop", count: 1 }, { t: "message", message: user("two") });
    expect(await loadTranscript(temp.file)).toMatchObject({ messages: [user("two")], problems: [] });
  });
});
