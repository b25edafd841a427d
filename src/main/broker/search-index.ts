/**
 * The inverted index behind the sidebar's search across chats: which messages hold which terms (search-tokens.ts),
 * ranked by BM25. Electron-free and in memory; `serialize`/`deserialize` give it a compact binary form to persist.
 *
 * Why our own and not a library: MiniSearch, the well-kept JS full-text index we tried first, took 565 MB of heap,
 * 21 s to build and 1.3 s for a query on a common word over 200,000 generated messages (1,000 chats of 200), against
 * the 300 ms the sidebar has; its maps of maps cost about 40 bytes per (term, message) pair. Here a term's postings
 * are a run of varint-coded gaps in one shared byte pool (search-postings.ts: under 2 bytes per pair, the message's
 * number and how often the term occurs in it), so the same corpus fits in a few tens of MB, loads from disk as a
 * handful of array copies, and a query costs a walk over the postings of its terms. SQLite's FTS5 would need a
 * native module built for both Electron and Node.
 *
 * Messages are numbered in the order they are added; numbers are never reused, so every postings list stays sorted.
 * Removing a message marks it dead; once the dead outnumber the living, `compact` renumbers and rebuilds.
 */
import { Postings, TF_MAX } from "./search-postings";
import { queryTerms, termCounts } from "./search-tokens";

/** A message as the index takes it: its searchable text and a fingerprint that changes when the message does. */
export interface IndexedMessage {
  text: string;
  print: number;
}

export interface IndexHit {
  sessionId: string;
  messageIndex: number;
  score: number;
}

export interface IndexSearchOptions {
  /** At most this many hits. */
  limit: number;
  /** At most this many hits from one chat, so one long chat cannot fill the list. */
  perSession: number;
  /** Only hits in chats this accepts (live chats: not deleted, not a subagent's). */
  accept?(sessionId: string): boolean;
}

export interface IndexStats {
  messages: number;
  terms: number;
  postings: number;
  /** Bytes held by the arrays (postings, message tables); Map and string overhead come on top. */
  arrayBytes: number;
}

/** One chat's messages: the index's number for each (-1: nothing to search in it) and each one's fingerprint. */
interface SessionDocs {
  slot: number;
  docs: number[];
  prints: number[];
}

/** BM25's usual parameters. */
const K1 = 1.2;
const B = 0.75;
/**
 * A prefix ("pyth") stands for at most this many terms, the most frequent ones, and only as many as fit in the
 * postings budget (the term itself always counts): a short prefix of common words would otherwise walk most of the
 * index on every keystroke.
 */
const MAX_PREFIX_TERMS = 64;
const PREFIX_POSTINGS_BUDGET = 250_000;
/** Longer queries find nothing (each term is a round over its postings; 200 characters hold fewer anyway). */
const MAX_QUERY_TERMS = 64;
const MAGIC = "PDKSRCH1";
/**
 * 3: postings as varint-coded gaps (search-postings.ts). 2: postings as 4-byte entries (read, and converted). 2 is the
 * first with tool results' output indexed too: a file of version 1 has them as messages without text (rebuilt).
 */
const FORMAT_VERSION = 3;
const FORMAT_UINT32_POSTINGS = 2;

export class MessageIndex {
  private termIds = new Map<string, number>();
  private terms: string[] = [];
  /** Each term's messages, by the term's id (its place in `terms`). */
  private postings = new Postings();
  private docSession = new Int32Array(1024);
  private docMessage = new Int32Array(1024);
  private docLength = new Uint16Array(1024);
  private docAlive = new Uint8Array(1024);
  private docCount = 0;
  private liveDocs = 0;
  private deadDocs = 0;
  private totalLength = 0;
  private sessions = new Map<string, SessionDocs>();
  /** Session id by slot ("" once removed); slots are the session numbers the message tables hold. */
  private slots: string[] = [];

  /** How many messages of the chat the index holds (with or without text). */
  messageCount(sessionId: string): number {
    return this.sessions.get(sessionId)?.docs.length ?? 0;
  }

  /** The fingerprints of the chat's messages as indexed, in order. */
  prints(sessionId: string): readonly number[] {
    return this.sessions.get(sessionId)?.prints ?? [];
  }

  /** The chats the index holds. */
  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * Makes `messages` the chat's messages from number `start` on: the ones it held from there are removed first.
   * `start` may not be past the messages it holds (clamped).
   */
  replaceFrom(sessionId: string, start: number, messages: readonly IndexedMessage[]): void {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { slot: this.slots.length, docs: [], prints: [] };
      this.slots.push(sessionId);
      this.sessions.set(sessionId, session);
    }
    const from = Math.max(0, Math.min(start, session.docs.length));
    for (let i = from; i < session.docs.length; i++) this.kill(session.docs[i]);
    session.docs.length = from;
    session.prints.length = from;
    for (const message of messages) {
      session.docs.push(this.addDoc(session.slot, session.docs.length, message.text));
      session.prints.push(message.print);
    }
    this.compactIfWasteful();
  }

  /** Forgets the chat (a purged chat). */
  removeSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    for (const doc of session.docs) this.kill(doc);
    this.sessions.delete(sessionId);
    this.slots[session.slot] = "";
    this.compactIfWasteful();
  }

  /**
   * The messages that hold every term of `query` (the last one also as the start of a longer term), best first:
   * BM25 over the message's text, newer messages first among equals.
   */
  search(query: string, options: IndexSearchOptions): IndexHit[] {
    const { terms, lastIsPrefix } = queryTerms(query);
    if (terms.length === 0 || terms.length > MAX_QUERY_TERMS || this.liveDocs === 0) return [];
    const groups: number[][] = terms.map((term, i) => this.matchingTerms(term, lastIsPrefix && i === terms.length - 1));
    if (groups.some((g) => g.length === 0)) return [];
    // Rarest first: the candidates only shrink, so the first walk sets the work for the rest.
    const order = groups.map((ids) => ({ ids, size: ids.reduce((n, t) => n + this.postings.count(t), 0) })).sort((a, b) => a.size - b.size);
    const total = new Float64Array(this.docCount);
    const best = new Float64Array(this.docCount);
    // How many query terms a message has matched so far: only those that matched every earlier one stay in.
    const matched = new Uint8Array(this.docCount);
    let candidates: number[] = [];
    for (let round = 0; round < order.length; round++) {
      candidates = this.scoreRound(order[round].ids, round, matched, best);
      if (candidates.length === 0) return [];
      for (const doc of candidates) total[doc] += best[doc];
    }
    return this.rank(candidates, total, options);
  }

  stats(): IndexStats {
    let postings = 0;
    for (let t = 0; t < this.postings.size; t++) postings += this.postings.count(t);
    let arrayBytes = this.postings.byteLength();
    arrayBytes += this.docSession.byteLength + this.docMessage.byteLength + this.docLength.byteLength + this.docAlive.byteLength;
    return { messages: this.liveDocs, terms: this.terms.length, postings, arrayBytes };
  }

  /**
   * The index as bytes, `extra` (any JSON: the caller's bookkeeping) included; `deserialize` reads it back.
   * Compacts first, so the file holds no dead messages.
   */
  serialize(extra: unknown): Buffer {
    this.compact();
    const header = Buffer.from(
      JSON.stringify({
        v: FORMAT_VERSION,
        docs: this.docCount,
        terms: this.terms,
        sessions: [...this.sessions].map(([id, s]) => [id, s.docs, s.prints]),
        extra,
      }),
      "utf8",
    );
    const { counts, lengths, bytes: lists } = this.postings.encoded();
    const n = this.docCount;
    const docLengths = new Uint16Array(n + (n % 2)); // keeps the next section 4-byte aligned
    docLengths.set(this.docLength.subarray(0, n));
    const prefix = Buffer.alloc(12);
    prefix.write(MAGIC, 0, "latin1");
    prefix.writeUInt32LE(header.length, 8);
    const pad = Buffer.alloc((4 - ((12 + header.length) % 4)) % 4);
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    return Buffer.concat([
      prefix, header, pad, bytes(counts), bytes(lengths),
      bytes(this.docSession.subarray(0, n)), bytes(this.docMessage.subarray(0, n)), bytes(docLengths), bytes(lists),
    ]);
  }

  /**
   * Reads what `serialize` wrote, or what it wrote before postings were varint-coded (format 2, converted: `older`
   * says so, the file is worth saving again). Throws on anything else (a damaged or foreign file, format 1), never
   * returns a broken index.
   */
  static deserialize(buffer: Buffer): { index: MessageIndex; extra: unknown; older: boolean } {
    const fail = (why: string): never => {
      throw new Error(`Not a search index file: ${why}`);
    };
    if (buffer.length < 12 || buffer.toString("latin1", 0, 8) !== MAGIC) fail("wrong header");
    const headerLength = buffer.readUInt32LE(8);
    if (12 + headerLength > buffer.length) fail("truncated header");
    let header: { v?: unknown; docs?: unknown; terms?: unknown; sessions?: unknown; extra?: unknown } = {};
    try {
      const parsed: unknown = JSON.parse(buffer.toString("utf8", 12, 12 + headerLength));
      if (typeof parsed === "object" && parsed !== null) header = parsed as typeof header;
    } catch {
      fail("damaged header");
    }
    const version = header.v;
    if (version !== FORMAT_VERSION && version !== FORMAT_UINT32_POSTINGS) fail(`format version ${String(version)}`);
    const docs = header.docs;
    if (!Number.isInteger(docs) || (docs as number) < 0) fail("message count");
    const n = docs as number;
    if (!Array.isArray(header.terms) || !header.terms.every((t) => typeof t === "string")) fail("terms");
    const terms = header.terms as string[];
    let at = 12 + headerLength;
    at += (4 - (at % 4)) % 4;
    const take = <T>(make: (b: ArrayBuffer) => T, bytes: number): T => {
      if (at + bytes > buffer.length) fail("truncated");
      const copy = buffer.buffer.slice(buffer.byteOffset + at, buffer.byteOffset + at + bytes) as ArrayBuffer;
      at += bytes;
      return make(copy);
    };
    const counts = take((b) => new Uint32Array(b), terms.length * 4);
    let postings: Postings;
    let docSession: Int32Array<ArrayBuffer>;
    let docMessage: Int32Array<ArrayBuffer>;
    let docLength: Uint16Array<ArrayBuffer>;
    if (version === FORMAT_UINT32_POSTINGS) {
      const all = take((b) => new Uint32Array(b), counts.reduce((s, c) => s + c, 0) * 4);
      docSession = take((b) => new Int32Array(b), n * 4);
      docMessage = take((b) => new Int32Array(b), n * 4);
      docLength = take((b) => new Uint16Array(b), (n + (n % 2)) * 2);
      if (at !== buffer.length) fail("trailing bytes");
      try {
        postings = Postings.fromUint32(counts, all, n);
      } catch (error) {
        return fail((error as Error).message);
      }
    } else {
      const lengths = take((b) => new Uint32Array(b), terms.length * 4);
      docSession = take((b) => new Int32Array(b), n * 4);
      docMessage = take((b) => new Int32Array(b), n * 4);
      docLength = take((b) => new Uint16Array(b), (n + (n % 2)) * 2);
      const lists = take((b) => new Uint8Array(b), lengths.reduce((s, l) => s + l, 0));
      if (at !== buffer.length) fail("trailing bytes");
      try {
        postings = Postings.fromEncoded(counts, lengths, lists, n);
      } catch (error) {
        return fail((error as Error).message);
      }
    }

    const index = new MessageIndex();
    index.postings = postings;
    terms.forEach((term, t) => {
      if (index.termIds.has(term)) fail("terms");
      index.termIds.set(term, t);
    });
    index.terms = terms;
    if (!Array.isArray(header.sessions)) fail("sessions");
    const owner = new Int32Array(n).fill(-1);
    for (const entry of header.sessions as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== "string" || index.sessions.has(entry[0])) fail("sessions");
      const [id, docList, prints] = entry as [string, unknown, unknown];
      if (!Array.isArray(docList) || !Array.isArray(prints) || docList.length !== prints.length) fail("sessions");
      const slot = index.slots.length;
      (docList as unknown[]).forEach((doc, i) => {
        if (doc === -1) return;
        if (!Number.isInteger(doc) || (doc as number) < 0 || (doc as number) >= n || owner[doc as number] !== -1) fail("sessions");
        if (docSession[doc as number] !== slot || docMessage[doc as number] !== i) fail("message table");
        owner[doc as number] = slot;
      });
      if (!(prints as unknown[]).every((p) => Number.isInteger(p))) fail("fingerprints");
      index.slots.push(id);
      index.sessions.set(id, { slot, docs: docList as number[], prints: prints as number[] });
    }
    if (owner.some((o) => o === -1)) fail("a message belongs to no chat");
    index.docSession = docSession;
    index.docMessage = docMessage;
    index.docLength = docLength;
    index.docAlive = new Uint8Array(n).fill(1);
    index.docCount = n;
    index.liveDocs = n;
    for (let d = 0; d < n; d++) index.totalLength += docLength[d];
    return { index, extra: header.extra, older: version !== FORMAT_VERSION };
  }

  /** Renumbers the living messages and drops the dead from every postings list (and terms left with none). */
  compact(): void {
    if (this.deadDocs === 0) return;
    const renumber = new Int32Array(this.docCount).fill(-1);
    const n = this.liveDocs;
    const docSession = new Int32Array(Math.max(n, 1024));
    const docMessage = new Int32Array(docSession.length);
    const docLength = new Uint16Array(docSession.length);
    let next = 0;
    for (let d = 0; d < this.docCount; d++) {
      if (!this.docAlive[d]) continue;
      renumber[d] = next;
      docSession[next] = this.docSession[d];
      docMessage[next] = this.docMessage[d];
      docLength[next] = this.docLength[d];
      next++;
    }
    const { postings, termMap } = this.postings.renumbered(renumber);
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    for (let t = 0; t < this.terms.length; t++) {
      if (termMap[t] < 0) continue;
      termIds.set(this.terms[t], terms.length);
      terms.push(this.terms[t]);
    }
    for (const session of this.sessions.values()) session.docs = session.docs.map((d) => (d < 0 ? d : renumber[d]));
    // Slots of removed chats go too: the living ones are renumbered in order.
    const slotMap = new Int32Array(this.slots.length).fill(-1);
    const slots: string[] = [];
    this.slots.forEach((id, slot) => {
      if (id === "") return;
      slotMap[slot] = slots.length;
      this.sessions.get(id)!.slot = slots.length;
      slots.push(id);
    });
    for (let d = 0; d < n; d++) docSession[d] = slotMap[docSession[d]];
    Object.assign(this, { termIds, terms, postings, docSession, docMessage, docLength, slots });
    this.docAlive = new Uint8Array(docSession.length).fill(1, 0, n);
    this.docCount = n;
    this.deadDocs = 0;
  }

  /**
   * Gives back the room postings lists keep to grow (up to half as much again as a list holds, once it moved) and the
   * room they moved away from: once a build is done, most lists stop growing, and a large corpus (command output holds
   * many terms per message) would carry that room for nothing.
   */
  trim(): void {
    this.postings.trim();
  }

  private compactIfWasteful(): void {
    if (this.deadDocs > 10_000 && this.deadDocs > this.liveDocs) this.compact();
  }

  private kill(doc: number): void {
    if (doc < 0 || !this.docAlive[doc]) return;
    this.docAlive[doc] = 0;
    this.liveDocs--;
    this.deadDocs++;
    this.totalLength -= this.docLength[doc];
  }

  /** Adds one message; returns its number, or -1 when it has no term (nothing to find it by). */
  private addDoc(slot: number, messageIndex: number, text: string): number {
    const { counts, length } = termCounts(text);
    if (length === 0) return -1;
    const doc = this.docCount++;
    if (doc >= this.docSession.length) this.growDocs();
    this.docSession[doc] = slot;
    this.docMessage[doc] = messageIndex;
    this.docLength[doc] = Math.min(length, 0xffff);
    this.docAlive[doc] = 1;
    this.liveDocs++;
    this.totalLength += this.docLength[doc];
    for (const [term, count] of counts) this.postings.add(this.termId(term), doc, Math.min(count, TF_MAX));
    return doc;
  }

  private growDocs(): void {
    const size = Math.max(1024, this.docSession.length * 2);
    const grow = <T extends Int32Array | Uint16Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.docSession = grow(this.docSession, (n) => new Int32Array(n));
    this.docMessage = grow(this.docMessage, (n) => new Int32Array(n));
    this.docLength = grow(this.docLength, (n) => new Uint16Array(n));
    this.docAlive = grow(this.docAlive, (n) => new Uint8Array(n));
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.postings.addTerm();
    }
    return id;
  }

  /** The term itself, or as a prefix the terms it starts (at most MAX_PREFIX_TERMS, the most frequent). */
  private matchingTerms(term: string, prefix: boolean): number[] {
    const exact = this.termIds.get(term);
    if (!prefix) return exact === undefined ? [] : [exact];
    const found: number[] = [];
    for (let t = 0; t < this.terms.length; t++) if (t !== exact && this.terms[t].startsWith(term)) found.push(t);
    found.sort((a, b) => this.postings.count(b) - this.postings.count(a));
    const chosen = exact === undefined ? [] : [exact];
    let budget = PREFIX_POSTINGS_BUDGET - (exact === undefined ? 0 : this.postings.count(exact));
    for (const t of found) {
      if (chosen.length >= MAX_PREFIX_TERMS) break;
      if (this.postings.count(t) > budget && chosen.length > 0) continue;
      chosen.push(t);
      budget -= this.postings.count(t);
    }
    return chosen;
  }

  /**
   * One query term's round: BM25 of the term (a group: the terms a prefix stands for, the best of them per message)
   * into `best` for every living message that matched all earlier rounds; returns those messages.
   */
  private scoreRound(termIds: number[], round: number, matched: Uint8Array, best: Float64Array): number[] {
    const hits: number[] = [];
    const n = this.liveDocs;
    const lengthFactor = (K1 * B) / (this.totalLength / Math.max(1, n));
    const { docAlive, docLength } = this;
    let docs = new Int32Array(0);
    let tfs = new Uint8Array(0);
    for (const t of termIds) {
      const count = this.postings.count(t);
      const idf = Math.log(1 + (n - count + 0.5) / (count + 0.5));
      if (docs.length < count) [docs, tfs] = [new Int32Array(count), new Uint8Array(count)];
      this.postings.decode(t, docs, tfs);
      for (let i = 0; i < count; i++) {
        const doc = docs[i];
        const tf = tfs[i];
        const seen = matched[doc];
        if (seen < round || seen > round + 1 || !docAlive[doc]) continue;
        const score = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B) + lengthFactor * docLength[doc]);
        if (seen === round) {
          matched[doc] = round + 1;
          best[doc] = score;
          hits.push(doc);
        } else if (score > best[doc]) best[doc] = score;
      }
    }
    return hits;
  }

  /** The best `limit` hits in accepted chats, at most `perSession` from each. */
  private rank(candidates: readonly number[], scores: Float64Array, options: IndexSearchOptions): IndexHit[] {
    // Per chat: 0 not asked yet, 1 accepted, 2 not.
    const accepted = new Uint8Array(this.slots.length);
    const acceptSlot = (slot: number) => {
      if (accepted[slot] === 0) {
        const id = this.slots[slot];
        accepted[slot] = id !== "" && (options.accept?.(id) ?? true) ? 1 : 2;
      }
      return accepted[slot] === 1;
    };
    const better = (a: number, b: number) => scores[b] - scores[a] || b - a;
    const pool = candidates.filter((doc) => acceptSlot(this.docSession[doc]));
    // A common word matches most messages: sorting them all would dominate the query, so take the best few first
    // and look further only when the per-chat cap leaves too few.
    for (let wanted = Math.max(options.limit * 4, 64); ; wanted *= 4) {
      const top = pool.length <= wanted * 2 ? [...pool].sort(better) : bestOf(pool, wanted, better);
      const hits: IndexHit[] = [];
      const perSession = new Map<number, number>();
      for (const doc of top) {
        const slot = this.docSession[doc];
        const taken = perSession.get(slot) ?? 0;
        if (taken >= options.perSession) continue;
        perSession.set(slot, taken + 1);
        hits.push({ sessionId: this.slots[slot], messageIndex: this.docMessage[doc], score: scores[doc] });
        if (hits.length >= options.limit) break;
      }
      if (hits.length >= options.limit || top.length === pool.length) return hits;
    }
  }
}

/** The `k` best of `items` by `better` (negative: the first is better), best first, without sorting them all. */
function bestOf(items: readonly number[], k: number, better: (a: number, b: number) => number): number[] {
  // A heap of the k best so far, worst at the root.
  const heap: number[] = [];
  const worse = (i: number, j: number) => better(heap[i], heap[j]) > 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(l, m)) m = l;
      if (r < heap.length && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (better(item, heap[0]) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(better);
}

