/**
 * A workspace's state as git-like trees: one object per folder listing its entries (files, symlinks, folders), so
 * a snapshot after a few changes writes only the folders on their way to the root, and two snapshots compare by
 * skipping every subtree whose id is the same.
 *
 * A tree object is JSON: `{"v":1,"e":[[name, kind, mode, ref, size?]...]}`, entries sorted by name. kind "f" (file:
 * ref = blob id, or null when the file was over the size limit, size = its size), "l" (symlink: ref = its target,
 * stored as text and never followed), "d" (folder: ref = its tree id). mode = the permission bits (mode & 0o7777).
 *
 * In memory the live state keeps, beside each entry, the stat the stat cache compares (size, mtime, ctime, inode).
 */
import type { ObjectStore } from "./object-store";

export type EntryKind = "file" | "symlink" | "dir";

/** One entry as recorded in a snapshot. */
export interface TreeEntry {
  kind: EntryKind;
  mode: number;
  /** file: blob id (null = too large, not stored); symlink: the link's target; dir: tree id. */
  ref: string | null;
  /** file: its size in bytes. */
  size?: number;
  /** A file over the size limit (ref null): its mtime, so a change to it still shows. */
  mtimeMs?: number;
}

/** What a scan compares to know a file or link has not changed without reading it. */
export interface StatKey {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface FileNode extends StatKey {
  kind: "file";
  mode: number;
  id: string | null;
  /** When id is null (too large): the file's own mtime (mtimeMs may be -1, "rehash next time"). */
  largeMtimeMs?: number;
}
export interface LinkNode extends StatKey {
  kind: "symlink";
  mode: number;
  target: string;
}
export interface DirNode {
  kind: "dir";
  mode: number;
  children: Map<string, LiveNode>;
  /** The written tree's id; null while the folder (or anything under it) changed since it was written. */
  id: string | null;
}
export type LiveNode = FileNode | LinkNode | DirNode;

export function emptyDir(mode = 0o755): DirNode {
  return { kind: "dir", mode, children: new Map(), id: null };
}

const KIND_CODE: Record<EntryKind, string> = { file: "f", symlink: "l", dir: "d" };
const CODE_KIND: Record<string, EntryKind> = { f: "file", l: "symlink", d: "dir" };

export function entryOf(node: LiveNode): TreeEntry {
  if (node.kind === "file") {
    return node.id === null
      ? { kind: "file", mode: node.mode, ref: null, size: node.size, mtimeMs: node.largeMtimeMs ?? node.mtimeMs }
      : { kind: "file", mode: node.mode, ref: node.id, size: node.size };
  }
  if (node.kind === "symlink") return { kind: "symlink", mode: node.mode, ref: node.target };
  if (node.id === null) throw new Error("checkpoints: tree not written");
  return { kind: "dir", mode: node.mode, ref: node.id };
}

export function serializeTree(entries: Map<string, TreeEntry>): string {
  const names = [...entries.keys()].sort();
  const rows = names.map((name) => {
    const e = entries.get(name)!;
    if (e.kind !== "file") return [name, KIND_CODE[e.kind], e.mode, e.ref];
    return e.ref === null ? [name, "f", e.mode, null, e.size ?? 0, e.mtimeMs ?? 0] : [name, "f", e.mode, e.ref, e.size ?? 0];
  });
  return JSON.stringify({ v: 1, e: rows });
}

export function parseTree(text: string): Map<string, TreeEntry> {
  const parsed = JSON.parse(text) as { v: number; e: [string, string, number, string | null, number?, number?][] };
  if (parsed.v !== 1 || !Array.isArray(parsed.e)) throw new Error("checkpoints: not a tree object");
  const entries = new Map<string, TreeEntry>();
  for (const [name, code, mode, ref, size, mtimeMs] of parsed.e) {
    const kind = CODE_KIND[code];
    if (!kind) throw new Error(`checkpoints: unknown entry kind ${code}`);
    if (kind !== "file") entries.set(name, { kind, mode, ref });
    else entries.set(name, ref === null ? { kind, mode, ref, size: size ?? 0, mtimeMs: mtimeMs ?? 0 } : { kind, mode, ref, size: size ?? 0 });
  }
  return entries;
}

/**
 * A scan or a tree write as a generator: it yields after each folder (a point where it may pause), or a promise (a
 * file read or object write done off the event loop, in the background mode) whose value it is sent back.
 */
export type Work<T> = Generator<Promise<unknown> | undefined, T, unknown>;

/** Writes every changed folder's tree (children first), yielding after each; returns the root's id. */
export function* writeTrees(store: ObjectStore, dir: DirNode, background = false): Work<string> {
  if (dir.id !== null) return dir.id;
  const entries = new Map<string, TreeEntry>();
  for (const [name, child] of dir.children) {
    if (child.kind === "dir") yield* writeTrees(store, child, background);
    entries.set(name, entryOf(child));
  }
  const text = serializeTree(entries);
  dir.id = background ? ((yield store.writeBytesAsync(text)) as string) : store.writeBytes(text);
  yield;
  return dir.id;
}

/** Runs work (a scan, a tree write) to its end at once. */
export function runSync<T>(work: Work<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (step.value) throw new Error("checkpoints: background work run at once");
  }
}

/** Runs work in slices of about `sliceMs`, letting the event loop run between them and while its I/O is done. */
export async function runSliced<T>(work: Work<T>, sliceMs: number): Promise<T> {
  let sliceStart = performance.now();
  let sent: unknown;
  for (;;) {
    const step = work.next(sent);
    sent = undefined;
    if (step.done) return step.value;
    if (step.value) {
      sent = await step.value;
      sliceStart = performance.now();
    } else if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** Reads tree objects, keeping recently read ones (trees are immutable, so any cached one is right). */
export class TreeReader {
  private readonly cache = new Map<string, Map<string, TreeEntry>>();
  constructor(
    private readonly store: ObjectStore,
    private readonly limit = 4096,
  ) {}

  read(id: string): Map<string, TreeEntry> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const tree = parseTree(this.store.read(id).toString("utf8"));
    if (this.cache.size >= this.limit) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(id, tree);
    return tree;
  }

  /** The entry at `path` ("a/b/c") under the tree `rootId`, or undefined. The root itself is a dir entry. */
  lookup(rootId: string, path: string): TreeEntry | undefined {
    let entry: TreeEntry = { kind: "dir", mode: 0, ref: rootId };
    if (path === "") return entry;
    for (const part of path.split("/")) {
      if (entry.kind !== "dir" || entry.ref === null) return undefined;
      const next = this.read(entry.ref).get(part);
      if (!next) return undefined;
      entry = next;
    }
    return entry;
  }
}
