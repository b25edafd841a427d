/**
 * The sidebar's list of sessions, kept by main (transcripts themselves belong to the workers). Electron-free.
 * Changes apply in memory at once and reach disk debounced; `flush()` forces them out (call it before quitting).
 * The file is one of main's JSON files (json-file.ts): checked against `SessionRecordSchema` when opened, written
 * atomically, set aside with a notice when it is damaged.
 */
import { Type } from "typebox";
import { Value } from "typebox/value";
import { Listeners } from "../../shared/transport/transport";
import { SessionRecordSchema, type SessionRecord } from "../../shared/protocol/session-summary";
import { schemaErrors } from "../../shared/schema-errors";
import { JsonFile, type FileNotice, type Recovered } from "./json-file";

export type { SessionRecord };

export type SessionPatch = Partial<Omit<SessionRecord, "id">>;

export interface SessionIndexOptions {
  /** Delay between a change and its save. Default 250 ms. */
  debounceMs?: number;
}

const IndexFileSchema = Type.Object({
  version: Type.Literal(1),
  sessions: Type.Array(SessionRecordSchema),
});
type IndexFile = { version: 1; sessions: SessionRecord[] };

export class SessionIndex {
  /** Problems the user should hear about: the file set aside when opening, saves that failed. */
  readonly notices: FileNotice[] = [];
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly changeListeners = new Listeners<[string]>();
  private readonly noticeListeners = new Listeners<[FileNotice]>();
  private dirty = false;
  private timer?: ReturnType<typeof setTimeout>;
  private saving?: Promise<void>;

  private constructor(
    private readonly file: JsonFile<typeof IndexFileSchema>,
    private readonly debounceMs: number,
  ) {}

  /**
   * Loads the index at `file` (missing = empty). A damaged file is set aside (json-file.ts) and replaced by its valid
   * entries (the last of two with one id), none when it is not an index at all; either way a notice says so. Rejects
   * only on I/O failures.
   */
  static async open(file: string, options: SessionIndexOptions = {}): Promise<SessionIndex> {
    const json = new JsonFile({
      path: file,
      title: "The list of chats",
      schema: IndexFileSchema,
      rules: (data) => duplicateIds(data.sessions).map((id) => `sessions: the id "${id}" is listed twice`),
      recover: recoverIndex,
    });
    const index = new SessionIndex(json, options.debounceMs ?? 250);
    const loaded = json.load();
    if (loaded.notice) index.notices.push(loaded.notice);
    for (const entry of loaded.value?.sessions ?? []) index.sessions.set(entry.id, copyRecord(entry));
    return index;
  }

  /** Calls `listener` with each notice added after opening (a failed save). Returns the unsubscribe function. */
  onNotice(listener: (notice: FileNotice) => void): () => void {
    return this.noticeListeners.add(listener);
  }

  /** Live chats, most recently updated first; subagents' sessions are not listed. Copies: changing them does not change the index. */
  list(): SessionRecord[] {
    return [...this.sessions.values()]
      .filter((s) => s.deleted === undefined && s.parent === undefined)
      .sort((a, b) => b.updated - a.updated || b.created - a.created || a.id.localeCompare(b.id))
      .map(copyRecord);
  }

  /** Every session, deleted or not, subagents' too, as copies (in no particular order). */
  all(): SessionRecord[] {
    return [...this.sessions.values()].map(copyRecord);
  }

  /** The session, deleted or not, as a copy; undefined if unknown. */
  get(id: string): SessionRecord | undefined {
    const found = this.sessions.get(id);
    return found && copyRecord(found);
  }

  /** Whether the chat exists and is not deleted (deleted chats wait out the undo window, unopenable). */
  isLive(id: string): boolean {
    const found = this.sessions.get(id);
    return found !== undefined && found.deleted === undefined;
  }

  /**
   * Calls `listener` with a session's id after each change of it (added, updated, deleted, restored, purged: `get`
   * tells which). Listeners must not throw. Returns the unsubscribe function.
   */
  onChange(listener: (id: string) => void): () => void {
    return this.changeListeners.add(listener);
  }

  /** Adds or replaces the session's summary. Throws, changing nothing, when the summary is invalid. */
  upsert(summary: SessionRecord): void {
    this.sessions.set(summary.id, checked(copyRecord(summary)));
    this.changed(summary.id);
  }

  /**
   * Merges `patch` into a known session and returns the result; undefined (and no change) if unknown. Throws,
   * changing nothing, when the result is invalid.
   */
  update(id: string, patch: SessionPatch): SessionRecord | undefined {
    const current = this.sessions.get(id);
    if (!current) return undefined;
    const next = checked(copyRecord({ ...current, ...patch, id }));
    this.sessions.set(id, next);
    this.changed(id);
    return copyRecord(next);
  }

  /** Soft-deletes a session (hidden from `list()`, kept for undo). Returns false if unknown. */
  markDeleted(id: string, at: number = Date.now()): boolean {
    return this.update(id, { deleted: at }) !== undefined;
  }

  /** Undoes `markDeleted`. Returns false if unknown. */
  restore(id: string): boolean {
    return this.update(id, { deleted: undefined }) !== undefined;
  }

  /** The subagents' sessions a session started, and theirs, deleted or not. */
  descendantsOf(id: string): string[] {
    const found: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const parent = stack.pop()!;
      for (const s of this.sessions.values()) {
        if (s.parent?.sessionId === parent && !found.includes(s.id)) {
          found.push(s.id);
          stack.push(s.id);
        }
      }
    }
    return found;
  }

  /** Forgets sessions deleted before `olderThan` (ms since epoch) and returns their ids, so their files can go too. */
  purgeDeleted(olderThan: number): string[] {
    const purged = [...this.sessions.values()].filter((s) => s.deleted !== undefined && s.deleted < olderThan).map((s) => s.id);
    for (const id of purged) this.sessions.delete(id);
    for (const id of purged) this.changed(id);
    return purged;
  }

  /** Saves pending changes now and resolves once they are on disk; rejects if the save fails (changes stay pending). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.saving || this.dirty) {
      if (this.saving) await this.saving;
      else await this.save();
    }
  }

  private changed(id: string): void {
    this.scheduleSave();
    this.changeListeners.emit(id);
  }

  private scheduleSave(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failed debounced save is told in `notices` and retried by the next change or flush().
      this.flush().catch(() => undefined);
    }, this.debounceMs);
    // Pending saves must not keep a process alive; main flushes on quit.
    this.timer.unref?.();
  }

  private save(): Promise<void> {
    this.dirty = false;
    const data: IndexFile = { version: 1, sessions: [...this.sessions.values()] };
    this.saving = this.file
      .write(data)
      .catch((error: unknown) => {
        this.dirty = true;
        const notice: FileNotice = { level: "warning", text: `Could not save the list of chats: ${(error as Error).message}` };
        this.notices.push(notice);
        this.noticeListeners.emit(notice);
        throw error;
      })
      .finally(() => {
        this.saving = undefined;
      });
    return this.saving;
  }
}

/** A copy holding only SessionRecord's fields, so callers never share objects with the index. */
function copyRecord(record: SessionRecord): SessionRecord {
  // JSON drops fields set to undefined (a restored chat's `deleted`); Clean drops fields the schema does not know.
  return Value.Clean(SessionRecordSchema, JSON.parse(JSON.stringify(record))) as SessionRecord;
}

/** Refuses a record the file could not hold: one bad entry would otherwise make every later save fail. */
function checked(record: SessionRecord): SessionRecord {
  const problems = schemaErrors(SessionRecordSchema, record, "session");
  if (problems.length > 0) throw new Error(`Invalid chat summary: ${problems.join("; ")}`);
  return record;
}

function duplicateIds(sessions: readonly { id: string }[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { id } of sessions) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

/** The valid entries of a damaged index (the later of two with one id), or none when it is not an index at all. */
function recoverIndex(parsed: { raw: unknown } | undefined): Recovered<IndexFile> {
  const raw = parsed?.raw as { version?: unknown; sessions?: unknown } | undefined;
  if (typeof raw !== "object" || raw === null || raw.version !== 1 || !Array.isArray(raw.sessions)) {
    return { value: { version: 1, sessions: [] }, outcome: "the list starts empty (the chats' transcripts are untouched)" };
  }
  const kept = new Map<string, SessionRecord>();
  let dropped = 0;
  for (const entry of raw.sessions as unknown[]) {
    if (!Value.Check(SessionRecordSchema, entry)) dropped++;
    else {
      if (kept.delete(entry.id)) dropped++;
      kept.set(entry.id, copyRecord(entry));
    }
  }
  const outcome = `${dropped} invalid entr${dropped === 1 ? "y was" : "ies were"} dropped; the other chats were kept`;
  return { value: { version: 1, sessions: [...kept.values()] }, outcome };
}
