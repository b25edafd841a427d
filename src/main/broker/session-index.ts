/**
 * The sidebar's list of sessions, kept by main (transcripts themselves belong to the workers). Electron-free.
 * Changes apply in memory at once and reach disk debounced; `flush()` forces them out (call it before quitting).
 * Every save is atomic (temp file + rename), so a crash leaves the old index or the new one, never half of one.
 */
import { copyFile, mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { Listeners } from "../../shared/transport/transport";
import { SESSION_ID_PATTERN } from "../../shared/protocol/ids";

export interface SessionSummary {
  id: string;
  title: string;
  created: number;
  updated: number;
  model?: { provider: string; id: string };
  messageCount: number;
  /** A run finished or failed while nobody watched; cleared when the chat is opened. */
  unread?: "done" | "failed";
  /** The folder the chat's tools work in (absolute, resolved); absent: the chat has no file or shell tools. */
  workspace?: string;
  /** When the session was soft-deleted (ms since epoch); absent while it is live. */
  deleted?: number;
  /**
   * A subagent's session: the chat and tool call it worked for, and the agent it was. Not in the sidebar's list;
   * opened from the parent's tool card.
   */
  parent?: SessionParent;
}

export interface SessionParent {
  sessionId: string;
  toolCallId: string;
  agent: string;
}

export type SessionPatch = Partial<Omit<SessionSummary, "id">>;

export interface SessionIndexOptions {
  /** Delay between a change and its save. Default 250 ms. */
  debounceMs?: number;
}

interface IndexFile {
  version: 1;
  sessions: SessionSummary[];
}

export class SessionIndex {
  /** Human-readable problems met while loading or saving; the index keeps working regardless. */
  readonly problems: string[] = [];
  private readonly sessions = new Map<string, SessionSummary>();
  private readonly changeListeners = new Listeners<[string]>();
  private dirty = false;
  private timer?: ReturnType<typeof setTimeout>;
  private saving?: Promise<void>;

  private constructor(
    private readonly file: string,
    private readonly debounceMs: number,
  ) {}

  /**
   * Loads the index at `file` (missing = empty). A corrupt file is moved aside to `<file>.corrupt-<timestamp>`
   * and an empty index used; invalid entries in an otherwise valid file are dropped, the file copied aside the
   * same way, and the cleaned index saved. Either way a problem is reported. Rejects only on I/O failures.
   */
  static async open(file: string, options: SessionIndexOptions = {}): Promise<SessionIndex> {
    const index = new SessionIndex(file, options.debounceMs ?? 250);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return index;
      throw error;
    }
    const backup = `${file}.corrupt-${Date.now()}`;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      data = undefined;
      index.problems.push(`session index is not JSON (${(error as Error).message}); moved to ${backup}, starting empty`);
    }
    if (data !== undefined && !isIndexFile(data)) {
      index.problems.push(`session index has an unknown shape; moved to ${backup}, starting empty`);
      data = undefined;
    }
    if (data === undefined) {
      await rename(file, backup);
      return index;
    }
    const dropped: string[] = [];
    for (const entry of (data as IndexFile).sessions) {
      if (!isSummary(entry)) dropped.push(JSON.stringify(entry).slice(0, 200));
      else {
        if (index.sessions.has(entry.id)) dropped.push(`duplicate of ${entry.id}`);
        index.sessions.set(entry.id, copySummary(entry));
      }
    }
    if (dropped.length > 0) {
      await copyFile(file, backup);
      index.problems.push(`session index: dropped ${dropped.length} invalid entr${dropped.length === 1 ? "y" : "ies"} (original kept at ${backup}): ${dropped.join("; ")}`);
      index.scheduleSave();
    }
    return index;
  }

  /** Live chats, most recently updated first; subagents' sessions are not listed. Copies: changing them does not change the index. */
  list(): SessionSummary[] {
    return [...this.sessions.values()]
      .filter((s) => s.deleted === undefined && s.parent === undefined)
      .sort((a, b) => b.updated - a.updated || b.created - a.created || a.id.localeCompare(b.id))
      .map(copySummary);
  }

  /** The session, deleted or not, as a copy; undefined if unknown. */
  get(id: string): SessionSummary | undefined {
    const found = this.sessions.get(id);
    return found && copySummary(found);
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

  /** Adds or replaces the session's summary. */
  upsert(summary: SessionSummary): void {
    this.sessions.set(summary.id, copySummary(summary));
    this.changed(summary.id);
  }

  /** Merges `patch` into a known session and returns the result; undefined (and no change) if unknown. */
  update(id: string, patch: SessionPatch): SessionSummary | undefined {
    const current = this.sessions.get(id);
    if (!current) return undefined;
    const next = copySummary({ ...current, ...patch, id });
    this.sessions.set(id, next);
    this.changed(id);
    return copySummary(next);
  }

  /** Soft-deletes a session (hidden from `list()`, kept for undo). Returns false if unknown. */
  markDeleted(id: string, at: number = Date.now()): boolean {
    return this.update(id, { deleted: at }) !== undefined;
  }

  /** Undoes `markDeleted`. Returns false if unknown. */
  restore(id: string): boolean {
    return this.update(id, { deleted: undefined }) !== undefined;
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
      // A failed debounced save is reported in `problems` and retried by the next change or flush().
      this.flush().catch(() => undefined);
    }, this.debounceMs);
    // Pending saves must not keep a process alive; main flushes on quit.
    this.timer.unref?.();
  }

  private save(): Promise<void> {
    this.dirty = false;
    const data: IndexFile = { version: 1, sessions: [...this.sessions.values()] };
    this.saving = writeAtomically(this.file, JSON.stringify(data, null, 1))
      .catch((error: unknown) => {
        this.dirty = true;
        this.problems.push(`could not save the session index: ${(error as Error).message}`);
        throw error;
      })
      .finally(() => {
        this.saving = undefined;
      });
    return this.saving;
  }
}

/** Writes `text` to a temp file beside `file`, syncs it, and renames it over `file`. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // One fixed temp name: main is the only writer and saves one at a time, and a leftover is simply overwritten.
  const temp = `${file}.tmp`;
  const handle = await open(temp, "w");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

/** A copy holding only SessionSummary's fields, so callers never share objects with the index. */
function copySummary(summary: SessionSummary): SessionSummary {
  const out: SessionSummary = {
    id: summary.id,
    title: summary.title,
    created: summary.created,
    updated: summary.updated,
    messageCount: summary.messageCount,
  };
  if (summary.model) out.model = { provider: summary.model.provider, id: summary.model.id };
  if (summary.unread !== undefined) out.unread = summary.unread;
  if (summary.workspace !== undefined) out.workspace = summary.workspace;
  if (summary.deleted !== undefined) out.deleted = summary.deleted;
  if (summary.parent) out.parent = { sessionId: summary.parent.sessionId, toolCallId: summary.parent.toolCallId, agent: summary.parent.agent };
  return out;
}

function isIndexFile(value: unknown): value is IndexFile {
  return isObject(value) && value.version === 1 && Array.isArray(value.sessions);
}

function isSummary(value: unknown): value is SessionSummary {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    // Ids become file names (transcripts, session folders): one from a tampered file must not name a path elsewhere.
    SESSION_ID_PATTERN.test(value.id) &&
    typeof value.title === "string" &&
    Number.isFinite(value.created) &&
    Number.isFinite(value.updated) &&
    Number.isInteger(value.messageCount) &&
    value.messageCount >= 0 &&
    (value.model === undefined ||
      (isObject(value.model) && typeof value.model.provider === "string" && typeof value.model.id === "string")) &&
    (value.unread === undefined || value.unread === "done" || value.unread === "failed") &&
    (value.workspace === undefined || (typeof value.workspace === "string" && value.workspace.length > 0)) &&
    (value.deleted === undefined || Number.isFinite(value.deleted)) &&
    (value.parent === undefined ||
      (isObject(value.parent) && typeof value.parent.sessionId === "string" && SESSION_ID_PATTERN.test(value.parent.sessionId) && typeof value.parent.toolCallId === "string" && typeof value.parent.agent === "string"))
  );
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
