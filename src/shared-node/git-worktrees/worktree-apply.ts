/**
 * "Apply to workspace": a worktree's changes (its whole state against its base, uncommitted and untracked files
 * included) brought over into the user's workspace as uncommitted changes. The user's index, branches and commits
 * are not touched: the change set is a binary `git diff` applied with `git apply` (no `--index`), which is all or
 * nothing.
 *
 * A file the workspace changed since the worktree's base (edited, deleted, created, committed since) is a conflict:
 * by default the whole apply is refused, naming each such file with the workspace's own change to it, and nothing in
 * the workspace changes. With `merge`, such a file is merged three ways (`git merge-file`: the workspace's file, the
 * base, the worktree's): a clean merge is written, overlapping changes are written with conflict markers for the user
 * to resolve, and only a conflict no text merge can settle (a binary file, a file deleted on one side, a link) still
 * refuses the whole apply. A file both sides changed the same way is already there and left alone.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GitOptions, WorktreeError, runGit, withRepositoryLock } from "./git-command";
import type { Worktree } from "./worktree-lifecycle";
import { type RawChange, rawChanges, workingTreeState } from "./working-tree-state";
import { inWorktree } from "./worktree-git-dir";

export interface ApplyConflict {
  path: string;
  /** Why it cannot be applied, in words. */
  reason: string;
  /** What the workspace changed in this file since the worktree's base: a unified diff (empty if git had nothing to say). */
  workspaceDiff: string;
}

export type ApplyResult =
  | {
      applied: true;
      /** Every file written, deleted or merged in the workspace. */
      files: string[];
      /** Files merged three ways (`merge`), conflict markers or not. */
      merged: string[];
      /** Merged files holding conflict markers for the user to resolve. */
      withConflictMarkers: string[];
      /** Files the workspace already had exactly as the worktree has them. */
      alreadyThere: string[];
    }
  | { applied: false; conflicts: ApplyConflict[]; message: string };

export interface ApplyOptions extends GitOptions {
  /** Merge files both sides changed instead of refusing (see above). */
  merge?: boolean;
}

const DIFF = ["--no-ext-diff", "--no-textconv", "--no-color", "--no-renames"] as const;
const REGULAR = new Set(["100644", "100755"]);

/** Applies one worktree at a time to a repository: two at once would each check the workspace before the other wrote. */
export function applyToWorkspace(worktree: Pick<Worktree, "repositoryRoot" | "path" | "base" | "branch">, options: ApplyOptions = {}): Promise<ApplyResult> {
  return withRepositoryLock(worktree.repositoryRoot, options, () => applyNow(worktree, options));
}

async function applyNow(worktree: Pick<Worktree, "repositoryRoot" | "path" | "base" | "branch">, options: ApplyOptions): Promise<ApplyResult> {
  const root = worktree.repositoryRoot;
  const call = { ...options, cwd: root };
  const worktreeState = await workingTreeState(worktree.path, await inWorktree(worktree, options));
  const theirs = await rawChanges(worktree.base, worktreeState, root, options);
  const workspaceState = await workingTreeState(root, options);
  const ours = await rawChanges(worktree.base, workspaceState, root, options);
  const clean: string[] = [];
  const alreadyThere: string[] = [];
  const clashes: Array<{ theirs: RawChange; ours: RawChange }> = [];
  for (const change of theirs.values()) {
    const own = ours.get(change.path);
    if (!own) clean.push(change.path);
    else if (own.newBlob === change.newBlob && own.newMode === change.newMode) alreadyThere.push(change.path);
    else clashes.push({ theirs: change, ours: own });
  }

  const workspaceDiff = async (path: string) =>
    (await runGit(["diff", ...DIFF, worktree.base, workspaceState, "--", path], call)).stdout.toString("utf8");
  const refuse = async (conflicts: Array<{ path: string; reason: string }>, why: string): Promise<ApplyResult> => {
    const listed = await Promise.all(conflicts.map(async (conflict) => ({ ...conflict, workspaceDiff: await workspaceDiff(conflict.path) })));
    const names = conflicts.map((conflict) => conflict.path).join(", ");
    return { applied: false, conflicts: listed, message: `Not applied: ${why}: ${names}. The workspace was left as it was.` };
  };

  if (clashes.length > 0 && !options.merge) {
    return refuse(
      clashes.map(({ theirs: change, ours: own }) => ({ path: change.path, reason: `${describe(own)} in the workspace and ${describe(change)} in the worktree` })),
      "the workspace changed these files since the worktree started",
    );
  }
  const unmergeable = clashes.filter(({ theirs: change, ours: own }) => !(bothModified(change) && bothModified(own)));
  if (unmergeable.length > 0) {
    return refuse(
      unmergeable.map(({ theirs: change, ours: own }) => ({ path: change.path, reason: `${describe(own)} in the workspace and ${describe(change)} in the worktree: no text merge settles this` })),
      "these files changed on both sides in ways that cannot be merged",
    );
  }

  // Every check before any write: the merges are worked out in memory, the patch checked as a whole.
  const merges: Array<{ path: string; content: Buffer; conflicted: boolean }> = [];
  const binaries: string[] = [];
  for (const { theirs: change } of clashes) {
    const merged = await mergeFile(root, change, worktree.branch, options);
    if (merged) merges.push({ path: change.path, ...merged });
    else binaries.push(change.path);
  }
  if (binaries.length > 0) {
    return refuse(
      binaries.map((path) => ({ path, reason: "a binary file changed on both sides" })),
      "these files changed on both sides in ways that cannot be merged",
    );
  }
  if (clean.length > 0) {
    const patch = (await runGit(["diff", "--binary", "--full-index", ...DIFF, worktree.base, worktreeState, "--", ...clean], call)).stdout;
    const check = await runGit(["apply", "--check", "--whitespace=nowarn", "-"], { ...call, input: patch, okCodes: [1, 128] });
    if (check.code !== 0) return refuse(applyFailures(check.stderr, clean), "git cannot apply the changes to these files in the workspace");
    await runGit(["apply", "--whitespace=nowarn", "-"], { ...call, input: patch });
  }
  for (const merge of merges) await writeFile(join(root, ...merge.path.split("/")), merge.content);
  return {
    applied: true,
    files: [...clean, ...merges.map((merge) => merge.path)],
    merged: merges.map((merge) => merge.path),
    withConflictMarkers: merges.filter((merge) => merge.conflicted).map((merge) => merge.path),
    alreadyThere,
  };
}

function bothModified(change: RawChange): boolean {
  return change.status === "M" && REGULAR.has(change.oldMode) && REGULAR.has(change.newMode);
}

function describe(change: RawChange): string {
  if (change.status === "A") return "created";
  if (change.status === "D") return "deleted";
  if (change.status === "T") return "changed type";
  return "changed";
}

/**
 * The workspace's file, the base's and the worktree's merged three ways with `git merge-file` (its exit code is the
 * number of conflicts; conflict markers name the workspace and the branch). Undefined for a binary file.
 */
async function mergeFile(root: string, change: RawChange, branch: string, options: GitOptions): Promise<{ content: Buffer; conflicted: boolean } | undefined> {
  const scratch = await mkdtemp(join(tmpdir(), "paddock-merge-"));
  try {
    const blob = async (id: string) => (await runGit(["cat-file", "blob", id], { ...options, cwd: root })).stdout;
    const files = { ours: join(scratch, "workspace"), base: join(scratch, "base"), theirs: join(scratch, "worktree") };
    await writeFile(files.ours, await readFile(join(root, ...change.path.split("/"))));
    await writeFile(files.base, await blob(change.oldBlob));
    await writeFile(files.theirs, await blob(change.newBlob));
    const result = await runGit(["merge-file", "-p", "-L", "workspace", "-L", "base", "-L", branch, files.ours, files.base, files.theirs], {
      ...options,
      cwd: root,
      okCodes: Array.from({ length: 255 }, (_, i) => i + 1),
    });
    if (result.code < 0 || result.code >= 128) return undefined; // "Cannot merge binary files"
    return { content: result.stdout, conflicted: result.code > 0 };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The files `git apply --check` names in its complaints (all of `paths` when it names none it changes). */
function applyFailures(stderr: string, paths: readonly string[]): Array<{ path: string; reason: string }> {
  const named = new Map<string, string>();
  for (const line of stderr.split("\n")) {
    const failed = /^error: patch failed: (.+):\d+$/.exec(line);
    const other = /^error: (.+): (already exists in working directory|does not exist in working directory|patch does not apply|wrong type)$/.exec(line);
    if (failed && paths.includes(failed[1])) named.set(failed[1], "the patch does not apply");
    else if (other && paths.includes(other[1])) named.set(other[1], other[2]);
  }
  if (named.size === 0) {
    if (!stderr.trim()) throw new WorktreeError("git-failed", "git apply refused the changes without saying why");
    return paths.map((path) => ({ path, reason: stderr.trim() }));
  }
  return [...named].map(([path, reason]) => ({ path, reason }));
}
