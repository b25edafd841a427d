/**
 * What differs between two snapshots' trees, path by path, skipping every subtree whose id is the same in both (so
 * comparing two snapshots of a 45,000-file workspace after a few changes reads only the folders on their way), and the
 * change list the changes view reads: added, modified, deleted, renamed (a deleted file and an added one with the
 * same content and kind pair up), for files, symlinks and folders (an empty folder too).
 */
import type { EntryKind, TreeEntry, TreeReader } from "./tree";

/** One path that differs: its entry before and after (absent = not there). */
export interface PathDiff {
  path: string;
  before?: TreeEntry;
  after?: TreeEntry;
}

/** Whether `path` is one of `scope` or under one (no scope: everything). */
export function inScope(path: string, scope: readonly string[] | undefined): boolean {
  if (!scope) return true;
  return scope.some((s) => s === "" || path === s || path.startsWith(`${s}/`));
}

/** Whether `path` could have something in scope at or under it (so a folder is worth descending into). */
function scopeReaches(path: string, scope: readonly string[] | undefined): boolean {
  if (!scope) return true;
  return scope.some((s) => s === "" || path === s || path.startsWith(`${s}/`) || s.startsWith(`${path}/`));
}

function sameEntry(a: TreeEntry, b: TreeEntry): boolean {
  return a.kind === b.kind && a.mode === b.mode && a.ref === b.ref && (a.kind !== "file" || (a.size === b.size && a.mtimeMs === b.mtimeMs));
}

/**
 * Every path where the trees `fromRoot` and `toRoot` differ, limited to `scope`; a folder added or removed lists
 * everything under it too; a folder whose mode alone changed is listed; a folder whose content alone changed is not
 * (its entries are). Parents come before their children.
 */
export function diffTrees(reader: TreeReader, fromRoot: string, toRoot: string, scope?: readonly string[]): PathDiff[] {
  const out: PathDiff[] = [];
  if (fromRoot !== toRoot) diffDir(reader, fromRoot, toRoot, "", scope, out);
  return out;
}

function diffDir(reader: TreeReader, fromId: string | null, toId: string | null, rel: string, scope: readonly string[] | undefined, out: PathDiff[]): void {
  const from = fromId ? reader.read(fromId) : new Map<string, TreeEntry>();
  const to = toId ? reader.read(toId) : new Map<string, TreeEntry>();
  const names = [...new Set([...from.keys(), ...to.keys()])].sort();
  for (const name of names) {
    const path = rel === "" ? name : `${rel}/${name}`;
    if (!scopeReaches(path, scope)) continue;
    const before = from.get(name);
    const after = to.get(name);
    if (before && after && sameEntry(before, after)) continue;
    const listed = inScope(path, scope);
    const bothDirs = before?.kind === "dir" && after?.kind === "dir";
    if (listed && (!bothDirs || before.mode !== after.mode)) out.push({ path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
    const beforeTree = before?.kind === "dir" ? before.ref : null;
    const afterTree = after?.kind === "dir" ? after.ref : null;
    if ((beforeTree || afterTree) && beforeTree !== afterTree) diffDir(reader, beforeTree, afterTree, path, scope, out);
  }
}

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

/** One changed path, as the changes view shows it. */
export interface Change {
  path: string;
  status: ChangeStatus;
  /** The path it came from, for "renamed". */
  from?: string;
  kind: EntryKind;
  /** The kind before, when it was something else (a file replaced by a symlink). */
  kindBefore?: EntryKind;
  modeBefore?: number;
  modeAfter?: number;
  sizeBefore?: number;
  sizeAfter?: number;
  /** Blob ids (files), or the link's target (symlinks). Absent for folders and too-large files. */
  before?: string;
  after?: string;
  /** The file was over the size limit on that side: it changed, but there is no copy to show or restore. */
  tooLargeBefore?: boolean;
  tooLargeAfter?: boolean;
}

export function changesOf(diffs: readonly PathDiff[]): Change[] {
  const changes: Change[] = [];
  for (const { path, before, after } of diffs) {
    // A folder that became a file (or back) is two changes: the folder went, the file came.
    if (before && after && (before.kind === "dir") !== (after.kind === "dir")) {
      changes.push(describe(path, before, undefined), describe(path, undefined, after));
    } else changes.push(describe(path, before, after));
  }
  // Renames: a deleted file and an added file with the same stored content pair up (first come, first paired).
  const added = new Map<string, Change[]>();
  for (const c of changes) {
    if (c.status === "added" && c.kind === "file" && c.after) added.set(c.after, [...(added.get(c.after) ?? []), c]);
  }
  const dropped = new Set<Change>();
  for (const c of changes) {
    if (c.status !== "deleted" || c.kind !== "file" || !c.before) continue;
    const candidates = added.get(c.before);
    const target = candidates?.shift();
    if (!target) continue;
    target.status = "renamed";
    target.from = c.path;
    target.before = c.before;
    target.modeBefore = c.modeBefore;
    target.sizeBefore = c.sizeBefore;
    dropped.add(c);
  }
  return changes.filter((c) => !dropped.has(c));
}

function describe(path: string, before: TreeEntry | undefined, after: TreeEntry | undefined): Change {
  const kind = (after ?? before)!.kind;
  const change: Change = { path, status: !before ? "added" : !after ? "deleted" : "modified", kind };
  if (before && after && before.kind !== after.kind) change.kindBefore = before.kind;
  if (before) {
    change.modeBefore = before.mode;
    if (before.kind === "file") {
      change.sizeBefore = before.size;
      if (before.ref === null) change.tooLargeBefore = true;
    }
    if (before.kind !== "dir" && before.ref !== null) change.before = before.ref;
  }
  if (after) {
    change.modeAfter = after.mode;
    if (after.kind === "file") {
      change.sizeAfter = after.size;
      if (after.ref === null) change.tooLargeAfter = true;
    }
    if (after.kind !== "dir" && after.ref !== null) change.after = after.ref;
  }
  return change;
}
