/**
 * The store's clean-up, for main (and the chat's own store): removing a chat's checkpoints, sweeping objects no
 * checkpoint reaches any more, and holding the whole store under a size limit by dropping the oldest checkpoints.
 *
 * Roots: every session's checkpoints, and the saved state (stat cache) of each workspace some session still records.
 * An object written or touched within `graceMs` is never swept, so a snapshot in progress in another process (objects
 * written, checkpoint not yet recorded) loses nothing. Two clean-ups do not run at once (a lock folder; a stale one,
 * older than ten minutes, is taken over).
 */
import { lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { dropCheckpoint, dropSession, listCheckpoints, listSessions, type CheckpointRecord } from "./checkpoint-refs";
import { parseTree } from "./tree";
import { ObjectStore } from "./object-store";
import { savedStateRoot } from "./workspace-state";

export interface SweepOptions {
  /** Objects newer than this are kept (default ten minutes). */
  graceMs?: number;
}

export interface SweepResult {
  removedObjects: number;
  removedBytes: number;
}

export interface SizeLimitResult extends SweepResult {
  /** The checkpoints dropped, oldest first. */
  dropped: CheckpointRecord[];
  bytesBefore: number;
  bytesAfter: number;
  /** False when even dropping every droppable checkpoint left the store over the limit (each session keeps its newest). */
  withinLimit: boolean;
}

const DEFAULT_GRACE_MS = 10 * 60_000;
const STALE_LOCK_MS = 10 * 60_000;

export function checkpointsRoot(dataFolder: string): string {
  return join(dataFolder, "checkpoints");
}

/** Drops a session's checkpoints and sweeps what nothing reaches any more. */
export function removeCheckpointSession(dataFolder: string, session: string, options: SweepOptions = {}): SweepResult {
  const root = checkpointsRoot(dataFolder);
  dropSession(root, session);
  return sweepCheckpoints(dataFolder, options);
}

/** Removes every object no checkpoint (nor a live workspace's saved state) reaches, older than the grace period. */
export function sweepCheckpoints(dataFolder: string, options: SweepOptions = {}): SweepResult {
  const root = checkpointsRoot(dataFolder);
  return withLock(root, () => {
    const store = new ObjectStore(root);
    const reached = new Set<string>();
    const records = allRecords(root);
    for (const r of rootsOf(root, records, true)) mark(store, r, reached, () => {});
    return removeObjects(store, (id) => !reached.has(id), options.graceMs ?? DEFAULT_GRACE_MS);
  });
}

/**
 * Holds the store under `maxBytes`: drops the oldest checkpoints (across sessions, each session's newest kept) until
 * what the rest reach fits, then removes what nothing reaches. Returns what was dropped.
 */
export function enforceCheckpointSizeLimit(dataFolder: string, maxBytes: number, options: SweepOptions = {}): SizeLimitResult {
  const root = checkpointsRoot(dataFolder);
  return withLock(root, () => {
    const store = new ObjectStore(root);
    const sizes = objectSizes(store);
    const bytesBefore = [...sizes.values()].reduce((a, b) => a + b, 0);
    const records = allRecords(root).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const newest = new Map<string, CheckpointRecord>();
    for (const r of records) newest.set(r.session, r);
    const kept = new Set(newest.values());
    const droppable = records.filter((r) => !kept.has(r));
    // Each object's newest droppable checkpoint (Infinity: a kept one reaches it): dropping the oldest k frees
    // exactly the objects whose index is below k.
    const index = new Map<string, number>();
    const visited = new Set<string>();
    const assign = (at: number) => (id: string) => {
      if (!index.has(id)) index.set(id, at);
    };
    for (const r of rootsOf(root, [...kept], false)) mark(store, r, visited, assign(Infinity));
    for (const r of savedStateRoots(root, records)) mark(store, r, visited, assign(Infinity));
    for (let i = droppable.length - 1; i >= 0; i--) mark(store, droppable[i].root, visited, assign(i));
    const freedBy = new Array<number>(droppable.length).fill(0);
    let reachedBytes = 0;
    for (const [id, size] of sizes) {
      const at = index.get(id);
      if (at === undefined) continue;
      reachedBytes += size;
      if (at !== Infinity) freedBy[at] += size;
    }
    let k = 0;
    let remaining = reachedBytes;
    while (remaining > maxBytes && k < droppable.length) remaining -= freedBy[k++];
    const dropped = droppable.slice(0, k);
    for (const r of dropped) dropCheckpoint(root, r.session, r.id);
    const swept = removeObjects(store, (id) => {
      const at = index.get(id);
      return at === undefined || at < k;
    }, options.graceMs ?? DEFAULT_GRACE_MS);
    const bytesAfter = bytesBefore - swept.removedBytes;
    return { ...swept, dropped, bytesBefore, bytesAfter, withinLimit: bytesAfter <= maxBytes };
  });
}

/** The store's total size in bytes (objects only). */
export function checkpointStoreBytes(dataFolder: string): number {
  return [...objectSizes(new ObjectStore(checkpointsRoot(dataFolder))).values()].reduce((a, b) => a + b, 0);
}

function allRecords(root: string): CheckpointRecord[] {
  return listSessions(root).flatMap((s) => listCheckpoints(root, s));
}

/** The root trees of `records`, plus (withStates) the saved states of the workspaces they record. */
function rootsOf(root: string, records: readonly CheckpointRecord[], withStates: boolean): string[] {
  const roots = records.map((r) => r.root);
  return withStates ? [...roots, ...savedStateRoots(root, records)] : roots;
}

/** Saved states of workspaces some checkpoint records; the others' saved states are removed. */
function savedStateRoots(root: string, records: readonly CheckpointRecord[]): string[] {
  const live = new Set(records.map((r) => r.workspaceKey));
  const dir = join(root, "workspaces");
  const roots: string[] = [];
  for (const name of safeList(dir)) {
    const key = name.replace(/\.json$/, "");
    if (!live.has(key)) {
      rmSync(join(dir, name), { force: true });
      continue;
    }
    const r = savedStateRoot(join(dir, name));
    if (r) roots.push(r);
  }
  return roots;
}

/** Marks the tree `rootId` and everything under it (skipping trees already visited), calling `each` on every id. */
function mark(store: ObjectStore, rootId: string, visited: Set<string>, each: (id: string) => void): void {
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    each(id);
    let tree;
    try {
      tree = parseTree(store.read(id).toString("utf8"));
    } catch {
      continue; // a missing tree: nothing under it to keep
    }
    for (const entry of tree.values()) {
      if (entry.kind === "dir" && entry.ref) stack.push(entry.ref);
      else if (entry.kind === "file" && entry.ref && !visited.has(entry.ref)) {
        visited.add(entry.ref);
        each(entry.ref);
      }
    }
  }
}

function objectSizes(store: ObjectStore): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const fan of safeList(store.objectsDir)) {
    for (const rest of safeList(join(store.objectsDir, fan))) {
      const st = lstatSync(join(store.objectsDir, fan, rest), { throwIfNoEntry: false });
      if (st?.isFile()) sizes.set(fan + rest, st.size);
    }
  }
  return sizes;
}

function removeObjects(store: ObjectStore, unwanted: (id: string) => boolean, graceMs: number): SweepResult {
  const cutoff = Date.now() - graceMs;
  let removedObjects = 0;
  let removedBytes = 0;
  for (const fan of safeList(store.objectsDir)) {
    const dir = join(store.objectsDir, fan);
    for (const rest of safeList(dir)) {
      const id = fan + rest;
      if (!unwanted(id)) continue;
      const path = join(dir, rest);
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st || st.mtimeMs > cutoff) continue;
      unlinkSync(path);
      removedObjects++;
      removedBytes += st.size;
    }
  }
  for (const name of safeList(store.tmpDir)) {
    const path = join(store.tmpDir, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st && st.mtimeMs < Date.now() - Math.max(graceMs, 60 * 60_000)) rmSync(path, { force: true });
  }
  return { removedObjects, removedBytes };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function withLock<T>(root: string, work: () => T): T {
  const lock = join(root, "maintenance.lock");
  mkdirSync(root, { recursive: true });
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const st = statSync(lock, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs < STALE_LOCK_MS) throw new Error("checkpoints: a clean-up is already running", { cause: error });
    rmSync(lock, { recursive: true, force: true });
    mkdirSync(lock);
  }
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}
