import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readTranscriptChanges, type TranscriptCursor } from "../../../../src/main/broker/search-transcripts";
import { transcriptLine } from "../../../../testkit/transcripts";
import { TempFolders } from "../../../../testkit/temp-folders";
import { searchableText } from "../../../../src/shared/search/searchable-text";

const temp = new TempFolders("paddock-search-transcripts-");
afterEach(() => temp.removeAll());

const texts = (change: { messages: Parameters<typeof searchableText>[0][] }) => change.messages.map(searchableText);
const line = (record: unknown) => `${JSON.stringify(record)}\n`;

describe("reading transcripts for the search index", () => {
  it("replays the file the first time, then reads only the messages appended since", async () => {
    const file = join(temp.make(), "chat.jsonl");
    writeFileSync(file, `${transcriptLine(0, "zero")}\n${transcriptLine(1, "one")}\n`);
    const first = await readTranscriptChanges(file, undefined);
    expect(first.kind).toBe("replayed");
    expect(texts(first)).toEqual(["zero", "one"]);
    appendFileSync(file, `${transcriptLine(2, "two")}\n${line({ t: "queues", steering: [], followUp: [] })}${line({ t: "meta", title: "T" })}`);
    const next = await readTranscriptChanges(file, first.cursor);
    expect(next.kind).toBe("appended");
    expect(texts(next)).toEqual(["two"]);
    expect(next.cursor.messages).toBe(3);
    const none = await readTranscriptChanges(file, next.cursor);
    expect(none).toMatchObject({ kind: "appended", messages: [] });
  });

  it("leaves a line still being written for next time", async () => {
    const file = join(temp.make(), "chat.jsonl");
    writeFileSync(file, `${transcriptLine(0, "zero")}\n`);
    const first = await readTranscriptChanges(file, undefined);
    const whole = `${transcriptLine(1, "one")}\n`;
    appendFileSync(file, whole.slice(0, 20));
    const partial = await readTranscriptChanges(file, first.cursor);
    expect(partial.messages).toEqual([]);
    appendFileSync(file, whole.slice(20));
    expect(texts(await readTranscriptChanges(file, partial.cursor))).toEqual(["one"]);
  });

  it("skips a reply's checkpoints once its message lands, and waits while it streams", async () => {
    const file = join(temp.make(), "chat.jsonl");
    writeFileSync(file, `${transcriptLine(0, "question")}\n`);
    let cursor: TranscriptCursor = (await readTranscriptChanges(file, undefined)).cursor;
    const reply = JSON.parse(transcriptLine(1, "the answer")).message;
    appendFileSync(file, line({ t: "partial", message: { ...reply, content: [{ type: "text", text: "the" }] } }));
    const streaming = await readTranscriptChanges(file, cursor);
    expect(streaming.messages).toEqual([]);
    cursor = streaming.cursor;
    appendFileSync(file, line({ t: "partial", n: 1, p: [{ p: ["content", 0, "text"], a: " ans" }] }));
    appendFileSync(file, `${transcriptLine(1, "the answer")}\n`);
    const done = await readTranscriptChanges(file, cursor);
    expect(done.kind).toBe("appended");
    expect(texts(done)).toEqual(["the answer"]);
    expect(done.cursor.messages).toBe(2);
  });

  it("replays the whole file after a drop, a reset, or a record it does not know", async () => {
    const file = join(temp.make(), "chat.jsonl");
    writeFileSync(file, `${transcriptLine(0, "a")}\n${transcriptLine(1, "b")}\n`);
    const first = await readTranscriptChanges(file, undefined);
    appendFileSync(file, line({ t: "drop", count: 1 }) + `${transcriptLine(1, "b again")}\n`);
    const dropped = await readTranscriptChanges(file, first.cursor);
    expect(dropped.kind).toBe("replayed");
    expect(texts(dropped)).toEqual(["a", "b again"]);
    appendFileSync(file, line({ t: "some-future-record" }));
    expect((await readTranscriptChanges(file, dropped.cursor)).kind).toBe("replayed");
    appendFileSync(file, line({ t: "reset" }));
    const reset = await readTranscriptChanges(file, dropped.cursor);
    expect(reset).toMatchObject({ kind: "replayed", messages: [] });
  });

  it("replays when the file shrank (replaced), and reads a missing file as empty", async () => {
    const file = join(temp.make(), "chat.jsonl");
    expect(await readTranscriptChanges(file, undefined)).toMatchObject({ kind: "replayed", messages: [] });
    writeFileSync(file, `${transcriptLine(0, "a long first message")}\n`);
    const first = await readTranscriptChanges(file, undefined);
    writeFileSync(file, `${transcriptLine(0, "short")}\n`);
    const again = await readTranscriptChanges(file, first.cursor);
    expect(again.kind).toBe("replayed");
    expect(texts(again)).toEqual(["short"]);
  });

  it("after a replay that ended on an unfinished reply, replays again next time (its message will take its place)", async () => {
    const file = join(temp.make(), "chat.jsonl");
    const reply = JSON.parse(transcriptLine(1, "partial answer")).message;
    writeFileSync(file, `${transcriptLine(0, "q")}\n${line({ t: "partial", message: reply })}`);
    const first = await readTranscriptChanges(file, undefined);
    expect(first.messages).toHaveLength(2); // shown as interrupted
    expect(first.cursor.replay).toBe(true);
    appendFileSync(file, `${transcriptLine(1, "partial answer, finished")}\n`);
    const next = await readTranscriptChanges(file, first.cursor);
    expect(next.kind).toBe("replayed");
    expect(texts(next)).toEqual(["q", "partial answer, finished"]);
    expect(next.cursor.replay).toBeUndefined();
  });
});
