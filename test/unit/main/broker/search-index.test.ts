import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MessageIndex, type IndexedMessage } from "../../../../src/main/broker/search-index";
import { fingerprint } from "../../../../src/main/broker/search-service";
import { searchableText } from "../../../../src/shared/search/searchable-text";
import { loadTranscript } from "../../../../src/shared-node/session-files/transcript-store";

const messages = (...texts: string[]): IndexedMessage[] => texts.map((text, i) => ({ text, print: i }));
const found = (index: MessageIndex, query: string, perSession = 10) =>
  index.search(query, { limit: 20, perSession }).map((h) => `${h.sessionId}#${h.messageIndex}`);

/** A data folder saved by the index's format 2 (4-byte postings), and its chats (see its README). */
const FORMAT_2 = resolve("test/fixtures/search-index-format-2/sessions");

/** What the index holds (its arrays' sizes aside: a loaded index's are exact, a built one's have room to grow). */
const counts = (index: MessageIndex) => ({ ...index.stats(), arrayBytes: undefined });

/** The serialized file's header (the JSON after the magic and its length). */
const headerOf = (bytes: Buffer) => JSON.parse(bytes.toString("utf8", 12, 12 + bytes.readUInt32LE(8))) as Record<string, unknown>;

/** `bytes` with its header replaced by `header` (sections after it re-aligned as serialize aligns them). */
function withHeader(bytes: Buffer, header: Record<string, unknown>): Buffer {
  const oldLength = bytes.readUInt32LE(8);
  const rest = bytes.subarray(12 + oldLength + ((4 - ((12 + oldLength) % 4)) % 4));
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const prefix = Buffer.from(bytes.subarray(0, 12));
  prefix.writeUInt32LE(json.length, 8);
  return Buffer.concat([prefix, json, Buffer.alloc((4 - ((12 + json.length) % 4)) % 4), rest]);
}

describe("the message index", () => {
  it("finds the messages that hold every word of the query, in any chat", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("How do I sort a list in Python?", "Use sorted() on the list.", "Thanks!"));
    index.replaceFrom("b", 0, messages("Python dictionaries keep insertion order.", "Rust has no garbage collector."));
    expect(found(index, "python").sort()).toEqual(["a#0", "b#0"]);
    expect(found(index, "python list")).toEqual(["a#0"]);
    expect(found(index, "garbage collector")).toEqual(["b#1"]);
    expect(found(index, "haskell")).toEqual([]);
  });

  it("matches case and accents loosely, and the last word as a prefix while it is typed", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("Le Café est ouvert", "PYTHONIC code", "pythons are snakes"));
    expect(found(index, "cafe")).toEqual(["a#0"]);
    expect(found(index, "CAFÉ")).toEqual(["a#0"]);
    expect(found(index, "pyth").sort()).toEqual(["a#1", "a#2"]);
    // A finished word (followed by a space) must match whole.
    expect(found(index, "pyth ")).toEqual([]);
    expect(found(index, "caf ouvert")).toEqual([]); // only the last word is a prefix
  });

  it("cuts Chinese and Japanese text into characters, so a word in a sentence is found", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("我喜欢编程和音乐", "今日は天気がいいです"));
    expect(found(index, "编程")).toEqual(["a#0"]);
    expect(found(index, "天気")).toEqual(["a#1"]);
  });

  it("ranks a message where the words are dense above one where they are diluted, then newer first", () => {
    const index = new MessageIndex();
    const filler = Array.from({ length: 80 }, (_, i) => `word${i % 9}x`).join(" ");
    index.replaceFrom("a", 0, messages(`deploy ${filler}`, "deploy deploy the deploy script", "deploy it"));
    const hits = found(index, "deploy");
    expect(hits[hits.length - 1]).toBe("a#0");
    expect(hits.slice(0, 2)).toEqual(expect.arrayContaining(["a#1", "a#2"]));
    // Equal messages: the newer one first.
    const same = new MessageIndex();
    same.replaceFrom("a", 0, messages("same words here", "same words here"));
    expect(found(same, "words")).toEqual(["a#1", "a#0"]);
  });

  it("gives at most `perSession` hits from one chat and honours `accept`", () => {
    const index = new MessageIndex();
    index.replaceFrom("long", 0, messages(...Array.from({ length: 50 }, () => "needle in a haystack")));
    index.replaceFrom("short", 0, messages("one needle"));
    const hits = index.search("needle", { limit: 10, perSession: 3 });
    expect(hits.filter((h) => h.sessionId === "long")).toHaveLength(3);
    expect(hits.map((h) => h.sessionId)).toContain("short");
    expect(index.search("needle", { limit: 10, perSession: 3, accept: (id) => id !== "long" }).map((h) => h.sessionId)).toEqual(["short"]);
  });

  it("updates: replacing messages from a point drops the old ones, removing a chat drops all of it", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("alpha", "beta", "gamma"));
    index.replaceFrom("a", 1, messages("delta"));
    expect(index.messageCount("a")).toBe(2);
    expect(found(index, "beta")).toEqual([]);
    expect(found(index, "gamma")).toEqual([]);
    expect(found(index, "delta")).toEqual(["a#1"]);
    expect(found(index, "alpha")).toEqual(["a#0"]);
    index.removeSession("a");
    expect(found(index, "alpha")).toEqual([]);
    expect(index.sessionIds()).toEqual([]);
  });

  it("keeps messages without words as places in the chat, so later numbers stay right", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, [{ text: "", print: 1 }, { text: "!!!", print: 2 }, { text: "found me", print: 3 }]);
    expect(found(index, "found")).toEqual(["a#2"]);
    expect(index.prints("a")).toEqual([1, 2, 3]);
  });

  it("compacts once the removed outnumber the living, and answers the same afterwards", () => {
    const index = new MessageIndex();
    for (let round = 0; round < 3; round++) {
      index.replaceFrom("churn", 0, messages(...Array.from({ length: 6_000 }, (_, i) => `round${round} message ${i}`)));
    }
    index.replaceFrom("kept", 0, messages("still here"));
    expect(index.stats().messages).toBe(6_001);
    expect(found(index, "round0")).toEqual([]);
    expect(index.search("round2", { limit: 5, perSession: 100 })).toHaveLength(5);
    index.compact();
    expect(found(index, "still")).toEqual(["kept#0"]);
    expect(index.search("message", { limit: 1, perSession: 1 })[0]).toMatchObject({ sessionId: "churn" });
  });

  it("serializes and reads back to an index that answers the same and keeps growing", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("first alpha", "second beta", "third alpha beta"));
    index.replaceFrom("b", 0, messages("beta only"));
    index.replaceFrom("gone", 0, messages("alpha gone"));
    index.removeSession("gone");
    const { index: back, extra } = MessageIndex.deserialize(index.serialize({ cursor: 7 }));
    expect(extra).toEqual({ cursor: 7 });
    for (const q of ["alpha", "beta", "alpha beta", "gone", "th"]) expect(found(back, q)).toEqual(found(index, q));
    expect(back.prints("a")).toEqual([0, 1, 2]);
    back.replaceFrom("a", 3, messages("fourth alpha"));
    back.replaceFrom("c", 0, messages("alpha in c"));
    expect(found(back, "alpha").sort()).toEqual(["a#0", "a#2", "a#3", "c#0"]);
  });

  it("refuses a damaged or foreign file rather than loading half of it", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("some text to index", "and more"));
    const bytes = index.serialize({});
    expect(() => MessageIndex.deserialize(Buffer.from("not an index at all"))).toThrow(/Not a search index file/);
    expect(() => MessageIndex.deserialize(bytes.subarray(0, bytes.length - 3))).toThrow(/Not a search index file/);
    const wrongPosting = Buffer.from(bytes);
    wrongPosting.writeUInt32LE(0xffffff00, wrongPosting.length - 16);
    expect(() => MessageIndex.deserialize(wrongPosting)).toThrow(/Not a search index file/);
  });

  it("gives back the postings' room to grow once built (trim), answering the same and growing again after", () => {
    const index = new MessageIndex();
    const texts = Array.from({ length: 300 }, (_, i) => `npm WARN deprecated package${i % 7} build step ${i}`);
    index.replaceFrom("a", 0, texts.map((text, i) => ({ text, print: i })));
    const before = index.stats();
    const found = index.search("npm deprecated", { limit: 50, perSession: 50 });
    index.trim();
    expect(index.stats().arrayBytes).toBeLessThan(before.arrayBytes);
    expect(index.stats().postings).toBe(before.postings);
    expect(index.search("npm deprecated", { limit: 50, perSession: 50 })).toEqual(found);
    index.replaceFrom("a", 300, [{ text: "npm WARN one more", print: 300 }]);
    expect(index.search("npm", { limit: 400, perSession: 400 })).toHaveLength(301);
  });

  it("serializes many messages, with gaps and counts of every size, and reads them back answering the same", () => {
    const index = new MessageIndex();
    for (let chat = 0; chat < 40; chat++) {
      const texts = Array.from({ length: 250 }, (_, i) => {
        const n = chat * 250 + i;
        // "every" in each message, "often" in every 3rd, "rare" in every 997th, one hash each, counts up to past 15.
        return `every ${n % 3 === 0 ? "often ".repeat(1 + (n % 20)) : ""}${n % 997 === 0 ? "rare" : ""} h${n.toString(16)}x word${n % 50}`;
      });
      index.replaceFrom(`c${chat}`, 0, messages(...texts));
    }
    // Dead messages (c3's from 100 on, "rare" at 247 among them): serialize compacts them away.
    index.replaceFrom("c3", 100, messages("rare replacement"));
    const bytes = index.serialize({ n: 1 });
    expect(headerOf(bytes).v).toBe(3);
    const { index: back, older } = MessageIndex.deserialize(bytes);
    expect(older).toBe(false);
    expect(counts(back)).toEqual(counts(index));
    for (const q of ["every", "often", "rare", "often word7", "h3e8x", "h3e", "word4", "wor", "every rare often"]) {
      expect(back.search(q, { limit: 50, perSession: 5 })).toEqual(index.search(q, { limit: 50, perSession: 5 }));
    }
    expect(found(back, "rare").sort()).toEqual(["c0#0", "c11#241", "c15#238", "c19#235", "c23#232", "c27#229", "c3#100", "c31#226", "c35#223", "c39#220", "c7#244"]);
  });

  it("reads a file saved in format 2 (4-byte postings), converting it, and saves it in the current format", async () => {
    const bytes = readFileSync(join(FORMAT_2, "search-index.bin"));
    expect(headerOf(bytes).v).toBe(2);
    const { index, extra, older } = MessageIndex.deserialize(bytes);
    expect(older).toBe(true);
    // The same index built afresh from the transcripts the file was saved from.
    const fresh = new MessageIndex();
    for (const id of ["a", "b", "c"]) {
      const { messages: loaded } = await loadTranscript(join(FORMAT_2, `${id}.jsonl`));
      fresh.replaceFrom(id, 0, loaded.map((m) => ({ text: searchableText(m), print: fingerprint(m) })));
      expect(index.prints(id)).toEqual(fresh.prints(id));
    }
    expect(Object.keys(extra as object).sort()).toEqual(["a", "b", "c"]);
    expect(counts(index)).toEqual(counts(fresh));
    const queries = ["eresolve", "npm err", "cafe", "café open", "question", "question 7", "answer", "reply code", "step 14", "qu", "react 18"];
    for (const q of queries) expect(index.search(q, { limit: 40, perSession: 40 })).toEqual(fresh.search(q, { limit: 40, perSession: 40 }));
    expect(found(index, "eresolve")).toEqual(["a#2"]);

    const again = MessageIndex.deserialize(index.serialize(extra));
    expect(headerOf(index.serialize(extra)).v).toBe(3);
    expect(again.older).toBe(false);
    for (const q of queries) expect(again.index.search(q, { limit: 40, perSession: 40 })).toEqual(fresh.search(q, { limit: 40, perSession: 40 }));
    again.index.replaceFrom("a", 4, messages("eresolve fixed by --legacy-peer-deps"));
    expect(found(again.index, "eresolve").sort()).toEqual(["a#2", "a#4"]);
  });

  it("refuses a format-1 file, a format-2 file with postings out of order, and a file whose postings bytes are damaged", () => {
    const index = new MessageIndex();
    index.replaceFrom("a", 0, messages("some text to index", "and more text"));
    const bytes = index.serialize({});
    expect(() => MessageIndex.deserialize(withHeader(bytes, { ...headerOf(bytes), v: 1 }))).toThrow(/Not a search index file: format version 1/);

    // Format 2: counts, then 4-byte entries. The fixture's first term's first two entries swapped.
    const old = Buffer.from(readFileSync(join(FORMAT_2, "search-index.bin")));
    const terms = (headerOf(old).terms as string[]).length;
    const entriesAt = 12 + old.readUInt32LE(8) + ((4 - ((12 + old.readUInt32LE(8)) % 4)) % 4) + terms * 4;
    const twice = (headerOf(old).terms as string[]).findIndex((_, t) => old.readUInt32LE(entriesAt - terms * 4 + t * 4) >= 2);
    let at = entriesAt;
    for (let t = 0; t < twice; t++) at += old.readUInt32LE(entriesAt - terms * 4 + t * 4) * 4;
    const [first, second] = [old.readUInt32LE(at), old.readUInt32LE(at + 4)];
    old.writeUInt32LE(second, at);
    old.writeUInt32LE(first, at + 4);
    expect(() => MessageIndex.deserialize(old)).toThrow(/Not a search index file: postings out of order/);

    // Format 3: the postings' bytes come last; a continuation bit on the last byte runs the last list past its end.
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 1] |= 0x80;
    expect(() => MessageIndex.deserialize(damaged)).toThrow(/Not a search index file: a postings list does not decode/);
    const larger = Buffer.from(bytes);
    larger[larger.length - 1] = 0x7f; // a gap past the messages there are
    expect(() => MessageIndex.deserialize(larger)).toThrow(/Not a search index file: a posting names a message that is not there/);
  });
});
