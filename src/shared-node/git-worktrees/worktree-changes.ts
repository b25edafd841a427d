/**
 * What an agent changed in its worktree: the worktree's whole state (committed or not, untracked files included,
 * ignored ones not) compared with the commit it started from. A summary of files with their status and +/−, and a
 * unified diff for any one file.
 */
import { type GitOptions, nulFields, runGit } from "./git-command";
import type { Worktree } from "./worktree-lifecycle";
import { workingTreeState } from "./working-tree-state";
import { inWorktree } from "./worktree-git-dir";

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed" | "type-changed";

export interface ChangedFile {
  /** The file's path in the repository (`/`-separated), its new one for a rename. */
  path: string;
  /** For a rename: where it was. */
  oldPath?: string;
  status: ChangeStatus;
  /** Lines added and removed (0 for a binary file). */
  added: number;
  removed: number;
  binary: boolean;
}

export interface WorktreeChanges {
  /** The commit compared with. */
  base: string;
  /** The worktree's state compared (a tree id): pass it to `worktreeFileDiff` for diffs of this very state. */
  state: string;
  files: ChangedFile[];
  added: number;
  removed: number;
}

const DIFF = ["--no-ext-diff", "--no-textconv", "--no-color", "-M"] as const;

const STATUS: Record<string, ChangeStatus> = { A: "added", M: "modified", D: "deleted", R: "renamed", T: "type-changed" };

export async function worktreeChanges(worktree: Pick<Worktree, "repositoryRoot" | "path" | "base">, options: GitOptions = {}): Promise<WorktreeChanges> {
  const own = await inWorktree(worktree, options);
  const call = { ...own, cwd: worktree.path };
  const state = await workingTreeState(worktree.path, own);
  const raw = nulFields((await runGit(["diff", "--raw", "-z", ...DIFF, worktree.base, state, "--"], call)).stdout);
  const files: ChangedFile[] = [];
  const byPath = new Map<string, ChangedFile>();
  for (let i = 0; i < raw.length; ) {
    const status = raw[i].split(" ")[4] ?? "";
    const renamed = status.startsWith("R") || status.startsWith("C");
    const file: ChangedFile = renamed
      ? { path: raw[i + 2], oldPath: raw[i + 1], status: "renamed", added: 0, removed: 0, binary: false }
      : { path: raw[i + 1], status: STATUS[status.charAt(0)] ?? "modified", added: 0, removed: 0, binary: false };
    files.push(file);
    byPath.set(file.path, file);
    i += renamed ? 3 : 2;
  }
  const numstat = nulFields((await runGit(["diff", "--numstat", "-z", ...DIFF, worktree.base, state, "--"], call)).stdout);
  for (let i = 0; i < numstat.length; ) {
    const [added, removed, path] = numstat[i].split("\t");
    const renamed = path === "";
    const file = byPath.get(renamed ? numstat[i + 2] : path);
    i += renamed ? 3 : 1;
    if (!file) continue;
    file.binary = added === "-";
    file.added = file.binary ? 0 : Number(added);
    file.removed = file.binary ? 0 : Number(removed);
  }
  return {
    base: worktree.base,
    state,
    files,
    added: files.reduce((sum, file) => sum + file.added, 0),
    removed: files.reduce((sum, file) => sum + file.removed, 0),
  };
}

/** One changed file's unified diff (both names for a rename), from the base to `state` (default: as it is now). */
export async function worktreeFileDiff(
  worktree: Pick<Worktree, "repositoryRoot" | "path" | "base">,
  file: Pick<ChangedFile, "path" | "oldPath">,
  state?: string,
  options: GitOptions = {},
): Promise<string> {
  const own = await inWorktree(worktree, options);
  const to = state ?? (await workingTreeState(worktree.path, own));
  const paths = file.oldPath ? [file.oldPath, file.path] : [file.path];
  return (await runGit(["diff", ...DIFF, worktree.base, to, "--", ...paths], { ...own, cwd: worktree.path })).stdout.toString("utf8");
}
