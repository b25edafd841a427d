import type { WorkspaceEntry } from "../protocol/workspace-files";

/**
 * Ranks workspace paths for the composer's `@` menu as file pickers do (VS Code's Go to File, fzf): every character
 * typed must appear in the path in order, case aside. Best first: the name itself (exactly, then starting with the
 * query, then holding it), then the path holding the query in one piece, then scattered matches, where characters at
 * the start of a name or word and in a row count most; among equals, shorter paths, then by name. An empty query
 * lists the top of the tree: shallow entries first, folders before files, by name.
 */
export function rankPaths(entries: readonly WorkspaceEntry[], query: string, limit: number): WorkspaceEntry[] {
  const q = query.trim().toLowerCase().replace(/\\/g, "/").replace(/^\.\//, "");
  if (limit <= 0) return [];
  const lower = lowerCased(entries);
  // Only the best `limit` are kept, in order, as they are found: no sort of every match (45,000 paths on each key).
  const best: { entry: WorkspaceEntry; score: number }[] = [];
  const better = (a: { entry: WorkspaceEntry; score: number }, b: { entry: WorkspaceEntry; score: number }) =>
    a.score > b.score || (a.score === b.score && (q ? a.entry.path.length < b.entry.path.length || (a.entry.path.length === b.entry.path.length && a.entry.path < b.entry.path) : a.entry.path < b.entry.path));
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    // Nothing typed: the top of the tree, shallow first, folders before files.
    const score = q ? pathScore(lower[i]!, q, true) : -depth(entry.path) * 2 - (entry.kind === "folder" ? 0 : 1);
    if (score === undefined) continue;
    const found = { entry, score };
    if (best.length === limit && !better(found, best[limit - 1]!)) continue;
    let at = best.length;
    while (at > 0 && better(found, best[at - 1]!)) at--;
    best.splice(at, 0, found);
    if (best.length > limit) best.pop();
  }
  return best.map((b) => b.entry);
}

/** Each entry's path in lower case, kept for the entries' array (the worker ranks the same listing on every key). */
const lowered = new WeakMap<readonly WorkspaceEntry[], string[]>();
function lowerCased(entries: readonly WorkspaceEntry[]): string[] {
  let lower = lowered.get(entries);
  if (!lower) {
    lower = entries.map((e) => e.path.toLowerCase());
    lowered.set(entries, lower);
  }
  return lower;
}

/** How well `path` matches the lowercase query `q` (higher is better), or undefined when it does not. */
export function pathScore(path: string, q: string, lowerCase = false): number | undefined {
  const p = lowerCase ? path : path.toLowerCase();
  const slash = p.lastIndexOf("/");
  const name = p.slice(slash + 1);
  if (name === q) return 4000;
  if (name.startsWith(q)) return 3000;
  const inName = name.indexOf(q);
  if (inName >= 0) return 2000 + (isWordStart(name, inName) ? 100 : 0);
  const inPath = p.indexOf(q);
  if (inPath >= 0) return 1000 + (isWordStart(p, inPath) ? 100 : 0) + (p.endsWith(q) ? 200 : 0);
  return subsequenceScore(p, q, slash + 1);
}

/**
 * The characters of `q` found in order in `p`, each at its best place from the right (so a query's last characters
 * land in the name where they can): characters at a word's start and in a row score, gaps cost; at most a few
 * hundred, below any match in one piece.
 */
function subsequenceScore(p: string, q: string, nameStart: number): number | undefined {
  // Find the positions from the end, so the match hugs the name; then score them.
  const at: number[] = new Array<number>(q.length);
  let from = p.length - 1;
  for (let i = q.length - 1; i >= 0; i--) {
    const found = p.lastIndexOf(q[i]!, from);
    if (found < 0) return undefined;
    at[i] = found;
    from = found - 1;
  }
  let score = 500;
  for (let i = 0; i < at.length; i++) {
    const pos = at[i]!;
    if (isWordStart(p, pos)) score += 10;
    if (i > 0 && pos === at[i - 1]! + 1) score += 6;
    else if (i > 0) score -= Math.min(pos - at[i - 1]! - 1, 20);
    if (pos >= nameStart) score += 3;
  }
  return Math.max(score, 1);
}

function isWordStart(p: string, index: number): boolean {
  if (index === 0) return true;
  return "/._- ".includes(p[index - 1]!);
}

function depth(path: string): number {
  let n = 0;
  for (const ch of path) if (ch === "/") n++;
  return n;
}

