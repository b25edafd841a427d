/**
 * A working tree's whole state as a git tree, without touching its index: the index is copied to a temporary file
 * (so git's cached file times spare it re-reading unchanged files), `git add -A` runs against the copy and
 * `git write-tree` names the result. Uncommitted and untracked files count; files `.gitignore` ignores do not.
 * The only trace left in the repository is objects nothing refers to, which `git gc` removes in time.
 */
import { copyFile, mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GitOptions, gitText, nulFields, runGit } from "./git-command";

/** The tree of everything in the working tree at `root` (a working tree's top folder), as `git add -A` would stage it. */
export async function workingTreeState(root: string, options: GitOptions = {}): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), "paddock-index-"));
  const index = join(scratch, "index");
  const call = { ...options, cwd: root, set: { GIT_INDEX_FILE: index } };
  try {
    const ownIndex = await gitText(["rev-parse", "--path-format=absolute", "--git-path", "index"], { ...options, cwd: root });
    const copied = await copyIndex(ownIndex, index);
    const added = copied ? await runGit(["add", "-A"], { ...call, okCodes: [128] }) : undefined;
    if (!added || added.code !== 0) {
      // No index yet, or one caught mid-write: start from HEAD's tree instead (every file is read once).
      await rm(index, { force: true });
      await runGit(["read-tree", "HEAD"], call);
      await runGit(["add", "-A"], call);
    }
    return await gitText(["write-tree"], call);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A copy of an index with the original's times. Git trusts an entry's cached file times only when the file is older
 * than the index file itself ("racy git"): a copy made now would make a file edited in the same second as the index
 * was written, to the same size, look unchanged. With the original's time (or a little earlier, as `utimes` rounds
 * it) such entries are checked by content, as git checks them.
 */
async function copyIndex(from: string, to: string): Promise<boolean> {
  try {
    const times = await stat(from);
    await copyFile(from, to);
    await utimes(to, times.atime, times.mtime);
    return true;
  } catch {
    return false;
  }
}

/** One file's change between two trees, from `git diff --raw -z --no-renames`. */
export interface RawChange {
  path: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  /** A, M, D or T (type change: a file became a link or the reverse). */
  status: string;
}

/** The files that differ between `from` and `to` (commits or trees), each once (a rename is a delete and an add). */
export async function rawChanges(from: string, to: string, root: string, options: GitOptions = {}): Promise<Map<string, RawChange>> {
  const out = await runGit(["diff", "--raw", "-z", "--no-renames", "--full-index", "--no-ext-diff", "--no-textconv", from, to, "--"], { ...options, cwd: root });
  const fields = nulFields(out.stdout);
  const changes = new Map<string, RawChange>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldBlob, newBlob, status] = fields[i].replace(/^:/, "").split(" ");
    const path = fields[i + 1];
    changes.set(path, { path, oldMode, newMode, oldBlob, newBlob, status: status.charAt(0) });
  }
  return changes;
}

/**
 * Variables naming who makes a commit when the user's git configuration does not (a fresh machine): "Paddock", so a
 * commit is still possible. A user's own name and address, when set, are used as they are.
 */
export async function commitIdentity(root: string, options: GitOptions = {}): Promise<Record<string, string>> {
  const configured = async (key: string) => (await runGit(["config", "--get", key], { ...options, cwd: root, okCodes: [1] })).code === 0;
  const env: Record<string, string> = {};
  if (!(await configured("user.name"))) Object.assign(env, { GIT_AUTHOR_NAME: "Paddock", GIT_COMMITTER_NAME: "Paddock" });
  if (!(await configured("user.email"))) Object.assign(env, { GIT_AUTHOR_EMAIL: "paddock@localhost", GIT_COMMITTER_EMAIL: "paddock@localhost" });
  return env;
}
