/**
 * The sidebar's search across chats, in main (Electron-free): keeps the index (search-index.ts) in step with the
 * transcripts and answers `searchMessages`.
 *
 * - **Following the chats.** A worker's status report (and its session closing) makes main read what its transcript
 *   gained since last time (search-transcripts.ts): workers already report at the start and end of every run, so the
 *   protocol needs nothing new, and main reads only appended bytes. A chat created or imported is read when the
 *   session index first lists it; a purged one is forgotten.
 * - **Persisted, caught up at start.** The index is saved beside the transcripts (`search-index.bin`) a while after
 *   it changes and when Paddock quits, with where reading stopped in each transcript. At start it loads in the
 *   background (about 150 ms for 200,000 messages; building it afresh from the transcripts takes seconds of main's
 *   time), then reads only what the transcripts gained since. It is derived data: a file that does not load is
 *   rebuilt from the transcripts, and nothing is lost.
 * - **Never in the way.** Reading runs one chat at a time, yielding between chats and every few hundred messages, so
 *   main keeps answering windows while it builds; a search meanwhile answers from what is indexed and says so.
 * - **Snippets from the transcripts.** The index keeps no text; a hit's snippet is cut from its chat's transcript
 *   (a few recent ones are kept), and a hit whose message no longer matches is left out and its chat read again.
 * - **Telling the pages.** `onIndexChange` fires when what a search would answer changed: messages indexed or
 *   dropped, a chat deleted or restored, the reading a search was told of ("indexing") finished. Changes close
 *   together are told once (`announceDelayMs`), so a reply landing while chats are read does not flood; the app
 *   service pushes it to every page as the `search-index` event, and open results ask again then, never otherwise.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { AgentMessage } from "../../shared/agent/types";
import type { MessageHit, MessageSearchResult } from "../../shared/protocol/app-api";
import { isSearchableRole, searchableText } from "../../shared/search/searchable-text";
import { loadTranscript } from "../../shared-node/session-files/transcript-store";
import { MessageIndex, type IndexedMessage } from "./search-index";
import { snippetOf } from "./search-snippet";
import { readTranscriptChanges, type TranscriptCursor } from "./search-transcripts";
import type { BrokerEvent } from "./session-broker";
import type { SessionIndex } from "./session-index";
import { isRecord } from "../../shared/is-record";
import { Listeners } from "../../shared/transport/transport";

/** Text past this many characters of one message is not indexed (a pasted log would otherwise fill the dictionary). */
const MAX_INDEXED_CHARS = 100_000;
/** Messages indexed between two yields to the event loop. */
const CHUNK = 500;
/** How long after a change the index is saved (changes in between are saved together). */
const SAVE_DELAY_MS = 30_000;
/** At most this many hits from one chat. */
const PER_CHAT = 3;
/** Chats whose message texts are kept for snippets: typing a query on refines it, and the same chats come back. */
const SNIPPET_CACHE = 32;
/** Changes to the index within this long of the first are told to the pages once. */
const ANNOUNCE_DELAY_MS = 250;

export interface MessageSearchOptions {
  /** The saved index (read at start, written after changes and by `flush`). */
  file: string;
  sessions: SessionIndex;
  transcriptFile(sessionId: string): string;
  /** The broker's events: status reports and closed sessions say a transcript grew. */
  onBrokerEvent(listener: (event: BrokerEvent) => void): () => void;
  /** Delay before saving after a change; default 30 s. */
  saveDelayMs?: number;
  /** How long changes are gathered before `onIndexChange` tells them (once); default 250 ms. */
  announceDelayMs?: number;
}

/** A chat's messages as snippets need them: who said it (a tool's output: which tool) and its searchable text. */
interface CachedTranscript {
  offset: number;
  messages: { role: string; toolName?: string; text: string }[];
}

export class MessageSearch {
  private index = new MessageIndex();
  private cursors = new Map<string, TranscriptCursor>();
  /** Chats waiting to be read, in order; a chat asked for again while being read goes round once more. */
  private readonly queue = new Set<string>();
  private working?: Promise<void>;
  private started = false;
  private trimmed = false;
  private loading: Promise<void>;
  private saveTimer?: ReturnType<typeof setTimeout>;
  private dirty = false;
  /** The save under way, if any. */
  private saving?: Promise<void>;
  private disposed = false;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly snippetSources = new Map<string, CachedTranscript>();
  private readonly indexChanges = new Listeners<[]>();
  private announceTimer?: ReturnType<typeof setTimeout>;
  /** A search answered "indexing" since the reading last finished: its end is told (the answer may grow). */
  private answeredIndexing = false;
  /** Whether each chat seen changing was live then (deleting or restoring an indexed chat changes what is found). */
  private readonly liveness = new Map<string, boolean>();

  constructor(private readonly options: MessageSearchOptions) {
    this.unsubscribe.push(
      options.onBrokerEvent((event) => {
        if (event.type === "status") this.refresh(event.status.sessionId);
        else if (event.type === "session-closed") this.refresh(event.sessionId);
      }),
      options.sessions.onChange((id) => {
        const record = options.sessions.get(id);
        if (!record) {
          this.liveness.delete(id);
          this.forget(id);
          return;
        }
        // A chat never seen before was live (deleted chats found at start are not indexed).
        const live = options.sessions.isLive(id);
        const was = this.liveness.get(id) ?? true;
        this.liveness.set(id, live);
        if (live !== was && this.index.messageCount(id) > 0) this.announce();
        if (!record.parent && !this.cursors.has(id)) this.refresh(id);
      }),
    );
    // Loading waits for the next turn of the event loop: the first window comes first.
    this.loading = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.load());
  }

  /** Resolves once every chat listed at start has been read into the index (tests, benchmarks). */
  async ready(): Promise<void> {
    await this.loading;
    while (this.working) await this.working;
  }

  /** Reads what the chat's transcript gained (soon, in the background). */
  refresh(sessionId: string): void {
    if (this.disposed) return;
    const record = this.options.sessions.get(sessionId);
    if (!record || record.parent) return;
    this.queue.add(sessionId);
    if (this.started) this.work();
  }

  /**
   * Calls `listener` (no arguments) a moment after what a search answers may have changed; see the file's comment.
   * Returns the unsubscribe function.
   */
  onIndexChange(listener: () => void): () => void {
    return this.indexChanges.add(listener);
  }

  /** Drops a chat from the index (it was purged). */
  forget(sessionId: string): void {
    this.queue.delete(sessionId);
    this.snippetSources.delete(sessionId);
    if (!this.cursors.delete(sessionId) && this.index.messageCount(sessionId) === 0) return;
    const had = this.index.messageCount(sessionId) > 0;
    this.index.removeSession(sessionId);
    this.changed();
    if (had) this.announce();
  }

  /** Messages of live chats matching `query`, best first; see AppApi.searchMessages. */
  async search(query: string, limit: number): Promise<MessageSearchResult> {
    const sessions = this.options.sessions;
    // Subagents' sessions are never indexed (see refresh), so live is all a hit's chat must be.
    const accept = (id: string) => sessions.isLive(id);
    // A few more than asked: a hit whose message changed since it was indexed is dropped below.
    const found = this.index.search(query, { limit: limit + 2, perSession: PER_CHAT, accept });
    // The snippets' chats read together (their files overlap; a chat with command output is a few hundred KB).
    await Promise.all([...new Set(found.slice(0, limit).map((h) => h.sessionId))].map((id) => this.messagesOf(id)));
    const hits: MessageHit[] = [];
    for (const hit of found) {
      if (hits.length >= limit) break;
      const message = (await this.messagesOf(hit.sessionId))[hit.messageIndex];
      const snippet = message && isSearchableRole(message.role) ? snippetOf(message.text, query) : undefined;
      if (!snippet || !message || !isSearchableRole(message.role)) {
        // The transcript changed in a way reading on from the last place cannot see: read it whole again.
        const cursor = this.cursors.get(hit.sessionId);
        if (cursor) this.cursors.set(hit.sessionId, { ...cursor, replay: true });
        this.refresh(hit.sessionId);
        continue;
      }
      const title = sessions.get(hit.sessionId)?.title ?? "";
      hits.push({
        sessionId: hit.sessionId, title, messageIndex: hit.messageIndex, role: message.role,
        ...(message.toolName !== undefined ? { toolName: message.toolName } : {}), snippet: snippet.text, ranges: snippet.ranges,
      });
    }
    const indexing = !this.started || this.queue.size > 0 || this.working !== undefined;
    if (indexing) this.answeredIndexing = true;
    return { hits, indexing };
  }

  /** Sizes, for the benchmark. */
  stats(): ReturnType<MessageIndex["stats"]> {
    return this.index.stats();
  }

  /** Saves the index now if it changed (quitting); resolves once it is on disk. Never rejects. */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    // A save already under way (the timer's) finishes first: resolving before it is on disk would break the promise.
    while (this.saving) await this.saving;
    if (!this.dirty) return;
    this.dirty = false;
    const extra = Object.fromEntries(this.cursors);
    const tmp = `${this.options.file}.tmp`;
    this.saving = (async () => {
      try {
        await writeFile(tmp, this.index.serialize(extra), { mode: 0o600 });
        await rename(tmp, this.options.file);
      } catch (error) {
        this.dirty = true;
        console.warn(`paddock: could not save the search index: ${(error as Error).message}`);
        await rm(tmp, { force: true }).catch(() => undefined);
      }
    })();
    await this.saving;
    this.saving = undefined;
  }

  /** Stops following the chats; saves what changed. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.announceTimer);
    this.announceTimer = undefined;
    for (const off of this.unsubscribe) off();
    this.queue.clear();
    await this.loading.catch(() => undefined);
    while (this.working) await this.working;
    await this.flush();
  }

  /** The saved index, then every chat the session index lists read up to date. */
  private async load(): Promise<void> {
    const saved = await this.readSaved();
    if (saved) {
      this.index = saved.index;
      this.cursors = saved.cursors;
    }
    const listed = new Set<string>();
    // Live chats (a deleted one comes back through the index's change when it is restored).
    for (const { id } of this.options.sessions.list()) {
      listed.add(id);
      this.queue.add(id);
    }
    for (const id of this.index.sessionIds()) if (!listed.has(id)) this.forget(id);
    for (const id of [...this.cursors.keys()]) if (!listed.has(id)) this.cursors.delete(id);
    this.started = true;
    this.work();
    // Nothing to read: a search told "indexing" before the load hears that the answer is whole.
    if (!this.working && this.answeredIndexing) {
      this.answeredIndexing = false;
      this.announce();
    }
  }

  private async readSaved(): Promise<{ index: MessageIndex; cursors: Map<string, TranscriptCursor> } | undefined> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.options.file);
    } catch {
      return undefined; // none yet
    }
    try {
      const { index, extra, older } = MessageIndex.deserialize(bytes);
      const cursors = new Map<string, TranscriptCursor>();
      for (const [id, cursor] of Object.entries(isRecord(extra) ? extra : {})) {
        // A chat whose bookkeeping does not add up is read again from its start.
        if (isCursor(cursor) && index.messageCount(id) === cursor.messages) cursors.set(id, cursor);
      }
      for (const id of index.sessionIds()) if (!cursors.has(id)) index.removeSession(id);
      if (older) {
        // Converted from an older format as it loaded: saved again in the current one soon, so later starts need not.
        console.info("paddock: the saved search index is in an older format; converted, and saved again in the current one");
        this.changed();
      }
      return { index, cursors };
    } catch (error) {
      console.warn(`paddock: the saved search index could not be read (${(error as Error).message}); rebuilding it from the chats`);
      this.dirty = true;
      return undefined;
    }
  }

  private work(): void {
    if (this.working || this.queue.size === 0 || this.disposed) return;
    this.working = (async () => {
      while (this.queue.size > 0 && !this.disposed) {
        const [id] = this.queue;
        this.queue.delete(id);
        await this.readChat(id).catch((error: unknown) => console.warn(`paddock: could not index chat ${id}: ${(error as Error).message}`));
        await yieldToEventLoop();
      }
    })().finally(() => {
      this.working = undefined;
      // The first build done: the postings' room to grow goes back (see MessageIndex.trim).
      if (this.started && !this.trimmed && this.queue.size === 0) {
        this.trimmed = true;
        this.index.trim();
      }
      // Done reading: a search told "indexing" meanwhile hears that the answer is whole now.
      if (this.started && this.queue.size === 0 && this.answeredIndexing) {
        this.answeredIndexing = false;
        this.announce();
      }
      this.work();
    });
  }

  /** Brings one chat's messages in the index up to date with its transcript. */
  private async readChat(id: string): Promise<void> {
    const before = this.cursors.get(id);
    const change = await readTranscriptChanges(this.options.transcriptFile(id), before);
    if (!this.options.sessions.get(id)) return; // purged meanwhile
    if (change.kind === "appended") {
      if (change.messages.length > 0) await this.indexFrom(id, before?.messages ?? 0, change.messages);
    } else {
      const prints = change.messages.map(fingerprint);
      const old = this.index.prints(id);
      let same = 0;
      while (same < old.length && same < prints.length && old[same] === prints[same]) same++;
      if (same < old.length || same < prints.length) await this.indexFrom(id, same, change.messages.slice(same), prints.slice(same));
    }
    if (change.cursor !== before && this.options.sessions.get(id)) {
      this.cursors.set(id, change.cursor);
      this.snippetSources.delete(id);
      this.changed();
    }
  }

  private async indexFrom(id: string, start: number, messages: AgentMessage[], prints?: number[]): Promise<void> {
    const indexed = (m: AgentMessage, i: number): IndexedMessage => ({ text: searchableText(m).slice(0, MAX_INDEXED_CHARS), print: prints?.[i] ?? fingerprint(m) });
    for (let from = 0; from < messages.length || from === 0; from += CHUNK) {
      if (from > 0) await yieldToEventLoop();
      this.index.replaceFrom(id, start + from, messages.slice(from, from + CHUNK).map((m, i) => indexed(m, from + i)));
    }
    this.announce();
  }

  /** Tells `onIndexChange`'s listeners once, a moment after the first of changes close together. */
  private announce(): void {
    if (this.announceTimer || this.disposed) return;
    this.announceTimer = setTimeout(() => {
      this.announceTimer = undefined;
      if (!this.disposed) this.indexChanges.emit();
    }, this.options.announceDelayMs ?? ANNOUNCE_DELAY_MS);
    this.announceTimer.unref?.();
  }

  /** The chat's messages for snippets: the transcript as its worker would load it, cached until it grows. */
  private async messagesOf(id: string): Promise<CachedTranscript["messages"]> {
    const offset = this.cursors.get(id)?.offset ?? -1;
    const cached = this.snippetSources.get(id);
    if (cached && cached.offset === offset) {
      this.snippetSources.delete(id); // most recently used goes last
      this.snippetSources.set(id, cached);
      return cached.messages;
    }
    const loaded = await loadTranscript(this.options.transcriptFile(id)).catch(() => ({ messages: [] as AgentMessage[] }));
    const messages = loaded.messages.map((m) => ({ role: m.role, text: searchableText(m), ...(m.role === "toolResult" ? { toolName: String(m.toolName) } : {}) }));
    this.snippetSources.set(id, { offset, messages });
    while (this.snippetSources.size > SNIPPET_CACHE) this.snippetSources.delete(this.snippetSources.keys().next().value!);
    return messages;
  }

  private changed(): void {
    this.dirty = true;
    if (this.saveTimer || this.disposed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.flush();
    }, this.options.saveDelayMs ?? SAVE_DELAY_MS);
    this.saveTimer.unref?.();
  }
}

/** A number that changes when the message's role, time or searchable text does (FNV-1a). */
export function fingerprint(message: AgentMessage): number {
  const text = `${message.role}\u0000${(message as { timestamp?: unknown }).timestamp ?? ""}\u0000${searchableText(message)}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function isCursor(value: unknown): value is TranscriptCursor {
  if (!isRecord(value)) return false;
  const { offset, messages, replay } = value;
  return Number.isInteger(offset) && (offset as number) >= 0 && Number.isInteger(messages) && (messages as number) >= 0 && (replay === undefined || replay === true);
}
