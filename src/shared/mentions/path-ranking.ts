import type { WorkspaceEntry } from "../protocol/workspace-files";

/**
 * Ranks workspace paths for the composer's `@` menu as file pickers do (VS Code's Go to File, fzf): every character
 * typed must appear in the path in order, case aside. Best first: the name itself (exactly, then starting with the
 * query, then holding it), then the path holding the query in one piece, then scattered matches, where characters at
 * the start of a name or word and in a row count most; among equals, shorter paths, then by name. An empty query
 * lists the top of the tree: shallow entries first, folders before files.
 */
export function rankPaths(entries: readonly WorkspaceEntry[], query: string, limit: number): WorkspaceEntry[] {
  const q = query.trim().toLowerCase().replace(/\\/g, "/").replace(/^\.\//, "");
  if (limit <= 0) return [];
  if (!q) {
    return [...entries]
      .sort((a, b) => depth(a.path) - depth(b.path) || (a.kind === b.kind ? 0 : a.kind === "folder" ? -1 : 1) || compare(a.path, b.path))
      .slice(0, limit);
  }
  const scored: { entry: WorkspaceEntry; score: number }[] = [];
  for (const entry of entries) {
    const score = pathScore(entry.path, q);
    if (score !== undefined) scored.push({ entry, score });
  }
  scored.sort((a, b) => b.score - a.score || a.entry.path.length - b.entry.path.length || compare(a.entry.path, b.entry.path));
  return scored.slice(0, limit).map((s) => s.entry);
}

/** How well `path` matches the lowercase query `q` (higher is better), or undefined when it does not. */
export function pathScore(path: string, q: string): number | undefined {
  const p = path.toLowerCase();
  const slash = p.lastIndexOf("/");
  const name = p.slice(slash + 1);
  const shortness = -path.length / 1000; // a tie-break within a tier, never more
  if (name === q) return 4000 + shortness;
  if (name.startsWith(q)) return 3000 + shortness;
  const inName = name.indexOf(q);
  if (inName >= 0) return 2000 + (isWordStart(name, inName) ? 100 : 0) + shortness;
  const inPath = p.indexOf(q);
  if (inPath >= 0) return 1000 + (isWordStart(p, inPath) ? 100 : 0) + (p.endsWith(q) ? 200 : 0) + shortness;
  const scattered = subsequenceScore(p, q, slash + 1);
  return scattered === undefined ? undefined : scattered + shortness;
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

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
