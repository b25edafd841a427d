/**
 * Whether a workspace folder can have worktrees, and of which repository: one clear answer for each case a user's
 * folder can be in (no git, not a repository, a bare repository, the `.git` folder itself, a repository with no
 * commit yet, a detached HEAD, a submodule).
 */
import { realpath } from "node:fs/promises";
import { relative } from "node:path";
import { type GitOptions, WorktreeError, gitText, runGit } from "./git-command";

export interface Repository {
  /** The repository's working tree root (a real path). */
  root: string;
  /** The workspace folder itself (a real path): the root or a folder inside it. */
  workspace: string;
  /** The workspace relative to the root ("" at the root, `/`-separated as git writes it). */
  subfolder: string;
  /** The commit HEAD is at. */
  head: string;
  /** The branch checked out (`main`), or undefined on a detached HEAD. */
  branch?: string;
  /** The folder holding the repository's objects and refs (shared by all of its worktrees). */
  commonGitDir: string;
  /** For a submodule: the superproject's working tree. A submodule has worktrees of its own like any repository. */
  superproject?: string;
}

/** The oldest git whose options this uses (`worktree list -z`: 2.36; `rev-parse --path-format`: 2.31). */
export const MIN_GIT_VERSION = [2, 36] as const;

/** Throws `git-too-old` for a git older than MIN_GIT_VERSION (checked once per process and git). */
let versionChecked: Promise<void> | undefined;
async function requireGitVersion(call: GitOptions & { cwd: string }): Promise<void> {
  const check = async () => {
    const said = await gitText(["version"], call);
    const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(said) ?? []).slice(1).map(Number);
    if (major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
      throw new WorktreeError("git-too-old", `Worktrees need git ${MIN_GIT_VERSION.join(".")} or newer; this is ${said.replace(/^git version /, "")}`);
    }
  };
  if (call.env) return check(); // another environment may find another git (tests)
  versionChecked ??= check().catch((error: unknown) => {
    versionChecked = undefined;
    throw error;
  });
  return versionChecked;
}

export type RepositoryProbe = { ok: true; repository: Repository } | { ok: false; code: WorktreeError["code"]; message: string };

/** What `folder` is, for worktrees. Never throws: a failure is an answer with a message for the user. */
export async function probeRepository(folder: string, options: GitOptions = {}): Promise<RepositoryProbe> {
  try {
    return { ok: true, repository: await repositoryOf(folder, options) };
  } catch (error) {
    if (error instanceof WorktreeError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: "git-failed", message: error instanceof Error ? error.message : String(error) };
  }
}

/** The repository `folder` is in; throws a `WorktreeError` saying why it cannot have worktrees. */
export async function repositoryOf(folder: string, options: GitOptions = {}): Promise<Repository> {
  const call = { ...options, cwd: folder };
  await requireGitVersion(call);
  const where = await runGit(["rev-parse", "--is-bare-repository", "--is-inside-git-dir"], { ...call, okCodes: [128] });
  if (where.code !== 0) {
    if (/not a git repository/i.test(where.stderr)) throw new WorktreeError("not-a-repository", `${folder} is not in a git repository`);
    throw new WorktreeError("git-failed", `git cannot read the repository at ${folder}: ${where.stderr.trim()}`);
  }
  const [bare, insideGitDir] = where.stdout.toString("utf8").trim().split("\n");
  if (bare === "true") throw new WorktreeError("bare-repository", `${folder} is a bare repository: it has no working tree to work in`);
  if (insideGitDir === "true") throw new WorktreeError("inside-git-folder", `${folder} is inside a repository's .git folder`);
  const [root, commonGitDir] = (await gitText(["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir"], call)).split("\n");
  const head = await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { ...call, okCodes: [1] });
  if (head.code !== 0) throw new WorktreeError("no-commit", `The repository at ${root} has no commit yet: make a first commit to work in a worktree`);
  const branch = await runGit(["symbolic-ref", "--quiet", "--short", "HEAD"], { ...call, okCodes: [1] });
  const superproject = await gitText(["rev-parse", "--show-superproject-working-tree"], call);
  const realRoot = await realpath(root);
  const workspace = await realpath(folder);
  return {
    root: realRoot,
    workspace,
    subfolder: relative(realRoot, workspace).split("\\").join("/"),
    head: head.stdout.toString("utf8").trim(),
    branch: branch.code === 0 ? branch.stdout.toString("utf8").trim() : undefined,
    commonGitDir: await realpath(commonGitDir),
    superproject: superproject || undefined,
  };
}
