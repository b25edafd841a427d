/**
 * A chat's checkpoints of its workspace: the API the worker uses (load this module on first use only: it is not part
 * of an idle worker). `openCheckpointStore(dataFolder, workspace, session)`, then:
 *
 * - `baseline()` starts the first snapshot (in slices of a few ms, in the background) and resolves with its id; every
 *   later call awaits it. Holding up the caller only for the first slice is what lets the first model request go.
 * - `snapshot({ paths })` records the workspace now: with paths (what `write`/`edit` changed) only those are
 *   re-examined; without, a full scan (after `bash`: only files whose stat changed are read). Returns the checkpoint id.
 * - `changes(fromId, toId)` lists what differs; `read(blobId)` a stored file's bytes.
 * - `restore(toId, { paths, expectedId, force })` puts back, as they were at `toId`, the paths (under `paths`, or all)
 *   that differ between `expectedId` (the state the agent left; default: this session's latest checkpoint) and
 *   `toId`; paths that changed outside since `expectedId` are conflicts, and when there is any nothing is written
 *   (`force` lists paths to restore anyway). Paths the rewind does not concern (the user's own edits elsewhere) are
 *   neither read nor touched. It returns what it changed, so the caller checkpoints the restore
 *   (`snapshot({ paths })`) and can undo it.
 * - `removeSession()`, `enforceSizeLimit(maxBytes)`: the clean-up (maintenance.ts, which main calls directly).
 *
 * Calls on one store run one at a time, in order. Several stores (processes) may work on the same workspace and the
 * same data folder at once: objects and checkpoint files are written by temporary file and rename, each session has
 * its own checkpoint folder, and each process its own live state (see object-store.ts, checkpoint-refs.ts).
 * Storage layout and the choice of mechanism: docs/checkpoints.md.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { checkSessionId, listCheckpoints, newCheckpointId, readCheckpoint, writeCheckpoint, type CheckpointRecord } from "./checkpoint-refs";
import {
  checkpointsRoot,
  enforceCheckpointSizeLimit,
  removeCheckpointSession,
  type SizeLimitResult,
  type SweepOptions,
  type SweepResult,
} from "./maintenance";
import { ObjectStore } from "./object-store";
import { applyRestore, findConflicts, type RestoreConflict, type RestoredPath, type SkippedPath } from "./restore-plan";
import { runSliced, runSync, TreeReader, writeTrees } from "./tree";
import { changesOf, diffTrees, type Change } from "./tree-diff";
import { WorkspaceScanner } from "./workspace-scan";
import { loadWorkspaceState, saveWorkspaceState, workspaceKey } from "./workspace-state";

export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

export interface CheckpointStoreOptions {
  /** A file larger than this is recorded as changed (size, mtime) but not stored. Default 20 MB. */
  maxFileBytes?: number;
  /** The first snapshot's slices: how long it runs before letting the event loop go. Default 8 ms. */
  baselineSliceMs?: number;
  /** Later full scans' slices. Default 50 ms (a full scan of 45,000 files takes a few slices). */
  scanSliceMs?: number;
  /** How long after a snapshot the stat cache is saved for other processes (debounced). Default 2 s. */
  saveStateDelayMs?: number;
}

export interface RestoreOptions {
  /** Only these paths (and what is under them); default everything. */
  paths?: readonly string[];
  /** The state the agent left (default: this session's latest checkpoint); paths changed since are conflicts. */
  expectedId?: string;
  /** Paths (and what is under them) to restore even if they changed outside; [""] = all. */
  force?: readonly string[];
}

export interface RestoreResult {
  /** Paths that changed outside since `expectedId`; when any, nothing was written. */
  conflicts: RestoreConflict[];
  restored: RestoredPath[];
  /** Paths that could not be restored: too large to have been stored, a link where a folder should be, an error. */
  skipped: SkippedPath[];
  /** Every path the restore touched: checkpoint these (`snapshot({ paths })`) to record the restore. */
  paths: string[];
}

export function openCheckpointStore(dataFolder: string, workspace: string, session: string, options: CheckpointStoreOptions = {}): CheckpointStore {
  return new CheckpointStore(dataFolder, workspace, session, options);
}

export class CheckpointStore {
  readonly workspace: string;
  readonly session: string;
  private readonly root: string;
  private readonly store: ObjectStore;
  private readonly reader: TreeReader;
  private readonly scanner: WorkspaceScanner;
  private readonly key: string;
  private readonly options: Required<CheckpointStoreOptions>;
  private baselinePromise: Promise<string> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private stateDirty = false;
  private latestId: string | null = null;

  constructor(
    readonly dataFolder: string,
    private readonly givenWorkspace: string,
    session: string,
    options: CheckpointStoreOptions = {},
  ) {
    this.session = checkSessionId(session);
    this.workspace = realpathSync(givenWorkspace);
    this.options = {
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      baselineSliceMs: options.baselineSliceMs ?? 8,
      scanSliceMs: options.scanSliceMs ?? 50,
      saveStateDelayMs: options.saveStateDelayMs ?? 2000,
    };
    this.root = checkpointsRoot(dataFolder);
    this.store = new ObjectStore(this.root);
    this.reader = new TreeReader(this.store);
    this.key = workspaceKey(this.workspace);
    // The store inside the workspace (a data folder under the user's home, opened as a workspace) is never scanned.
    const skip = this.relativePath(safeRealpath(this.root) ?? this.root);
    this.scanner = new WorkspaceScanner(this.workspace, this.store, { maxFileBytes: this.options.maxFileBytes, skipRelative: skip ?? undefined });
  }

  /** Starts the first snapshot (or returns the one started) and resolves with its checkpoint id. */
  baseline(): Promise<string> {
    this.baselinePromise ??= this.enqueue(async () => {
      const saved = loadWorkspaceState(this.store, this.key);
      if (saved) this.scanner.root = saved;
      // Files are read and stored off the event loop: a disk busy writing back (a first snapshot of a large tree
      // writes hundreds of MB) blocks a synchronous write for whole seconds (measured: 1.4 s).
      this.scanner.background = true;
      try {
        await runSliced(this.scanner.scanAll(), this.options.baselineSliceMs);
      } finally {
        this.scanner.background = false;
      }
      const rootId = await runSliced(writeTrees(this.store, this.scanner.root, true), this.options.baselineSliceMs);
      return this.record(rootId, undefined);
    });
    return this.baselinePromise;
  }

  /** Records the workspace now: only `paths` re-examined when given (relative to the workspace or absolute). */
  async snapshot(options: { paths?: readonly string[] } = {}): Promise<string> {
    await this.baseline();
    return this.enqueue(async () => {
      const paths = options.paths?.map((p) => this.relativePath(p)).filter((p): p is string => p !== null);
      if (paths) runSync(this.scanner.scanPaths(paths));
      else await runSliced(this.scanner.scanAll(), this.options.scanSliceMs);
      const rootId = runSync(writeTrees(this.store, this.scanner.root));
      return this.record(rootId, paths);
    });
  }

  /** What changed from checkpoint `fromId` to `toId` (optionally only under `paths`). */
  changes(fromId: string, toId: string, options: { paths?: readonly string[] } = {}): Change[] {
    const scope = options.paths?.map((p) => this.relativePath(p)).filter((p): p is string => p !== null);
    return changesOf(diffTrees(this.reader, this.checkpoint(fromId).root, this.checkpoint(toId).root, scope));
  }

  /** A stored file's bytes by its blob id (from `changes`). */
  read(blobId: string): Buffer {
    return this.store.read(blobId);
  }

  /** This session's checkpoints, oldest first. */
  list(): CheckpointRecord[] {
    return listCheckpoints(this.root, this.session);
  }

  /** Puts `paths` (default all) back as they were at `toId`; see the module comment for the conflict rule. */
  async restore(toId: string, options: RestoreOptions = {}): Promise<RestoreResult> {
    await this.baseline();
    return this.enqueue(async () => {
      const target = this.checkpoint(toId).root;
      const expectedId = options.expectedId ?? this.latestId ?? this.list().at(-1)?.id;
      if (!expectedId) throw new Error("checkpoints: no checkpoint to compare the workspace with");
      const expected = this.checkpoint(expectedId).root;
      const scope = options.paths?.map((p) => this.relativePath(p)).filter((p): p is string => p !== null);
      // Only what differs between the state the agent left and the target is restored (a file the user changed
      // that the agent never touched is not the rewind's business), and only those paths are read from the disk.
      const candidates = new Set(diffTrees(this.reader, expected, target, scope).map((d) => d.path));
      runSync(this.scanner.scanPaths([...candidates]));
      const current = runSync(writeTrees(this.store, this.scanner.root));
      const toChange = diffTrees(this.reader, current, target, scope).filter((d) => candidates.has(d.path));
      const changedOutside = diffTrees(this.reader, expected, current, scope).filter((d) => candidates.has(d.path));
      const force = (options.force ?? []).map((p) => this.relativePath(p)).filter((p): p is string => p !== null);
      const conflicts = findConflicts(toChange, changedOutside, force);
      if (conflicts.length > 0) return { conflicts, restored: [], skipped: [], paths: [] };
      const { restored, skipped } = applyRestore(this.workspace, this.store, toChange);
      const paths = toChange.map((d) => d.path);
      runSync(this.scanner.scanPaths(paths));
      this.scheduleSave();
      return { conflicts: [], restored, skipped, paths };
    });
  }

  /** Drops this session's checkpoints and sweeps what nothing else reaches. The store is not used after. */
  async removeSession(options: SweepOptions = {}): Promise<SweepResult> {
    await this.close();
    return removeCheckpointSession(this.dataFolder, this.session, options);
  }

  /** Holds the whole data folder's store under `maxBytes`, oldest checkpoints first; returns what was dropped. */
  async enforceSizeLimit(maxBytes: number, options: SweepOptions = {}): Promise<SizeLimitResult> {
    await this.queue.catch(() => {});
    return enforceCheckpointSizeLimit(this.dataFolder, maxBytes, options);
  }

  /** Waits for calls in progress and saves the stat cache. */
  async close(): Promise<void> {
    await this.queue.catch(() => {});
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.saveState();
  }

  private record(rootId: string, paths: string[] | undefined): string {
    const record: CheckpointRecord = {
      v: 1,
      id: newCheckpointId(),
      session: this.session,
      workspace: this.workspace,
      workspaceKey: this.key,
      root: rootId,
      createdAt: Date.now(),
      ...(paths ? { paths } : {}),
    };
    writeCheckpoint(this.root, this.store.tempPath(), record);
    this.latestId = record.id;
    this.scheduleSave();
    return record.id;
  }

  private checkpoint(id: string): CheckpointRecord {
    const record = readCheckpoint(this.root, this.session, id);
    if (!record) throw new Error(`checkpoints: no checkpoint ${id} in this chat`);
    return record;
  }

  private scheduleSave(): void {
    this.stateDirty = true;
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.enqueue(() => this.saveState());
    }, this.options.saveStateDelayMs);
    this.saveTimer.unref?.();
  }

  private async saveState(): Promise<void> {
    if (!this.stateDirty) return;
    this.stateDirty = false;
    runSync(writeTrees(this.store, this.scanner.root));
    await saveWorkspaceState(this.store, this.key, this.workspace, this.scanner.root);
  }

  /** `path` relative to the workspace, "/"-separated ("" = the workspace); null when it is outside. */
  private relativePath(path: string): string | null {
    for (const base of [this.givenWorkspace, this.workspace]) {
      const rel = relative(base, resolve(base, path));
      if (rel === "") return "";
      if (!rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
    }
    return null;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
