/**
 * The live state of one workspace as this process last saw it (trees in memory, with each file's stat), and the
 * scans that bring it up to date: a full scan (every folder read, every entry lstat'ed, only files whose size, mtime,
 * ctime, inode or mode changed are read again), or a scan of named paths (only those re-examined: what `write` and
 * `edit` changed). A folder that changed is marked so that writing the trees writes it and its ancestors only.
 *
 * Never follows a symlink (entries are lstat'ed, links recorded by their target), never opens a FIFO, socket or device
 * (they are skipped), skips `.git` anywhere and what `.gitignore` ignores (ignore-rules.ts).
 *
 * A scan is a generator that yields after each folder (and, in the background mode, a promise for each file to read
 * and store): the caller runs it to the end at once (`runSync`) or in slices of a few milliseconds between which the
 * event loop runs (`runSliced`), which is how the first snapshot of a large workspace happens in the background. Each
 * folder is announced (`folderHooks`) before it is read, so the change watcher watches it from then on.
 */
import { lstatSync, readdirSync, readlinkSync, type Stats } from "node:fs";
import { join, sep } from "node:path";
import { GITIGNORE_NAME, GIT_NAME, IgnoreRules, readRulesFile } from "./ignore-rules";
import type { ObjectStore } from "./object-store";
import type { StoredFile } from "./object-store";
import { emptyDir, type DirNode, type FileNode, type StatKey, type Work } from "./tree";

/** A file modified this recently may change again within the file system's timestamp tick: rehash it next time. */
const RACY_MS = 2000;

export interface ScanOptions {
  /** Files larger than this are recorded (size, "too large") but not stored. */
  maxFileBytes: number;
  /** A folder never scanned (relative, "/"-separated): the store's own when it lies inside the workspace. */
  skipRelative?: string;
}

export class WorkspaceScanner {
  /** The workspace's root folder as last scanned. */
  root: DirNode = emptyDir();
  private readonly rulesCache = new Map<string, { signature: string; parent: IgnoreRules; rules: IgnoreRules }>();
  private excludeCache: { signature: string; rules: IgnoreRules } | null = null;

  private readonly skipRel: string | undefined;
  /** Files are read and stored off the event loop (yielded promises): the first snapshot, run in the background. */
  background = false;
  /** Told of each folder just before it is read, and of each folder dropped from the state (change-watcher.ts). */
  folderHooks: { read(rel: string, ino: number): void; dropped(rel: string): void } | null = null;

  constructor(
    readonly workspace: string,
    private readonly store: ObjectStore,
    private readonly options: ScanOptions,
  ) {
    this.skipRel = options.skipRelative;
  }

  /** A full scan of the workspace. */
  *scanAll(): Work<void> {
    const st = lstatSync(this.workspace);
    this.root.mode = st.mode & 0o7777;
    yield* this.scanDir(this.root, "", this.workspace, this.excludeRules(), st.ino);
  }

  /**
   * Re-examines only `paths` (relative, "/"-separated; "" = everything): a file, a link, a folder (scanned whole), or
   * a path now missing (dropped, with what was under it). A path under a folder the state does not know yet scans
   * that folder. A `.gitignore` named re-scans its folder, since what is tracked there changed.
   */
  *scanPaths(paths: readonly string[]): Work<void> {
    for (const path of paths) {
      if (path === "") {
        yield* this.scanAll();
        continue;
      }
      let parts = path.split("/");
      if (parts.includes(GIT_NAME)) continue;
      if (parts[parts.length - 1] === GITIGNORE_NAME) parts = parts.slice(0, -1);
      if (parts.length === 0) {
        yield* this.scanAll();
        continue;
      }
      // Walk down while the state and the disk agree there is a folder; examine the first entry that is not one.
      let dir = this.root;
      let rel = "";
      for (let i = 0; i < parts.length; i++) {
        const name = parts[i];
        const childRel = rel === "" ? name : `${rel}/${name}`;
        const known = dir.children.get(name);
        const last = i === parts.length - 1;
        if (!last && known?.kind === "dir") {
          const st = lstatSync(join(this.workspace, childRel), { throwIfNoEntry: false });
          if (st?.isDirectory() && !this.rulesFor(rel).ignores(childRel, true)) {
            dir = known;
            rel = childRel;
            continue;
          }
        }
        const changed = yield* this.scanEntry(dir, name, childRel, this.rulesFor(rel));
        if (changed) this.markDirty(parts.slice(0, i));
        break;
      }
    }
  }

  private markDirty(parts: readonly string[]): void {
    let dir = this.root;
    dir.id = null;
    for (const name of parts) {
      const next = dir.children.get(name);
      if (next?.kind !== "dir") return;
      next.id = null;
      dir = next;
    }
  }

  /** Scans one folder's entries; returns whether anything in it (or under it) changed. Marks it dirty if so. */
  private *scanDir(dir: DirNode, rel: string, abs: string, parentRules: IgnoreRules, ino: number): Work<boolean> {
    this.folderHooks?.read(rel, ino);
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      names = [];
    }
    const rules = names.includes(GITIGNORE_NAME) ? this.rulesOf(rel, parentRules) : parentRules;
    let changed = false;
    let kept = 0;
    for (const name of names) {
      if (name === GIT_NAME) continue;
      if (yield* this.scanEntry(dir, name, rel === "" ? name : `${rel}/${name}`, rules)) changed = true;
      if (dir.children.has(name)) kept++;
    }
    if (kept !== dir.children.size) {
      const present = new Set(names);
      for (const name of [...dir.children.keys()]) if (!present.has(name)) this.drop(dir, name, rel === "" ? name : `${rel}/${name}`);
      changed = true;
    }
    if (changed) dir.id = null;
    yield;
    return changed;
  }

  /** Examines one entry of `dir` and updates it; returns whether the recorded state changed. */
  private *scanEntry(dir: DirNode, name: string, rel: string, rules: IgnoreRules): Work<boolean> {
    const abs = `${this.workspace}${sep}${rel}`;
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      if (this.background && st?.isFile() && name !== GIT_NAME) {
        const known = dir.children.get(name);
        if (known?.kind === "file" && known.mode === (st.mode & 0o7777) && sameStat(known, st)) return false;
        if (rules.ignores(rel, false)) return this.drop(dir, name, rel);
        const stored = (yield this.store.storeFileAsync(abs, this.options.maxFileBytes)) as StoredFile | null;
        return this.applyStored(dir, name, rel, stored);
      }
      return this.examineLeaf(dir, name, rel, abs, st, rules);
    }
    const known = dir.children.get(name);
    if (name === GIT_NAME || rel === this.skipRel || rules.ignores(rel, true)) return this.drop(dir, name, rel);
    const mode = st.mode & 0o7777;
    const node = known?.kind === "dir" ? known : emptyDir(mode);
    let changed = node !== known || node.mode !== mode;
    node.mode = mode;
    if (node !== known) dir.children.set(name, node);
    if (yield* this.scanDir(node, rel, abs, rules, st.ino)) changed = true;
    if (changed) {
      node.id = null;
      dir.id = null;
    }
    return changed;
  }

  /** A file, link or anything else that is not a folder (or nothing: st undefined). */
  private examineLeaf(dir: DirNode, name: string, rel: string, abs: string, st: Stats | undefined, rules: IgnoreRules): boolean {
    if (!st || name === GIT_NAME || rules.ignores(rel, false)) return this.drop(dir, name, rel);
    const known = dir.children.get(name);
    const mode = st.mode & 0o7777;
    if (st.isFile()) {
      if (known?.kind === "file" && known.mode === mode && sameStat(known, st)) return false;
      return this.applyStored(dir, name, rel, this.store.storeFile(abs, this.options.maxFileBytes));
    }
    if (st.isSymbolicLink()) {
      if (known?.kind === "symlink" && sameStat(known, st)) return false;
      let target: string;
      try {
        target = readlinkSync(abs);
      } catch {
        return this.drop(dir, name, rel);
      }
      dir.children.set(name, { kind: "symlink", mode, target, ...statKey(st) });
      const changed = !(known?.kind === "symlink" && known.target === target);
      if (changed) dir.id = null;
      return changed;
    }
    return this.drop(dir, name, rel); // a FIFO, socket or device: never recorded, never opened
  }

  /** Records a file just stored (null: it is no longer a regular file). */
  private applyStored(dir: DirNode, name: string, rel: string, stored: StoredFile | null): boolean {
    const known = dir.children.get(name);
    if (!stored) return this.drop(dir, name, rel);
    const node: FileNode = { kind: "file", mode: stored.stat.mode & 0o7777, id: stored.id, ...statKey(stored.stat) };
    if (stored.id === null) node.largeMtimeMs = stored.stat.mtimeMs;
    dir.children.set(name, node);
    const changed = !(
      known?.kind === "file" &&
      known.id === node.id &&
      known.mode === node.mode &&
      known.size === node.size &&
      known.largeMtimeMs === node.largeMtimeMs
    );
    if (changed) dir.id = null;
    return changed;
  }

  private drop(dir: DirNode, name: string, rel: string): boolean {
    const known = dir.children.get(name);
    if (!known) return false;
    dir.children.delete(name);
    if (known.kind === "dir") this.folderHooks?.dropped(rel);
    dir.id = null;
    return true;
  }

  /** The rules at the root: .git/info/exclude (when there is one), then the root's .gitignore. */
  private rootRules(): IgnoreRules {
    return this.rulesOf("", this.excludeRules());
  }

  /** .git/info/exclude's rules, when there is one. */
  private excludeRules(): IgnoreRules {
    const abs = join(this.workspace, GIT_NAME, "info", "exclude");
    const st = lstatExclude(abs);
    const signature = signatureOf(st);
    if (this.excludeCache?.signature !== signature) {
      this.excludeCache = { signature, rules: IgnoreRules.none().child("", st ? readRulesFile(abs, st) : null) };
    }
    return this.excludeCache.rules;
  }

  /** The rules for the entries of folder `rel` (its own .gitignore on top of its ancestors'). */
  private rulesFor(rel: string): IgnoreRules {
    let rules = this.rootRules();
    if (rel === "") return rules;
    let at = "";
    for (const part of rel.split("/")) {
      at = at === "" ? part : `${at}/${part}`;
      rules = this.rulesOf(at, rules);
    }
    return rules;
  }

  /** `parent` plus the folder `rel`'s own .gitignore, cached while the file's stat and the parent rules stay. */
  private rulesOf(rel: string, parent: IgnoreRules): IgnoreRules {
    const abs = join(this.workspace, rel, GITIGNORE_NAME);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    const signature = signatureOf(st);
    const cached = this.rulesCache.get(rel);
    if (cached && cached.signature === signature && cached.parent === parent) return cached.rules;
    const rules = parent.child(rel, st ? readRulesFile(abs, st) : null);
    this.rulesCache.set(rel, { signature, parent, rules });
    return rules;
  }
}

/**
 * `.git/info/exclude`'s stat, undefined when there is none. In a linked worktree (Paddock's own, or the user's) `.git`
 * is a file, and the path below it is not a folder (ENOTDIR): no exclude file here, as when `.git` is missing.
 */
function lstatExclude(abs: string): Stats | undefined {
  try {
    return lstatSync(abs, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
}

function signatureOf(st: Stats | undefined): string {
  return st ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : "-";
}

function sameStat(known: StatKey, st: Stats): boolean {
  return known.mtimeMs === st.mtimeMs && known.size === st.size && known.ctimeMs === st.ctimeMs && known.ino === st.ino;
}

function statKey(st: Stats): StatKey {
  // A file changed within the last tick could change again without its stat changing: never trust that stat.
  const racy = Date.now() - st.mtimeMs < RACY_MS || Date.now() - st.ctimeMs < RACY_MS;
  return { size: st.size, mtimeMs: racy ? -1 : st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
}
