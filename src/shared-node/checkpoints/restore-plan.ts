/**
 * Putting a workspace back to a snapshot's state, path by path, safely:
 *
 * - Only paths that differ between the disk (as just scanned) and the target are touched; every other byte stays.
 * - Before anything is written, the disk is compared with the state the agent left (`expected`): a path to restore
 *   that changed outside since (the user edited it) is a conflict, and when there is any, nothing is written (the
 *   caller shows them and asks; `force` names paths to restore anyway).
 * - Never through a link: each folder on the way is lstat'ed and must be a real folder (a symlink there is refused),
 *   files and links are written to a new temporary name beside the target and renamed over it (a rename replaces a
 *   link, it never writes where the link points); removals unlink the entry itself.
 * - What `.gitignore` ignores is never removed: a folder to remove that still holds untracked files stays.
 */
import { chmodSync, copyFileSync, constants, lstatSync, mkdirSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { ObjectStore } from "./object-store";
import type { PathDiff } from "./tree-diff";
import type { TreeEntry } from "./tree";

export interface RestoreConflict {
  path: string;
  /** What the agent left there (absent: nothing). */
  expected?: TreeEntry;
  /** What is there now (absent: nothing). */
  actual?: TreeEntry;
}

export interface RestoredPath {
  path: string;
  action: "written" | "removed" | "created-folder" | "mode" | "kept-folder";
}

export interface SkippedPath {
  path: string;
  reason: "too-large" | "unsafe-parent" | "failed";
  detail?: string;
}

/** The conflicts: paths to change (disk → target) that also changed outside (expected → disk) and are not forced. */
export function findConflicts(toChange: readonly PathDiff[], changedOutside: readonly PathDiff[], force: readonly string[]): RestoreConflict[] {
  const outside = new Map(changedOutside.map((d) => [d.path, d]));
  const forced = (path: string) => force.some((f) => f === "" || path === f || path.startsWith(`${f}/`));
  const conflicts: RestoreConflict[] = [];
  for (const d of toChange) {
    const o = outside.get(d.path);
    if (!o || forced(d.path)) continue;
    conflicts.push({ path: d.path, ...(o.before ? { expected: o.before } : {}), ...(o.after ? { actual: o.after } : {}) });
  }
  return conflicts;
}

/** Applies `diffs` (before = the disk now, after = the target): removals deepest first, then creations parents first. */
export function applyRestore(workspace: string, store: ObjectStore, diffs: readonly PathDiff[]): { restored: RestoredPath[]; skipped: SkippedPath[] } {
  const restored: RestoredPath[] = [];
  const skipped: SkippedPath[] = [];
  const depth = (p: string) => p.split("/").length;
  // A file or link replaced by another is left to the rename (an atomic replace); what goes, or turns from a folder
  // into a file or back, is removed first.
  const toRemove = diffs.filter((d) => d.before && (!d.after || (d.before.kind === "dir") !== (d.after.kind === "dir")));
  toRemove.sort((a, b) => depth(b.path) - depth(a.path));
  for (const d of toRemove) {
    const abs = join(workspace, d.path);
    try {
      if (!safeParent(workspace, d.path)) {
        skipped.push({ path: d.path, reason: "unsafe-parent" });
        continue;
      }
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) {
        try {
          rmdirSync(abs);
          restored.push({ path: d.path, action: "removed" });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" && (error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          restored.push({ path: d.path, action: "kept-folder" }); // untracked (ignored) files still in it
        }
      } else {
        unlinkSync(abs);
        restored.push({ path: d.path, action: "removed" });
      }
    } catch (error) {
      skipped.push({ path: d.path, reason: "failed", detail: (error as Error).message });
    }
  }
  const folderModes: [string, number][] = []; // set last, deepest first: a read-only folder is filled before
  const creations = diffs.filter((d) => d.after).sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1));
  for (const d of creations) {
    const after = d.after!;
    const abs = join(workspace, d.path);
    try {
      if (!safeParent(workspace, d.path)) {
        skipped.push({ path: d.path, reason: "unsafe-parent" });
        continue;
      }
      if (after.kind === "dir") {
        const st = lstatSync(abs, { throwIfNoEntry: false });
        if (st && !st.isDirectory()) unlinkSync(abs);
        if (!st || !st.isDirectory()) {
          mkdirSync(abs, { mode: 0o700 });
          folderModes.push([abs, after.mode]);
          restored.push({ path: d.path, action: "created-folder" });
        } else if ((st.mode & 0o7777) !== after.mode) {
          folderModes.push([abs, after.mode]);
          restored.push({ path: d.path, action: "mode" });
        }
        continue;
      }
      if (after.kind === "file" && after.ref === null) {
        skipped.push({ path: d.path, reason: "too-large" });
        continue;
      }
      const current = lstatSync(abs, { throwIfNoEntry: false });
      if (current?.isDirectory()) {
        skipped.push({ path: d.path, reason: "failed", detail: "a folder is there" });
        continue;
      }
      if (after.kind === "file" && current?.isFile() && d.before?.kind === "file" && d.before.ref === after.ref) {
        chmodSync(abs, after.mode); // same content: only the mode differs (a regular file, lstat'ed: no link followed)
        restored.push({ path: d.path, action: "mode" });
        continue;
      }
      const temp = join(dirname(abs), `.${basename(abs).slice(0, 100)}.paddock-${randomBytes(6).toString("hex")}`);
      if (after.kind === "file") {
        copyFileSync(store.pathOf(after.ref!), temp, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
        chmodSync(temp, after.mode);
      } else symlinkSync(after.ref!, temp);
      try {
        renameSync(temp, abs);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
      restored.push({ path: d.path, action: "written" });
    } catch (error) {
      skipped.push({ path: d.path, reason: "failed", detail: (error as Error).message });
    }
  }
  for (const [abs, mode] of folderModes.reverse()) {
    try {
      chmodSync(abs, mode);
    } catch (error) {
      skipped.push({ path: abs.slice(workspace.length + 1), reason: "failed", detail: (error as Error).message });
    }
  }
  return { restored, skipped };
}

/** Every folder between the workspace and `rel` is a real folder (no symlink on the way, nothing missing). */
function safeParent(workspace: string, rel: string): boolean {
  const parts = rel.split("/").slice(0, -1);
  let at = workspace;
  for (const part of parts) {
    at = join(at, part);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st?.isDirectory()) return false;
  }
  return true;
}
