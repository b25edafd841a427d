/**
 * A Paddock worktree's life: made for a chat or a subagent's task on a branch of its own, under Paddock's data
 * folder (never inside the user's tree), and ended by keeping its branch or discarding it. Leftovers of a crash are
 * listed and their work kept on their branches.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, realpath, rm } from "node:fs/promises";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import { type GitOptions, WorktreeError, gitText, nulFields, runGit, withRepositoryLock } from "./git-command";
import { repositoryOf } from "./repository";
import { commitIdentity, workingTreeState } from "./working-tree-state";
import { inWorktree } from "./worktree-git-dir";

/** Every branch Paddock makes is under this prefix, and Paddock only ever removes branches under it. */
export const BRANCH_PREFIX = "paddock/";

/** A worktree Paddock made: plain data, kept in a task's or a chat's record. Paths are real paths. */
export interface Worktree {
  /** The user's checkout the worktree was made from: where its changes are applied. */
  repositoryRoot: string;
  /** The worktree's own top folder, under the data folder. */
  path: string;
  /** Where the agent works: the worktree's counterpart of the user's workspace folder (the same subfolder). */
  folder: string;
  /** The branch checked out in it (`paddock/…`). */
  branch: string;
  /** The commit its changes are measured from (and applied against). */
  base: string;
  /** The commit the user's workspace was at when the worktree was made. */
  startedFrom: string;
  /** Whether the workspace's uncommitted changes were carried over (then `base` is a commit holding them). */
  carried: boolean;
}

export interface CreateWorktreeOptions extends GitOptions {
  /** The user's workspace folder (a git repository's root or a folder inside one). */
  workspace: string;
  /** Paddock's folder for worktrees; made if missing; must not be inside the repository. */
  dataFolder: string;
  /** The chat's title or id: the branch is named after it. */
  title: string;
  /**
   * Carry the workspace's uncommitted changes (staged, unstaged and untracked, not ignored) over into the worktree.
   *
   * Off by default: the worktree starts from the last commit, as `git worktree add` does, so the agent works from
   * what the user committed and the workspace's work in progress stays the user's alone. When on, the carried state
   * is committed on the new branch ("Uncommitted changes carried over…", parent HEAD) and that commit is the base:
   * the worktree's changes are then only the agent's, and applying them back to a workspace that still holds those
   * uncommitted changes brings over nothing twice. The user's index and files are not touched either way.
   */
  carryUncommitted?: boolean;
}

/** `title` made into a branch name's last part: lower-case letters, digits and dashes, at most 40, never empty. */
export function branchSlug(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug || "chat";
}

/** Makes a branch at the workspace's HEAD (or its carried state) and a worktree for it under `dataFolder`. */
export async function createWorktree(options: CreateWorktreeOptions): Promise<Worktree> {
  const repository = await repositoryOf(options.workspace, options);
  const call = { ...options, cwd: repository.root };
  await mkdir(options.dataFolder, { recursive: true });
  const dataFolder = await realpath(options.dataFolder);
  if (inside(repository.root, dataFolder) || inside(dataFolder, repository.root)) {
    throw new WorktreeError("inside-workspace", `Worktrees cannot be made in ${dataFolder}: it overlaps the repository at ${repository.root}`);
  }
  let base = repository.head;
  let carried = false;
  if (options.carryUncommitted) {
    const state = await workingTreeState(repository.root, options);
    if (state !== (await gitText(["rev-parse", "--verify", `${repository.head}^{tree}`], call))) {
      const message = `Uncommitted changes carried over from ${repository.root} for a Paddock worktree`;
      base = await gitText(["commit-tree", state, "-p", repository.head, "-m", message], { ...call, set: await commitIdentity(repository.root, options) });
      carried = true;
    }
  }
  // The name is chosen and taken under the lock, so two tasks named alike cannot both choose the same one.
  const { branch, path } = await withRepositoryLock(repository.root, options, async () => {
    const branch = await freeBranchName(branchSlug(options.title), call);
    const path = join(dataFolder, `${branchSlug(basename(repository.root))}-${branch.slice(BRANCH_PREFIX.length)}-${randomBytes(3).toString("hex")}`);
    await runGit(["worktree", "add", "--quiet", "-b", branch, "--", path, base], call);
    return { branch, path };
  });
  const root = await realpath(path);
  return {
    repositoryRoot: repository.root,
    path: root,
    folder: repository.subfolder ? join(root, ...repository.subfolder.split("/")) : root,
    branch,
    base,
    startedFrom: repository.head,
    carried,
  };
}

/** `paddock/<slug>`, or with `-2`, `-3`… when a branch of that name is already there; checked by git's own rule. */
async function freeBranchName(slug: string, call: GitOptions & { cwd: string }): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const name = `${BRANCH_PREFIX}${slug}${n === 1 ? "" : `-${n}`}`;
    await validBranchName(name, call);
    const taken = await runGit(["rev-parse", "--verify", "--quiet", `refs/heads/${name}`], { ...call, okCodes: [1] });
    if (taken.code !== 0) return name;
  }
  throw new WorktreeError("invalid-name", `No free branch name for ${BRANCH_PREFIX}${slug}`);
}

/** Throws unless `name` is a branch name git accepts and one of Paddock's own. */
async function validBranchName(name: string, call: GitOptions & { cwd: string }): Promise<void> {
  const ok = name.startsWith(BRANCH_PREFIX) && !name.startsWith("-") && (await runGit(["check-ref-format", "--branch", name], { ...call, okCodes: [1, 128] })).code === 0;
  if (!ok) throw new WorktreeError("invalid-name", `${JSON.stringify(name)} is not a Paddock branch name git accepts`);
}

/** The part of a worktree that ending it needs (a leftover found by `listPaddockWorktrees` has just these). */
export type WorktreeRef = Pick<Worktree, "repositoryRoot" | "path" | "branch">;

export interface KeptBranch {
  branch: string;
  /** The branch's commit after keeping: the worktree's last state. */
  commit: string;
  /** Whether there were uncommitted changes, now committed on the branch. */
  committed: boolean;
}

/**
 * Ends a worktree and keeps its branch for the user's own tools. Nothing is lost: whatever the worktree holds that
 * is not committed (untracked files included, ignored ones not) is first committed on the branch, then the folder
 * is removed.
 */
export async function keepBranch(worktree: WorktreeRef, message = "Changes made in a Paddock worktree", options: GitOptions = {}): Promise<KeptBranch> {
  await validBranchName(worktree.branch, { ...options, cwd: worktree.repositoryRoot });
  let committed = false;
  if (existsSync(worktree.path)) {
    const own = await inWorktree(worktree, options);
    const call = { ...own, cwd: worktree.path };
    await runGit(["add", "-A"], call);
    const staged = await runGit(["diff", "--cached", "--quiet"], { ...call, okCodes: [1] });
    if (staged.code === 1) {
      await runGit(["commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message], { ...call, set: await commitIdentity(worktree.path, own) });
      committed = true;
    }
  }
  await removeWorktreeFolder(worktree, options);
  const commit = await gitText(["rev-parse", "--verify", `refs/heads/${worktree.branch}`], { ...options, cwd: worktree.repositoryRoot });
  return { branch: worktree.branch, commit, committed };
}

/** Ends a worktree and deletes its branch: the folder, its changes and the branch's commits are gone. */
export async function discardWorktree(worktree: WorktreeRef, options: GitOptions = {}): Promise<void> {
  const call = { ...options, cwd: worktree.repositoryRoot };
  await validBranchName(worktree.branch, call);
  await removeWorktreeFolder(worktree, options);
  await runGit(["branch", "--quiet", "-D", worktree.branch], { ...call, okCodes: [1] });
}

async function removeWorktreeFolder(worktree: WorktreeRef, options: GitOptions): Promise<void> {
  const call = { ...options, cwd: worktree.repositoryRoot };
  const ours = (await listWorktrees(worktree.repositoryRoot, options)).some((entry) => entry.path === worktree.path && entry.branch === worktree.branch);
  if (!ours) throw new WorktreeError("not-a-paddock-worktree", `${worktree.path} is not a worktree of ${worktree.repositoryRoot} on ${worktree.branch}`);
  // Removed by us, not by `git worktree remove`, which would first check that the worktree's `.git` file still points
  // back, and an agent may have rewritten it; `prune` then drops git's entry of a worktree whose folder is gone.
  await withRepositoryLock(worktree.repositoryRoot, options, async () => {
    await rm(worktree.path, { recursive: true, force: true });
    await runGit(["worktree", "prune"], call);
  });
}

export interface ListedWorktree {
  path: string;
  /** The branch's short name (`paddock/…`), if one is checked out. */
  branch?: string;
  head?: string;
  /** The folder is gone (git still lists it until pruned). */
  missing: boolean;
}

/** Every worktree of the repository at `folder` (its main checkout first), as git lists them. */
export async function listWorktrees(folder: string, options: GitOptions = {}): Promise<ListedWorktree[]> {
  const out = await withRepositoryLock(folder, options, () => runGit(["worktree", "list", "--porcelain", "-z"], { ...options, cwd: folder }));
  const entries: ListedWorktree[] = [];
  let current: ListedWorktree | undefined;
  for (const field of nulFields(out.stdout)) {
    if (field === "") {
      current = undefined;
      continue;
    }
    const space = field.indexOf(" ");
    const [key, value] = space < 0 ? [field, ""] : [field.slice(0, space), field.slice(space + 1)];
    if (key === "worktree") {
      current = { path: value, missing: !existsSync(value) };
      entries.push(current);
    } else if (current && key === "HEAD") current.head = value;
    else if (current && key === "branch") current.branch = value.replace(/^refs\/heads\//, "");
  }
  return entries;
}

/** Paddock's worktrees of the repository at `folder`: under `dataFolder`, on a `paddock/` branch. */
export async function listPaddockWorktrees(folder: string, dataFolder: string, options: GitOptions = {}): Promise<Array<ListedWorktree & { branch: string }>> {
  const data = await realpath(dataFolder).catch(() => dataFolder);
  return (await listWorktrees(folder, options)).filter(
    (entry): entry is ListedWorktree & { branch: string } => entry.branch?.startsWith(BRANCH_PREFIX) === true && inside(data, entry.path),
  );
}

/**
 * Clears the leftovers of a crash: every Paddock worktree of the repository that no chat or task uses (`inUse`, its
 * paths) ends with its branch kept (its changes committed on it first), and git forgets folders that are gone.
 */
export async function prunePaddockWorktrees(folder: string, dataFolder: string, inUse: ReadonlySet<string>, options: GitOptions = {}): Promise<KeptBranch[]> {
  const repository = await repositoryOf(folder, options);
  const kept: KeptBranch[] = [];
  for (const leftover of await listPaddockWorktrees(repository.root, dataFolder, options)) {
    if (inUse.has(leftover.path)) continue;
    kept.push(await keepBranch({ repositoryRoot: repository.root, path: leftover.path, branch: leftover.branch }, "Changes left in a Paddock worktree", options));
  }
  await withRepositoryLock(repository.root, options, () => runGit(["worktree", "prune"], { ...options, cwd: repository.root }));
  return kept;
}

/** Whether `path` is `folder` or inside it. */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
