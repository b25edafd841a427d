/**
 * Transcripts as a versioned contract (transcript-format.ts): every format Paddock has written loads (the fixtures in
 * test/fixtures/transcripts, one per earlier shape), the writer says which format its records are in, and a file from
 * a newer version is refused in words, with nothing replayed and nothing written.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { DEFERRED_REPLY_ERROR, INTERRUPTED_REPLY_ERROR } from "../../../../src/shared/agent/unfinished-reply";
import { loadTranscript, TranscriptWriter, type LoadedTranscript } from "../../../../src/shared-node/session-files/transcript-store";
import { TRANSCRIPT_FORMAT, TranscriptFormatError } from "../../../../src/shared-node/session-files/transcript-format";
import { readTranscriptChanges } from "../../../../src/main/broker/search-transcripts";
import { messageText } from "../../../../testkit/message-text";
import { useTempTranscript } from "../../../../testkit/temp-transcript";

const fixture = (name: string) => resolve("test/fixtures/transcripts", name);
const texts = (messages: readonly AgentMessage[]) => messages.map((m) => (m.role === "compaction" ? "[compaction]" : messageText(m)));
const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const lines = async (file: string) => (await readFile(file, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
const temp = useTempTranscript("paddock-format-");

/** What each earlier format's fixture loads as: every record, none reported. */
const earlier: [string, (loaded: LoadedTranscript) => void][] = [
  [
    "format-1-first.jsonl",
    (t) => {
      expect(texts(t.messages)).toEqual(["How long should green tea steep?", "Two to three minutes, at 80 °C.", "Thanks!"]);
      expect(texts(t.followUp)).toEqual(["And black tea?"]);
      expect([t.title, t.model]).toEqual(["Steeping tea", { provider: "openai", id: "gpt-4o-mini" }]);
    },
  ],
  ["format-1-drop.jsonl", (t) => expect(texts(t.messages)).toEqual(["Hello", "Hello! How can I help?"])],
  [
    "format-1-unnumbered-checkpoints.jsonl",
    (t) => {
      // The patches of a reply are numbered on the way in: the finished reply wins, the unfinished one keeps all it had.
      expect(texts(t.messages)).toEqual(["Tell me a story", "Once upon a time.", "Shorter, please", "And then the end"]);
      expect(t.messages[3]).toMatchObject({ stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR });
    },
  ],
  [
    "format-1-grants.jsonl",
    (t) => {
      expect(texts(t.messages)).toEqual(["Run the tests", "All 12 tests pass."]);
      expect(t.grants).toEqual(["tool:edit", "bash:npm test", "bash:ls"]);
    },
  ],
  [
    "format-1-compaction.jsonl",
    (t) => {
      expect(texts(t.messages)).toEqual(["What is in this picture?", "A cat.", "[compaction]", "What colour is it?"]);
      expect(t.messages[0]).toMatchObject({ attachments: [{ name: "cat.png", mimeType: "image/png" }] });
      expect(t.chatOptions).toEqual({ systemPrompt: "Answer briefly.", temperature: 0.2 });
    },
  ],
  [
    "format-1-branches.jsonl",
    (t) => {
      expect(texts(t.messages)).toEqual(["Name a colour", "Blue."]);
      expect(t.branches?.map((b) => b.at)).toEqual([1]);
    },
  ],
  [
    "format-1-held.jsonl",
    (t) => {
      expect(texts(t.messages)).toEqual(["Write a long essay", "The"]);
      expect(t.held?.map((h) => [h.queue, messageText(h.message)])).toEqual([["followUp", "Then summarise it"]]);
    },
  ],
  [
    "format-1-pi-ai-1-6.jsonl",
    (t) => {
      expect(t.messages.map((m) => (m.role === "assistant" ? m.errorMessage : m.role))).toEqual(["user", INTERRUPTED_REPLY_ERROR, "user", DEFERRED_REPLY_ERROR]);
    },
  ],
];

describe("transcript formats", () => {
  it.each(earlier)("%s, as an earlier version wrote it, loads whole and stays as it was", async (name, expectLoaded) => {
    const before = await readFile(fixture(name));
    const loaded = await loadTranscript(fixture(name));
    expect(loaded.problems).toEqual([]);
    expectLoaded(loaded);
    expect(await readFile(fixture(name))).toEqual(before);
  });

  it("the first record of each open carries today's format, and no line of its own", async () => {
    await temp.write({ t: "meta", title: "T" }, { t: "message", message: user("one") });
    await temp.write({ t: "message", message: user("two") });
    expect((await lines(temp.file)).map((l) => [l.t, l.v])).toEqual([["meta", TRANSCRIPT_FORMAT], ["message", undefined], ["message", TRANSCRIPT_FORMAT]]);
    const loaded = await loadTranscript(temp.file);
    expect([loaded.title, texts(loaded.messages), loaded.problems]).toEqual(["T", ["one", "two"], []]);
  });

  it("a file an earlier version began goes on in today's format: its old records are upgraded, the new ones kept as written", async () => {
    await copyFile(fixture("format-1-unnumbered-checkpoints.jsonl"), temp.file);
    const writer = await TranscriptWriter.open(temp.file);
    await writer.append({ t: "message", message: user("Again") });
    await writer.appendCheckpoint({ t: "partial", message: { role: "assistant", content: [{ type: "text", text: "Once" }], api: "openai-completions", provider: "openai", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 9 } });
    await writer.appendCheckpoint({ t: "partial", n: 1, p: [{ p: ["content", 0, "text"], a: " more" }] });
    await writer.close();
    expect((await lines(temp.file)).filter((l) => l.v !== undefined).map((l) => l.t)).toEqual(["message"]);
    const loaded = await loadTranscript(temp.file);
    expect(loaded.problems).toEqual([]);
    expect(texts(loaded.messages)).toEqual(["Tell me a story", "Once upon a time.", "Shorter, please", "And then the end", "Again", "Once more"]);
  });

  it("a file from a newer version is refused in words: nothing replayed, nothing written, the search index leaves it alone", async () => {
    const newer = [
      JSON.stringify({ t: "message", v: TRANSCRIPT_FORMAT, message: user("mine") }),
      JSON.stringify({ t: "message", message: user("also mine") }),
      JSON.stringify({ t: "message", v: TRANSCRIPT_FORMAT + 1, message: user("a newer shape") }),
      JSON.stringify({ t: "message", message: user("theirs") }),
    ].join("\n") + "\n";
    await writeFile(temp.file, newer);
    const refusal = loadTranscript(temp.file);
    await expect(refusal).rejects.toBeInstanceOf(TranscriptFormatError);
    await expect(refusal).rejects.toThrow(
      `This chat was saved by a newer version of Paddock (transcript format ${TRANSCRIPT_FORMAT + 1} at line 3; this version reads up to ${TRANSCRIPT_FORMAT}). Update Paddock to open it; the file is left as it is.`,
    );
    // The search index reads appended records itself; one in a format it does not know sends it to the loader.
    const cursor = { offset: Buffer.byteLength(newer.split("\n").slice(0, 2).join("\n") + "\n"), messages: 2 };
    await expect(readTranscriptChanges(temp.file, cursor)).rejects.toBeInstanceOf(TranscriptFormatError);
    expect(await readFile(temp.file, "utf8")).toBe(newer);
  });

  it("a record whose format is not a number is skipped and reported, the rest loads", async () => {
    await writeFile(temp.file, [{ t: "message", v: "two", message: user("a") }, { t: "message", v: 0, message: user("b") }, { t: "message", message: user("c") }].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const loaded = await loadTranscript(temp.file);
    expect(texts(loaded.messages)).toEqual(["c"]);
    expect(loaded.problems).toEqual([
      { line: 1, kind: "corrupt-line", detail: 'record with an invalid format version "two"' },
      { line: 2, kind: "corrupt-line", detail: "record with an invalid format version 0" },
    ]);
  });
});
