import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { INTERRUPTED_REPLY_ERROR, isInterruptedReply } from "../../../../src/shared/agent/unfinished-reply";
import { loadTranscript, TranscriptWriter, type TranscriptRecord } from "../../../../src/shared-node/session-files/transcript-store";
import { useTempTranscript } from "../../../../testkit/temp-transcript";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const line = (record: TranscriptRecord) => JSON.stringify(record) + "\n";

const temp = useTempTranscript("paddock-transcript-", "sessions/nested/s1.jsonl");
const write = temp.write;

describe("transcript store", () => {
  it("loads a missing file as an empty transcript", async () => {
    expect(await loadTranscript(join(temp.dir, "none.jsonl"))).toEqual({ messages: [], steering: [], followUp: [], grants: [], problems: [] });
  });

  it("round-trips messages, queues, meta and grants, creating folders", async () => {
    await write(
      { t: "meta", title: "First", model: { provider: "custom:local", id: "m" } },
      { t: "message", message: user("a") },
      { t: "grant", grant: "tool:edit" },
      { t: "message", message: user("b") },
      { t: "grant", grant: "bash:npm test" },
      { t: "grant", grant: "tool:edit" },
    );
    const writer = await TranscriptWriter.open(temp.file);
    await writer.append({ t: "queues", steering: [user("s")], followUp: [user("f")] }, { t: "meta", title: "Renamed" });
    await writer.close();

    expect(await loadTranscript(temp.file)).toEqual({
      messages: [user("a"), user("b")],
      steering: [user("s")],
      followUp: [user("f")],
      title: "Renamed",
      model: { provider: "custom:local", id: "m" },
      grants: ["tool:edit", "bash:npm test"],
      problems: [],
    });
    expect((await readFile(temp.file, "utf8")).split("\n")).toHaveLength(9); // eight records, final newline
    await writeFile(temp.file, [JSON.stringify({ t: "grant", grant: "tool:edit" }), JSON.stringify({ t: "reset" }), JSON.stringify({ t: "grant", grant: "everything" })].join("\n") + "\n");
    const reset = await loadTranscript(temp.file);
    expect(reset.grants).toEqual([]); // a reset forgets them; a grant that is not one is refused
    expect(reset.problems.map((p) => p.line)).toEqual([3]);
  });

  it("skips and reports a torn last line", async () => {
    await write({ t: "message", message: user("kept") });
    await appendFile(temp.file, '{"t":"message","message":{"role":"us');
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("kept")]);
    expect(loaded.problems).toEqual([{ line: 2, kind: "torn-last-line", detail: expect.stringMatching(/^not JSON/) }]);
  });

  it("keeps a complete last record that only lacks its newline", async () => {
    await write({ t: "message", message: user("a") });
    await appendFile(temp.file, JSON.stringify({ t: "message", message: user("b") }));
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("a"), user("b")]);
    expect(loaded.problems).toEqual([]);
  });

  it("skips and reports corrupt and invalid lines in the middle without throwing", async () => {
    await write({ t: "message", message: user("a") });
    await appendFile(
      temp.file,
      [
        "{garbage",
        '{"t":"message","message":{"content":"no role"}}',
        '{"t":"message","message":"text"}',
        '{"t":"queues","steering":[{"role":1}],"followUp":[]}',
        '{"t":"meta","title":7}',
        '{"t":"nope"}',
        "[1,2]",
        "\u0000\u0000\u0000",
        "",
      ].join("\n"),
    );
    await appendFile(temp.file, line({ t: "message", message: user("b") }));
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("a"), user("b")]);
    expect(loaded.steering).toEqual([]);
    expect(loaded.title).toBeUndefined();
    expect(loaded.problems.map((p) => [p.line, p.kind])).toEqual([
      [2, "corrupt-line"],
      [3, "corrupt-line"],
      [4, "corrupt-line"],
      [5, "corrupt-line"],
      [6, "corrupt-line"],
      [7, "corrupt-line"],
      [8, "corrupt-line"],
      [9, "corrupt-line"],
    ]);
  });

  it("starts on a fresh line when opened on a torn file, so the next record survives", async () => {
    await write({ t: "message", message: user("a") });
    await appendFile(temp.file, '{"t":"mess');
    await write({ t: "message", message: user("b") });
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("a"), user("b")]);
    expect(loaded.problems).toEqual([{ line: 2, kind: "corrupt-line", detail: expect.any(String) }]);
  });

  it("applies reset and replace in order", async () => {
    await write(
      { t: "meta", title: "T" },
      { t: "message", message: user("a") },
      { t: "queues", steering: [user("s")], followUp: [user("f")] },
      { t: "reset" },
      { t: "message", message: user("b") },
      { t: "replace", messages: [user("x"), user("y")] },
      { t: "message", message: user("z") },
    );
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("x"), user("y"), user("z")]);
    expect(loaded.steering).toEqual([]);
    expect(loaded.followUp).toEqual([]);
    expect(loaded.title).toBe("T");
  });

  it("applies drop records: the newest messages leave, and a bad count is reported, not applied", async () => {
    await mkdir(dirname(temp.file), { recursive: true });
    await writeFile(temp.file, [
      JSON.stringify({ t: "message", message: user("a") }),
      JSON.stringify({ t: "message", message: user("failed reply") }),
      JSON.stringify({ t: "drop", count: 1 }),
      JSON.stringify({ t: "drop", count: -3 }),
      JSON.stringify({ t: "message", message: user("b") }),
    ].join("\n") + "\n");
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("a"), user("b")]);
    expect(loaded.problems).toEqual([{ line: 4, kind: "corrupt-line", detail: "drop record without a positive count" }]);
  });

  it("journals queues: the last queues record wins", async () => {
    await write(
      { t: "queues", steering: [user("s1")], followUp: [] },
      { t: "message", message: user("a") },
      { t: "queues", steering: [user("s1"), user("s2")], followUp: [user("f1")] },
      { t: "queues", steering: [], followUp: [user("f1")] },
    );
    const loaded = await loadTranscript(temp.file);
    expect(loaded.steering).toEqual([]);
    expect(loaded.followUp).toEqual([user("f1")]);
  });

  it("keeps call order for concurrent appends", async () => {
    const writer = await TranscriptWriter.open(temp.file);
    const texts = Array.from({ length: 200 }, (_, i) => `m${i}`);
    await Promise.all(texts.map((text) => writer.append({ t: "message", message: user(text) })));
    await writer.close();
    expect((await loadTranscript(temp.file)).messages.map((m) => (m as { content: string }).content)).toEqual(texts);
  });

  it("rejects an unserializable record without writing or blocking later appends", async () => {
    const writer = await TranscriptWriter.open(temp.file);
    const cyclic: any = { role: "user", content: "x" };
    cyclic.self = cyclic;
    await expect(writer.append({ t: "message", message: user("a") }, { t: "message", message: cyclic })).rejects.toThrow();
    await writer.append({ t: "message", message: user("b") });
    await writer.close();
    expect(await loadTranscript(temp.file)).toMatchObject({ messages: [user("b")], problems: [] });
  });

  it("rejects appends after close", async () => {
    const writer = await TranscriptWriter.open(temp.file);
    await writer.close();
    await expect(writer.append({ t: "reset" })).rejects.toThrow(/closed/);
  });
});

describe("checkpoints of a streaming reply (partial records)", () => {
  const reply = (text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "custom:local",
    model: "m",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: 2,
    ...extra,
  });
  /** Checkpoint number `n` of a reply: `text` appended. */
  const grow = (n: number, text: string): TranscriptRecord => ({ t: "partial", n, p: [{ p: ["content", 0, "text"], a: text }] });

  it("folds a reply's checkpoints, and its final message supersedes them", async () => {
    await write({ t: "message", message: user("q") }, { t: "partial", message: reply("Once") }, grow(1, " upon"), grow(2, " a"));
    await write({ t: "message", message: reply("Once upon a time.") }, { t: "message", message: user("next") });
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("q"), reply("Once upon a time."), user("next")]);
    expect(loaded.problems).toEqual([]);
  });

  it("a file ending in checkpoints loads the reply as interrupted, with the text it had", async () => {
    await write({ t: "message", message: user("q") }, { t: "partial", message: reply("Once") }, grow(1, " upon"), grow(2, " a"));
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("q"), reply("Once upon a", { stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR })]);
    expect(isInterruptedReply(loaded.messages[1])).toBe(true);
    expect(INTERRUPTED_REPLY_ERROR).toMatch(/^Interrupted/);
  });

  it("skips a torn checkpoint: the reply is interrupted where the last whole one left it", async () => {
    await write({ t: "partial", message: reply("Once") }, grow(1, " upon"));
    await appendFile(temp.file, JSON.stringify(grow(2, " a time")).slice(0, 20));
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([reply("Once upon", { stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR })]);
    expect(loaded.problems).toEqual([{ line: 3, kind: "torn-last-line", detail: expect.stringMatching(/^not JSON/) }]);
  });

  it("a restarted worker's next message keeps the interrupted reply before it", async () => {
    // The worker that loaded the interrupted reply wrote nothing for it; the user then pressed Continue.
    await write({ t: "message", message: user("q") }, { t: "partial", message: reply("Once") }, { t: "message", message: user("Continue") });
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(isInterruptedReply(loaded.messages[1])).toBe(true);
  });

  it("drop (Retry) removes an interrupted reply; reset clears checkpoints", async () => {
    await write({ t: "message", message: user("q") }, { t: "partial", message: reply("Once") }, grow(1, " upon"), { t: "drop", count: 1 });
    expect((await loadTranscript(temp.file)).messages).toEqual([user("q")]);
    await write({ t: "partial", message: reply("Again") }, { t: "reset" });
    expect((await loadTranscript(temp.file)).messages).toEqual([]);
  });

  it("a checkpoint with a new reply starts over; patches without a reply are reported, not applied", async () => {
    await write(grow(1, "orphan"), { t: "partial", message: reply("old") }, { t: "partial", message: reply("new") }, grow(1, "er"));
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([reply("newer", { stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR })]);
    expect(loaded.problems).toEqual([{ line: 1, kind: "corrupt-line", detail: expect.stringMatching(/no checkpointed reply/) }]);
  });

  it("a missing checkpoint (a failed write) leaves the reply as it was before the gap, until a whole one comes", async () => {
    await write({ t: "partial", message: reply("Once") }, grow(1, " upon"), grow(3, " time"), grow(4, " there"));
    let loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([reply("Once upon", { stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR })]);
    expect(loaded.problems.map((p) => [p.line, p.detail])).toEqual([[3, expect.stringMatching(/follows a missing checkpoint/)], [4, expect.stringMatching(/follows a missing checkpoint/)]]);
    await write({ t: "partial", message: reply("Once upon a time") }, grow(1, " there"));
    loaded = await loadTranscript(temp.file);
    expect(loaded.messages.at(-1)).toEqual(reply("Once upon a time there", { stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR }));
  });

  it("rejects malformed partial records", async () => {
    await mkdir(dirname(temp.file), { recursive: true });
    await writeFile(temp.file, [
      '{"t":"partial","message":{"role":"user","content":"x"}}',
      '{"t":"partial","n":1,"p":[{"p":[],"a":"x"}]}',
      '{"t":"partial","n":1,"p":[{"p":["content",0,"text"]}]}',
      '{"t":"partial"}',
      '{"t":"partial","p":[{"p":["content",0,"text"],"a":"x"}]}',
    ].join("\n") + "\n");
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([]);
    expect(loaded.problems.map((p) => p.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it("checkpoint appends keep their order with synced appends", async () => {
    const writer = await TranscriptWriter.open(temp.file);
    const done = [writer.appendCheckpoint({ t: "partial", message: reply("a") }), writer.appendCheckpoint(grow(1, "b"))];
    done.push(writer.append({ t: "message", message: reply("ab.") }));
    await Promise.all(done);
    await writer.close();
    expect((await loadTranscript(temp.file)).messages).toEqual([reply("ab.")]);
    expect((await readFile(temp.file, "utf8")).trim().split("\n").map((l) => JSON.parse(l).t)).toEqual(["partial", "partial", "message"]);
  });
});
