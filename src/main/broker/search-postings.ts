/**
 * The search index's postings (search-index.ts): for each term, the messages that hold it and how often, kept small.
 *
 * Each term's list is a run of bytes in one shared pool: an entry is `gap * 16 + tf` as a varint (7 bits a byte, low
 * bits first), where `gap` is how many message numbers lie between it and the entry before (the first entry's gap is
 * its message number) and `tf` how often the term occurs there (1..15: BM25 has saturated by then). Lists are sorted
 * because messages are numbered in the order they are added. A term's count, last message, and place in the pool
 * are parallel typed arrays keyed by the term's id, so a term costs about 20 bytes here, not a typed array object.
 *
 * Why: over the tool-output corpus (150,000 messages, 22.6 million (term, message) pairs) 4-byte entries in one
 * `Uint32Array` per term took 90 MB of arrays and about 20 MB of heap for the arrays' objects; varint gaps take
 * 1.65 bytes an entry (a term in every command's output has gaps of 4: one byte), and the pool has no per-term
 * objects. Most terms there occur once (hashes, numbers: 85,000 of 107,000): 3 or 4 bytes of pool each, so they are
 * not kept apart (a map from such a term to its message would cost more than the pool and tables do).
 *
 * A list that outgrows its room moves to the pool's end with half as much room again; the room it left is garbage,
 * reclaimed when the pool fills (`repack`, which also runs on `trim`: then every list has exactly its bytes).
 */

/** An entry: message number times this plus the term's count in it. */
export const TF_LIMIT = 16;
export const TF_MAX = TF_LIMIT - 1;
const INITIAL_POOL = 64 * 1024;
const INITIAL_TERMS = 1024;
/** A repacked full pool has this much room for what it had and what is asked. */
const POOL_GROWTH = 1.25;
/** A list that outgrows its room moves with this much room for what it holds. */
const ROOM_GROWTH = 1.5;

/** How many bytes `value` (a non-negative integer below 2^53) takes as a varint. */
export function varintLength(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  let n = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    n++;
  }
  return n;
}

/** Writes `value` as a varint at `at`; returns where it ends. */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  if (value < 0x80000000) {
    // The usual case, in 32-bit integer steps.
    while (value >= 0x80) {
      bytes[at++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    bytes[at++] = value;
    return at;
  }
  while (value >= 0x80) {
    bytes[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

/** What `readEntry` read last: the gap to the entry before (message numbers between them) and the tf. */
const entry = { gap: 0, tf: 0 };

/**
 * Reads the entry at `at` (before `end`) into `entry`; returns where the next one starts, or -1 when the bytes there
 * are not an entry (the varint runs past `end`, or past the 5 bytes the largest entry takes). Integer steps only
 * (`Postings.decode`, the search's, repeats them inline).
 */
function readEntry(bytes: Uint8Array, at: number, end: number): number {
  let b = bytes[at++];
  let low = b & 0x7f;
  let high = 0;
  if (b >= 0x80) {
    if (at >= end) return -1;
    b = bytes[at++];
    low |= (b & 0x7f) << 7;
    if (b >= 0x80) {
      if (at >= end) return -1;
      b = bytes[at++];
      low |= (b & 0x7f) << 14;
      if (b >= 0x80) {
        if (at >= end) return -1;
        b = bytes[at++];
        low |= (b & 0x7f) << 21;
        if (b >= 0x80) {
          if (at >= end) return -1;
          high = bytes[at++];
          if (high >= 0x80) return -1;
        }
      }
    }
  }
  // The value is low + high * 2^28: its tf is in low's last 4 bits, and high * 2^24 + (low >>> 4) < 2^31.
  entry.gap = high * 0x1000000 + (low >>> 4);
  entry.tf = low & TF_MAX;
  return at;
}

/**
 * Calls `each(message, tf)` for every entry of a list encoded in `bytes[start, end)`. Returns how many it read, or
 * -1 when the bytes are not a list.
 */
export function decodeList(bytes: Uint8Array, start: number, end: number, each: (doc: number, tf: number) => void): number {
  let doc = -1;
  let n = 0;
  for (let at = start; at < end; n++) {
    at = readEntry(bytes, at, end);
    if (at < 0) return -1;
    doc += entry.gap + 1;
    each(doc, entry.tf);
  }
  return n;
}

/**
 * Checks a list encoded in `bytes[start, end)` as decodeList reads it, without calling anything per entry: how many
 * entries it holds and its last message, or undefined when the bytes are not a list (or an entry's tf is 0).
 */
function checkList(bytes: Uint8Array, start: number, end: number): { count: number; last: number } | undefined {
  let doc = -1;
  let count = 0;
  for (let at = start; at < end; count++) {
    at = readEntry(bytes, at, end);
    if (at < 0 || entry.tf === 0) return undefined;
    doc += entry.gap + 1;
  }
  return { count, last: doc };
}

export class Postings {
  private pool = new Uint8Array(INITIAL_POOL);
  /** Bytes of the pool handed out: lists' room, and the room lists moved away from (garbage until a repack). */
  private used = 0;
  private termCount = 0;
  private starts = new Uint32Array(INITIAL_TERMS);
  private lengths = new Uint32Array(INITIAL_TERMS);
  private rooms = new Uint32Array(INITIAL_TERMS);
  private lasts = new Int32Array(INITIAL_TERMS);
  private counts = new Uint32Array(INITIAL_TERMS);

  /** How many terms (ids 0..size-1). */
  get size(): number {
    return this.termCount;
  }

  /** A new term's id, its list empty. */
  addTerm(): number {
    const id = this.termCount++;
    if (id >= this.starts.length) this.growTerms(this.starts.length * 2);
    this.starts[id] = 0;
    this.lengths[id] = 0;
    this.rooms[id] = 0;
    this.lasts[id] = -1;
    this.counts[id] = 0;
    return id;
  }

  /** How many messages the term's list holds (removed ones included until compacted). */
  count(term: number): number {
    return this.counts[term];
  }

  /** Appends (doc, tf) to the term's list; `doc` must be past the list's last message, tf 1..15. */
  add(term: number, doc: number, tf: number): void {
    const last = this.lasts[term];
    if (doc <= last || doc > 0x7fffffff || !(tf >= 1 && tf <= TF_MAX)) throw new Error(`search postings: cannot add message ${doc} (tf ${tf}) after ${last}`);
    const value = (doc - last - 1) * TF_LIMIT + tf;
    const need = varintLength(value);
    if (this.lengths[term] + need > this.rooms[term]) this.makeRoom(term, need);
    writeVarint(this.pool, this.starts[term] + this.lengths[term], value);
    this.lengths[term] += need;
    this.lasts[term] = doc;
    this.counts[term]++;
  }

  /** The pool and where the term's list lies in it. */
  bytes(term: number): { pool: Uint8Array; start: number; end: number } {
    return { pool: this.pool, start: this.starts[term], end: this.starts[term] + this.lengths[term] };
  }

  /**
   * Decodes the term's list into `docs` and `tfs` (each at least `count(term)` long); returns how many entries. The
   * search walks these arrays: one tight loop here, over the pool's bytes, then plain array reads there.
   */
  decode(term: number, docs: Int32Array, tfs: Uint8Array): number {
    const pool = this.pool;
    const end = this.starts[term] + this.lengths[term];
    let doc = -1;
    let n = 0;
    for (let at = this.starts[term]; at < end; n++) {
      // readEntry's steps, inline (the lists were checked when added or loaded): this loop is most of a query's cost.
      let b = pool[at++];
      let low = b & 0x7f;
      let high = 0;
      if (b >= 0x80) {
        b = pool[at++];
        low |= (b & 0x7f) << 7;
        if (b >= 0x80) {
          b = pool[at++];
          low |= (b & 0x7f) << 14;
          if (b >= 0x80) {
            b = pool[at++];
            low |= (b & 0x7f) << 21;
            if (b >= 0x80) high = pool[at++];
          }
        }
      }
      doc += high * 0x1000000 + (low >>> 4) + 1;
      docs[n] = doc;
      tfs[n] = low & TF_MAX;
    }
    return n;
  }

  /** Calls `each(doc, tf)` for the term's entries in order. */
  forEach(term: number, each: (doc: number, tf: number) => void): void {
    decodeList(this.pool, this.starts[term], this.starts[term] + this.lengths[term], each);
  }

  /** Bytes the arrays hold (the pool with its free room and garbage, and the per-term tables). */
  byteLength(): number {
    return this.pool.byteLength + this.starts.byteLength * 4 + this.counts.byteLength;
  }

  /** Every list's entries, in order, and how many bytes they take: the bytes a file holds. */
  encoded(): { counts: Uint32Array; lengths: Uint32Array; bytes: Uint8Array } {
    const n = this.termCount;
    const lengths = this.lengths.slice(0, n);
    const bytes = new Uint8Array(lengths.reduce((s, l) => s + l, 0));
    let at = 0;
    for (let t = 0; t < n; t++) {
      bytes.set(this.pool.subarray(this.starts[t], this.starts[t] + lengths[t]), at);
      at += lengths[t];
    }
    return { counts: this.counts.slice(0, n), lengths, bytes };
  }

  /**
   * Postings from what `encoded` gave, checked whole: each list must decode to its count of entries with messages
   * below `docs`. Throws (saying what is wrong) otherwise.
   */
  static fromEncoded(counts: Uint32Array, lengths: Uint32Array, bytes: Uint8Array<ArrayBuffer>, docs: number): Postings {
    const postings = new Postings();
    const n = counts.length;
    postings.growTerms(Math.max(INITIAL_TERMS, n));
    postings.pool = bytes;
    postings.used = bytes.length;
    postings.termCount = n;
    let at = 0;
    for (let t = 0; t < n; t++) {
      const end = at + lengths[t];
      if (end > bytes.length) throw new Error("postings longer than their bytes");
      const list = checkList(bytes, at, end);
      if (counts[t] === 0 || list?.count !== counts[t]) throw new Error("a postings list does not decode to its count");
      const last = list.last;
      if (last >= docs) throw new Error("a posting names a message that is not there");
      postings.starts[t] = at;
      postings.lengths[t] = lengths[t];
      postings.rooms[t] = lengths[t];
      postings.lasts[t] = last;
      postings.counts[t] = counts[t];
      at = end;
    }
    if (at !== bytes.length) throw new Error("postings bytes left over");
    return postings;
  }

  /**
   * Postings from 4-byte entries (message number times 16 plus tf: the index file's format 2), `counts[t]` of them
   * for term t in turn, checked as they are converted: each list ascending, its messages below `docs`, tf 1..15.
   */
  static fromUint32(counts: Uint32Array, all: Uint32Array, docs: number): Postings {
    const n = counts.length;
    const lengths = new Uint32Array(n);
    let at = 0;
    let size = 0;
    for (let t = 0; t < n; t++) {
      if (counts[t] === 0) throw new Error("a term without messages");
      let last = -1;
      for (const end = at + counts[t]; at < end; at++) {
        const doc = all[at] >>> 4;
        const tf = all[at] & TF_MAX;
        if (doc <= last || tf === 0) throw new Error("postings out of order");
        if (doc >= docs) throw new Error("a posting names a message that is not there");
        lengths[t] += varintLength((doc - last - 1) * TF_LIMIT + tf);
        last = doc;
      }
      size += lengths[t];
    }
    const bytes = new Uint8Array(size);
    let to = 0;
    at = 0;
    for (let t = 0; t < n; t++) {
      let last = -1;
      for (const end = at + counts[t]; at < end; at++) {
        const doc = all[at] >>> 4;
        to = writeVarint(bytes, to, (doc - last - 1) * TF_LIMIT + (all[at] & TF_MAX));
        last = doc;
      }
    }
    return Postings.fromEncoded(counts, lengths, bytes, docs);
  }

  /**
   * The lists with messages renumbered by `renumber` (-1: dropped), terms left with none dropped too: the new
   * postings and each old term's new id (-1: dropped). Every list gets exactly its bytes.
   */
  renumbered(renumber: Int32Array): { postings: Postings; termMap: Int32Array } {
    const next = new Postings();
    const termMap = new Int32Array(this.termCount).fill(-1);
    let id = -1;
    const keep = (doc: number, tf: number) => {
      const to = renumber[doc];
      if (to < 0) return;
      if (id < 0) id = next.addTerm();
      next.add(id, to, tf);
    };
    for (let t = 0; t < this.termCount; t++) {
      id = -1;
      this.forEach(t, keep);
      termMap[t] = id;
    }
    next.repack(0);
    return { postings: next, termMap };
  }

  /** Gives back the lists' room to grow and the garbage: each list then has exactly its bytes. */
  trim(): void {
    this.repack(0);
    if (this.starts.length > this.termCount + INITIAL_TERMS) this.growTerms(this.termCount + INITIAL_TERMS);
  }

  /**
   * Gives the term's list room for `need` more bytes: in place when it ends the pool's handed-out part, else moved to
   * the end with half as much again as it holds (a term's first entry gets exactly its bytes: most terms never get a
   * second).
   */
  private makeRoom(term: number, need: number): void {
    const length = this.lengths[term];
    const room = length === 0 ? need : Math.max(length + need, Math.ceil(length * ROOM_GROWTH));
    const held = this.rooms[term];
    if (held > 0 && this.starts[term] + held === this.used && this.used + room - held <= this.pool.length) {
      this.used += room - held;
      this.rooms[term] = room;
      return;
    }
    if (this.used + room > this.pool.length) this.repack(room);
    const at = this.used;
    this.pool.copyWithin(at, this.starts[term], this.starts[term] + length);
    this.used += room;
    this.starts[term] = at;
    this.rooms[term] = room;
  }

  /**
   * Copies every list into a new pool, leaving the garbage behind. With `free` > 0 (the pool is full): lists keep
   * their room and the pool has `free` bytes and a quarter more to spare. With `free` 0 (trim): every list and the
   * pool get exactly their bytes.
   */
  private repack(free: number): void {
    const n = this.termCount;
    const keep = free === 0 ? this.lengths : this.rooms;
    let size = 0;
    for (let t = 0; t < n; t++) size += keep[t];
    const pool = new Uint8Array(free === 0 ? size : Math.max(INITIAL_POOL, Math.ceil((size + free) * POOL_GROWTH)));
    let at = 0;
    for (let t = 0; t < n; t++) {
      if (this.lengths[t] > 0) pool.set(this.pool.subarray(this.starts[t], this.starts[t] + this.lengths[t]), at);
      this.starts[t] = at;
      this.rooms[t] = keep[t];
      at += keep[t];
    }
    this.pool = pool;
    this.used = at;
  }

  private growTerms(size: number): void {
    const grow = <T extends Uint32Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old.subarray(0, Math.min(this.termCount, size)));
      return next;
    };
    this.starts = grow(this.starts, (n) => new Uint32Array(n));
    this.lengths = grow(this.lengths, (n) => new Uint32Array(n));
    this.rooms = grow(this.rooms, (n) => new Uint32Array(n));
    this.lasts = grow(this.lasts, (n) => new Int32Array(n));
    this.counts = grow(this.counts, (n) => new Uint32Array(n));
  }
}
