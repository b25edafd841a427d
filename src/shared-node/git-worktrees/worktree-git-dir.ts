/**
 * A Paddock worktree's own git folder (`<repository>/.git/worktrees/<name>`), found from the repository's side.
 *
 * A worktree's `.git` is a file in the worktree saying where that folder is, and the worktree is the agent's
 * workspace: an agent could rewrite it (or put a `.git` folder there) to point git at a repository of its making,
 * whose config names programs (a clean filter) that git run by main, outside the sandbox, would start. So every git
 * call Paddock makes in a worktree names its git folder (`--git-dir`) as the repository records it: the folder under
 * `worktrees/` whose `gitdir` file names this worktree. Those files are in the user's `.git`, out of the agent's reach.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type GitOptions, WorktreeError, gitText } from "./git-command";

export async function worktreeGitDir(worktree: { repositoryRoot: string; path: string }, options: GitOptions = {}): Promise<string> {
  const common = await gitText(["rev-parse", "--path-format=absolute", "--git-common-dir"], { ...options, gitDir: undefined, cwd: worktree.repositoryRoot });
  const admin = join(common, "worktrees");
  const wanted = join(worktree.path, ".git");
  for (const name of await readdir(admin).catch(() => [] as string[])) {
    const pointer = await readFile(join(admin, name, "gitdir"), "utf8").catch(() => "");
    if (pointer && resolve(pointer.trim()) === wanted) return join(admin, name);
  }
  throw new WorktreeError("not-a-paddock-worktree", `${worktree.path} is not a worktree of ${worktree.repositoryRoot}`);
}

/** `options` for git calls in the worktree: its own git folder named, never the one its `.git` file points to. */
export async function inWorktree(worktree: { repositoryRoot: string; path: string }, options: GitOptions = {}): Promise<GitOptions> {
  return { ...options, gitDir: await worktreeGitDir(worktree, options) };
}
