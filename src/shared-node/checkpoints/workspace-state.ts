/**
 * The stat cache kept between processes: a workspace's live state (trees with each file's stat, see tree.ts) saved as
 * one JSON file, `<store>/workspaces/<key>.json`, key = SHA-256 of the workspace's real path. A worker that opens a
 * workspace scanned before (by itself earlier, or by another chat) starts from it and rereads only what changed.
 *
 * Several processes may save the same workspace's state: each writes a temporary file and renames it, the last one
 * wins, and any saved state is right to use because every entry is compared with the disk's stat before it is
 * trusted, and every object it names was stored before the state was saved. The sweep counts a saved state as a root
 * while a session still records that workspace (so the next scan's unchanged files keep their objects).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ObjectStore } from "./object-store";
import { type DirNode, type LiveNode } from "./tree";

const FORMAT = 1;

type SavedNode =
  | ["f", number, string | null, number, number, number, number, number?]
  | ["l", number, string, number, number, number, number]
  | ["d", number, string | null, Record<string, SavedNode>];

export function workspaceKey(realWorkspace: string): string {
  return createHash("sha256").update(realWorkspace).digest("hex").slice(0, 32);
}

export function workspaceStatePath(storeRoot: string, key: string): string {
  return join(storeRoot, "workspaces", `${key}.json`);
}

/** Saves the state; the JSON is made at once (the state may change right after), written off the event loop. */
export async function saveWorkspaceState(store: ObjectStore, key: string, workspace: string, root: DirNode): Promise<void> {
  const text = JSON.stringify({ v: FORMAT, workspace, root: save(root) });
  const path = workspaceStatePath(store.root, key);
  await mkdir(join(store.root, "workspaces"), { recursive: true });
  const temp = store.tempPath();
  await writeFile(temp, text, { flag: "wx" });
  await rename(temp, path);
}

/** The saved state, or null (none yet, unreadable, another format, or naming objects the store lost). */
export function loadWorkspaceState(store: ObjectStore, key: string): DirNode | null {
  try {
    const parsed = JSON.parse(readFileSync(workspaceStatePath(store.root, key), "utf8")) as { v: number; root: SavedNode };
    if (parsed.v !== FORMAT || parsed.root[0] !== "d") return null;
    const root = load(parsed.root) as DirNode;
    if (root.id !== null && !store.has(root.id)) return null;
    return root;
  } catch {
    return null;
  }
}

/** The root tree id a saved state names (for the sweep), or null. */
export function savedStateRoot(path: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as { v: number; root: SavedNode };
    return parsed.v === FORMAT && parsed.root[0] === "d" ? (parsed.root[2] as string | null) : null;
  } catch {
    return null;
  }
}

function save(node: LiveNode): SavedNode {
  if (node.kind === "file") {
    const row: SavedNode = ["f", node.mode, node.id, node.size, node.mtimeMs, node.ctimeMs, node.ino];
    if (node.largeMtimeMs !== undefined) row.push(node.largeMtimeMs);
    return row;
  }
  if (node.kind === "symlink") return ["l", node.mode, node.target, node.size, node.mtimeMs, node.ctimeMs, node.ino];
  const children = Object.create(null) as Record<string, SavedNode>; // a file named __proto__ stays a key
  for (const [name, child] of node.children) children[name] = save(child);
  return ["d", node.mode, node.id, children];
}

function load(saved: SavedNode): LiveNode {
  if (saved[0] === "f") {
    const [, mode, id, size, mtimeMs, ctimeMs, ino, largeMtimeMs] = saved;
    return largeMtimeMs === undefined
      ? { kind: "file", mode, id, size, mtimeMs, ctimeMs, ino }
      : { kind: "file", mode, id, size, mtimeMs, ctimeMs, ino, largeMtimeMs };
  }
  if (saved[0] === "l") {
    const [, mode, target, size, mtimeMs, ctimeMs, ino] = saved;
    return { kind: "symlink", mode, target, size, mtimeMs, ctimeMs, ino };
  }
  const [, mode, id, children] = saved;
  const node: DirNode = { kind: "dir", mode, id, children: new Map() };
  for (const name of Object.keys(children)) node.children.set(name, load(children[name]));
  return node;
}
