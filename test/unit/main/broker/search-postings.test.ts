import { describe, expect, it } from "vitest";
import { decodeList, Postings, TF_MAX, varintLength, writeVarint } from "../../../../src/main/broker/search-postings";

/** The term's entries as [message, tf] pairs. */
const entries = (postings: Postings, term: number) => {
  const out: [number, number][] = [];
  postings.forEach(term, (doc, tf) => out.push([doc, tf]));
  return out;
};

/** Postings with `lists` (term -> ascending [message, tf] pairs), added round-robin as an index adds messages. */
function build(lists: [number, number][][]): Postings {
  const postings = new Postings();
  const ids = lists.map(() => postings.addTerm());
  const all = lists.flatMap((list, t) => list.map(([doc, tf]) => ({ t, doc, tf }))).sort((a, b) => a.doc - b.doc);
  for (const { t, doc, tf } of all) postings.add(ids[t], doc, tf);
  return postings;
}

describe("the search index's postings", () => {
  it("codes varints at every length, up to entries of the largest message numbers", () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, (2 ** 31 - 1) * 16 + 15, 2 ** 35 - 1];
    const bytes = new Uint8Array(64);
    for (const value of values) {
      const end = writeVarint(bytes, 3, value);
      expect(end - 3).toBe(varintLength(value));
      // One entry: its message number is the value over 16, its tf the rest.
      const seen: number[][] = [];
      expect(decodeList(bytes, 3, end, (doc, tf) => seen.push([doc, tf]))).toBe(1);
      expect(seen).toEqual([[Math.floor(value / 16), value % 16]]);
    }
    // Not entries: a varint cut short, and one longer than the largest entry (5 bytes).
    expect(decodeList(Uint8Array.from([0x05, 0x80]), 0, 2, () => undefined)).toBe(-1);
    expect(decodeList(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), 0, 6, () => undefined)).toBe(-1);
    expect(decodeList(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x01]), 0, 5, () => undefined)).toBe(1);
    expect(varintLength(127)).toBe(1);
    expect(varintLength(128)).toBe(2);
    expect(varintLength((2 ** 31 - 1) * 16 + 15)).toBe(5);
  });

  it("keeps each term's messages and counts in order, gaps of every size, first entries and large message numbers", () => {
    const dense = Array.from({ length: 5_000 }, (_, i): [number, number] => [i * 4 + 1, (i % TF_MAX) + 1]);
    const sparse: [number, number][] = [[0, 1], [1, 2], [200, 15], [70_000, 3], [9_000_000, 1], [2_000_000_000, 7], [2 ** 31 - 1, 15]];
    const once: [number, number][] = [[123_456, 2]];
    const postings = build([dense, sparse, once]);
    expect(entries(postings, 0)).toEqual(dense);
    expect(entries(postings, 1)).toEqual(sparse);
    expect(entries(postings, 2)).toEqual(once);
    expect([postings.count(0), postings.count(1), postings.count(2)]).toEqual([5_000, 7, 1]);
    // The search's own decoding (into arrays) reads the same.
    const docs = new Int32Array(5_000);
    const tfs = new Uint8Array(5_000);
    for (const [t, list] of [dense, sparse, once].entries()) {
      expect(postings.decode(t, docs, tfs)).toBe(list.length);
      expect(list.map((_, i) => [docs[i], tfs[i]])).toEqual(list);
    }
    // A term in every fourth message takes one byte an entry.
    const { start, end } = postings.bytes(0);
    expect(end - start).toBe(5_000);
  });

  it("moves lists that outgrow their room among thousands of others, a term seen once getting a second message included", () => {
    const postings = new Postings();
    const terms = Array.from({ length: 3_000 }, () => postings.addTerm());
    const expected: [number, number][][] = terms.map(() => []);
    // Every message holds term 0, a few common terms and some seen once until much later (hashes, numbers).
    for (let doc = 0; doc < 20_000; doc++) {
      const held = new Set([0, 1 + (doc % 7), 10 + ((doc * 7919) % 2_990)]);
      for (const t of [...held].sort((a, b) => a - b)) {
        const tf = ((doc + t) % TF_MAX) + 1;
        postings.add(terms[t], doc, tf);
        expected[t].push([doc, tf]);
      }
    }
    for (const t of [0, 3, 10, 1_500, 2_999]) expect(entries(postings, terms[t])).toEqual(expected[t]);
    const before = postings.byteLength();
    postings.trim();
    expect(postings.byteLength()).toBeLessThan(before);
    const exact = terms.reduce((n, t) => n + postings.bytes(t).end - postings.bytes(t).start, 0);
    // After trim the pool is the lists' bytes and nothing else (the per-term tables come on top).
    expect(postings.bytes(0).pool.byteLength).toBe(exact);
    for (const t of terms) expect(entries(postings, t)).toEqual(expected[t]);
    // And grows again.
    postings.add(terms[2_999], 25_000, 4);
    postings.add(terms[0], 25_001, 1);
    expect(entries(postings, terms[2_999]).at(-1)).toEqual([25_000, 4]);
    expect(entries(postings, terms[0]).slice(-2)).toEqual([[19_999, expected[0].at(-1)![1]], [25_001, 1]]);
    expect(entries(postings, terms[1_500])).toEqual(expected[1_500]);
  });

  it("refuses an entry out of order or a count out of range", () => {
    const postings = build([[[5, 1]]]);
    expect(() => postings.add(0, 5, 1)).toThrow(/cannot add message 5/);
    expect(() => postings.add(0, 3, 1)).toThrow(/cannot add message 3/);
    expect(() => postings.add(0, 6, 0)).toThrow(/tf 0/);
    expect(() => postings.add(0, 6, 16)).toThrow(/tf 16/);
    expect(entries(postings, 0)).toEqual([[5, 1]]);
  });

  it("writes every list out and reads it back whole, checking it", () => {
    const lists: [number, number][][] = [[[0, 1], [3, 2]], [[1, 15], [300, 1], [100_000, 3]], [[2, 1]]];
    const { counts, lengths, bytes } = build(lists).encoded();
    const back = Postings.fromEncoded(counts, lengths, bytes.slice(), 100_001);
    lists.forEach((list, t) => expect(entries(back, t)).toEqual(list));
    back.add(2, 100_002, 5);
    expect(entries(back, 2)).toEqual([[2, 1], [100_002, 5]]);
    expect(entries(back, 0)).toEqual(lists[0]);

    expect(() => Postings.fromEncoded(counts, lengths, bytes.slice(), 100_000)).toThrow(/names a message that is not there/);
    expect(() => Postings.fromEncoded(Uint32Array.from([2, 3, 2]), lengths, bytes.slice(), 100_001)).toThrow(/does not decode to its count/);
    expect(() => Postings.fromEncoded(Uint32Array.from([2, 3, 0]), Uint32Array.from([lengths[0], lengths[1], 0]), bytes.slice(0, -1), 100_001)).toThrow(/does not decode/);
    const cut = Uint8Array.from(bytes);
    cut[lengths[0] - 1] |= 0x80; // the first list's last varint now runs into the next list
    expect(() => Postings.fromEncoded(counts, lengths, cut, 100_001)).toThrow(/does not decode to its count/);
    expect(() => Postings.fromEncoded(counts, lengths, Uint8Array.from([...bytes, 1]), 100_001)).toThrow(/left over/);
    expect(() => Postings.fromEncoded(counts, Uint32Array.from([lengths[0], lengths[1], 5]), bytes.slice(), 100_001)).toThrow(/longer than their bytes/);
  });

  it("renumbers messages, dropping removed ones and terms left with none", () => {
    const postings = build([[[0, 1], [2, 2], [4, 3]], [[1, 1], [3, 1]], [[4, 9]]]);
    // Messages 1 and 3 removed: 0, 2, 4 become 0, 1, 2.
    const { postings: next, termMap } = postings.renumbered(Int32Array.from([0, -1, 1, -1, 2]));
    expect([...termMap]).toEqual([0, -1, 1]);
    expect(next.size).toBe(2);
    expect(entries(next, 0)).toEqual([[0, 1], [1, 2], [2, 3]]);
    expect(entries(next, 1)).toEqual([[2, 9]]);
    expect(next.count(0)).toBe(3);
  });
});
