import { describe, expect, it } from "vitest";
import { MessageIndex, type IndexedMessage } from "../../../../src/main/broker/search-index";

const messages = (...texts: string[]): IndexedMessage[] => texts.map((text, i) => ({ text, print: i }));
const found = (index: MessageIndex, query: string, perSession = 10) =>
  index.search(query, { limit: 20, perSession }).map((h) => `${h.sessionId}#${h.messageIndex}`);

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
});
