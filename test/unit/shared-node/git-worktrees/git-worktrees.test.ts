/** Worktrees for a chat or a subagent's task, driving a real `git` in temporary folders. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GIT_MISSING_MESSAGE } from "../../../../src/shared-node/git-worktrees/git-command";
import { probeRepository } from "../../../../src/shared-node/git-worktrees/repository";
import { applyToWorkspace } from "../../../../src/shared-node/git-worktrees/worktree-apply";
import { worktreeChanges, worktreeFileDiff } from "../../../../src/shared-node/git-worktrees/worktree-changes";
import {
  branchSlug,
  createWorktree,
  discardWorktree,
  keepBranch,
  listPaddockWorktrees,
  prunePaddockWorktrees,
} from "../../../../src/shared-node/git-worktrees/worktree-lifecycle";

const identity = { GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "test@example.com" };

function git(cwd: string, ...args: string[]): string {
  const env: Record<string, string | undefined> = { ...process.env, ...identity };
  for (const name of Object.keys(env)) if (/^GIT_(DIR|WORK_TREE|INDEX_FILE)$/.test(name)) delete env[name];
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
}

let scratch: string;
let workspace: string;
let data: string;

async function makeRepository(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  git(folder, "init", "-q");
  await writeFile(join(folder, "a.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");
  await writeFile(join(folder, "b.txt"), "bee\n");
  await mkdir(join(folder, "sub"));
  await writeFile(join(folder, "sub", "c.txt"), "sea\n");
  await writeFile(join(folder, ".gitignore"), "ignored/\n");
  git(folder, "add", "-A");
  git(folder, "commit", "-q", "-m", "first");
  return realpath(folder);
}

beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "paddock-worktrees-")));
  workspace = await makeRepository(join(scratch, "repo"));
  data = join(scratch, "data", "worktrees");
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("probeRepository", () => {
  it("answers a repository's root, branch and commit, from a folder inside it too", async () => {
    const probe = await probeRepository(join(workspace, "sub"));
    expect(probe).toMatchObject({ ok: true, repository: { root: workspace, workspace: join(workspace, "sub"), subfolder: "sub", branch: "main" } });
    expect(probe.ok && probe.repository.head).toBe(git(workspace, "rev-parse", "HEAD").trim());
  });

  it("says a folder is not in a repository", async () => {
    const plain = join(scratch, "plain");
    await mkdir(plain);
    expect(await probeRepository(plain)).toEqual({ ok: false, code: "not-a-repository", message: `${plain} is not in a git repository` });
  });

  it("says git is not installed when PATH has no git, instead of throwing", async () => {
    const empty = join(scratch, "empty-bin");
    await mkdir(empty);
    const probe = await probeRepository(workspace, { env: { ...process.env, PATH: empty } });
    expect(probe).toEqual({ ok: false, code: "git-missing", message: GIT_MISSING_MESSAGE });
    expect(GIT_MISSING_MESSAGE).toBe("git is not installed: worktrees are off");
  });

  it.skipIf(process.platform === "win32")("says a git too old for its options is too old", async () => {
    const bin = join(scratch, "old-bin");
    await mkdir(bin);
    await writeFile(join(bin, "git"), '#!/bin/sh\necho "git version 2.30.1"\n');
    await chmod(join(bin, "git"), 0o755);
    expect(await probeRepository(workspace, { env: { ...process.env, PATH: bin } })).toEqual({
      ok: false,
      code: "git-too-old",
      message: "Worktrees need git 2.36 or newer; this is 2.30.1",
    });
  });

  it("tells a detached HEAD, a repository with no commit, a bare repository and the .git folder apart", async () => {
    git(workspace, "checkout", "-q", "--detach");
    expect(await probeRepository(workspace)).toMatchObject({ ok: true, repository: { branch: undefined } });
    const fresh = join(scratch, "fresh");
    await mkdir(fresh);
    git(fresh, "init", "-q");
    expect(await probeRepository(fresh)).toMatchObject({ ok: false, code: "no-commit" });
    const bare = join(scratch, "bare.git");
    git(scratch, "init", "-q", "--bare", bare);
    expect(await probeRepository(bare)).toMatchObject({ ok: false, code: "bare-repository" });
    expect(await probeRepository(join(workspace, ".git"))).toMatchObject({ ok: false, code: "inside-git-folder" });
  });

  it("answers a submodule as its own repository, naming its superproject", async () => {
    const library = await makeRepository(join(scratch, "library"));
    git(workspace, "submodule", "add", "-q", library, "lib");
    const probe = await probeRepository(join(workspace, "lib"));
    expect(probe).toMatchObject({ ok: true, repository: { root: join(workspace, "lib"), superproject: workspace } });
    const worktree = await createWorktree({ workspace: join(workspace, "lib"), dataFolder: data, title: "lib work" });
    expect(await readFile(join(worktree.path, "b.txt"), "utf8")).toBe("bee\n");
  });

  it("ignores GIT_DIR and GIT_WORK_TREE in the environment it is given", async () => {
    const other = await makeRepository(join(scratch, "other"));
    const probe = await probeRepository(workspace, { env: { ...process.env, GIT_DIR: join(other, ".git"), GIT_WORK_TREE: other } });
    expect(probe).toMatchObject({ ok: true, repository: { root: workspace } });
  });
});

describe("createWorktree", () => {
  it("makes a paddock/ branch at HEAD and a worktree under the data folder, the workspace's subfolder its folder", async () => {
    const worktree = await createWorktree({ workspace: join(workspace, "sub"), dataFolder: data, title: "Fix the Parser: now!" });
    expect(worktree.branch).toBe("paddock/fix-the-parser-now");
    expect(worktree.path.startsWith(await realpath(data))).toBe(true);
    expect(worktree.folder).toBe(join(worktree.path, "sub"));
    expect(worktree.base).toBe(git(workspace, "rev-parse", "HEAD").trim());
    expect(worktree.carried).toBe(false);
    expect(git(worktree.path, "symbolic-ref", "--short", "HEAD").trim()).toBe(worktree.branch);
    expect(git(workspace, "symbolic-ref", "--short", "HEAD").trim()).toBe("main");
    const second = await createWorktree({ workspace, dataFolder: data, title: "fix the parser now" });
    expect(second.branch).toBe("paddock/fix-the-parser-now-2");
    expect(second.path).not.toBe(worktree.path);
  });

  it("makes names from hostile titles that git takes for nothing but a name", async () => {
    expect(branchSlug("--upload-pack=touch /tmp/x; rm -rf ~")).toBe("upload-pack-touch-tmp-x-rm-rf");
    expect(branchSlug("..@{-1}..lock")).toBe("1-lock");
    expect(branchSlug("   ")).toBe("chat");
    expect(branchSlug("Ünïcödé títle")).toBe("unicode-title");
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "-b main --force" });
    expect(worktree.branch).toBe("paddock/b-main-force");
  });

  it("refuses a data folder inside the repository", async () => {
    await expect(createWorktree({ workspace, dataFolder: join(workspace, "sub", "wt"), title: "x" })).rejects.toMatchObject({ code: "inside-workspace" });
  });

  it("carries the workspace's uncommitted changes over when asked, as the base the worktree's changes are measured from", async () => {
    await writeFile(join(workspace, "b.txt"), "bee, edited\n");
    await writeFile(join(workspace, "new.txt"), "untracked\n");
    git(workspace, "add", "b.txt");
    await writeFile(join(workspace, "a.txt"), "unstaged\n");
    const staged = git(workspace, "diff", "--cached", "--name-only");
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "carry", carryUncommitted: true });
    expect(worktree.carried).toBe(true);
    expect(worktree.base).not.toBe(worktree.startedFrom);
    expect(await readFile(join(worktree.path, "b.txt"), "utf8")).toBe("bee, edited\n");
    expect(await readFile(join(worktree.path, "new.txt"), "utf8")).toBe("untracked\n");
    expect(await readFile(join(worktree.path, "a.txt"), "utf8")).toBe("unstaged\n");
    expect((await worktreeChanges(worktree)).files).toEqual([]);
    // The user's index is as it was.
    expect(git(workspace, "diff", "--cached", "--name-only")).toBe(staged);
    await writeFile(join(worktree.path, "b.txt"), "bee, edited\nand the agent's line\n");
    expect(await applyToWorkspace(worktree)).toMatchObject({ applied: true, files: ["b.txt"] });
    expect(await readFile(join(workspace, "b.txt"), "utf8")).toBe("bee, edited\nand the agent's line\n");
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("unstaged\n");
  });

  it("starts from the last commit by default, leaving uncommitted work out", async () => {
    await writeFile(join(workspace, "b.txt"), "work in progress\n");
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "clean" });
    expect(await readFile(join(worktree.path, "b.txt"), "utf8")).toBe("bee\n");
  });
});

describe("worktreeChanges and applyToWorkspace", () => {
  it("lists every change in the worktree, committed, uncommitted and untracked, with +/- and a diff, and applies them back", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "changes" });
    await writeFile(join(worktree.path, "a.txt"), "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\n");
    git(worktree.path, "commit", "-q", "-am", "agent's commit");
    await rm(join(worktree.path, "b.txt"));
    await writeFile(join(worktree.path, "sub", "new.txt"), "new\nfile\n");
    await writeFile(join(worktree.path, "blob.bin"), Buffer.from([0, 1, 2, 255, 0, 7]));
    await writeFile(join(worktree.path, "run.sh"), "#!/bin/sh\n");
    await chmod(join(worktree.path, "run.sh"), 0o755);
    await symlink("a.txt", join(worktree.path, "link"));
    await mkdir(join(worktree.path, "ignored"));
    await writeFile(join(worktree.path, "ignored", "x"), "ignored\n");

    const changes = await worktreeChanges(worktree);
    const byPath = Object.fromEntries(changes.files.map((file) => [file.path, file]));
    expect(Object.keys(byPath).sort()).toEqual(["a.txt", "b.txt", "blob.bin", "link", "run.sh", "sub/new.txt"]);
    expect(byPath["a.txt"]).toMatchObject({ status: "modified", added: 2, removed: 1, binary: false });
    expect(byPath["b.txt"]).toMatchObject({ status: "deleted", removed: 1 });
    expect(byPath["sub/new.txt"]).toMatchObject({ status: "added", added: 2 });
    expect(byPath["blob.bin"]).toMatchObject({ status: "added", binary: true });
    expect(changes.added).toBe(2 + 2 + 1 + 1);
    const diff = await worktreeFileDiff(worktree, byPath["a.txt"], changes.state);
    expect(diff).toContain("-three\n+THREE\n");
    expect(diff).toContain("+nine\n");

    const staged = git(workspace, "diff", "--cached", "--name-only");
    const result = await applyToWorkspace(worktree);
    expect(result).toMatchObject({ applied: true });
    expect(result.applied && [...result.files].sort()).toEqual(["a.txt", "b.txt", "blob.bin", "link", "run.sh", "sub/new.txt"]);
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\n");
    expect(existsSync(join(workspace, "b.txt"))).toBe(false);
    expect(await readFile(join(workspace, "blob.bin"))).toEqual(Buffer.from([0, 1, 2, 255, 0, 7]));
    expect(git(workspace, "ls-files", "-s", "--", "run.sh")).toBe("");
    expect(existsSync(join(workspace, "ignored"))).toBe(false);
    // Uncommitted changes in the workspace: its index, branch and commits are as they were.
    expect(git(workspace, "diff", "--cached", "--name-only")).toBe(staged);
    expect(git(workspace, "log", "--format=%s")).toBe("first\n");
    expect(git(workspace, "status", "--porcelain")).toContain(" M a.txt");
  });

  it("sees a file changed to the same size in the second its worktree was made (git's racy-clean entries)", async () => {
    for (let i = 0; i < 4; i++) {
      const worktree = await createWorktree({ workspace, dataFolder: data, title: `racy ${i}` });
      await writeFile(join(worktree.path, "b.txt"), "BEE\n");
      expect((await worktreeChanges(worktree)).files.map((file) => file.path)).toEqual(["b.txt"]);
      await writeFile(join(workspace, "b.txt"), "Bee\n");
      expect(await applyToWorkspace(worktree)).toMatchObject({ applied: false, conflicts: [{ path: "b.txt" }] });
      await writeFile(join(workspace, "b.txt"), "bee\n");
    }
  });

  it("refuses when the workspace changed a file under the worktree, naming it, and leaves the workspace untouched", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "refused" });
    await writeFile(join(worktree.path, "a.txt"), "agent\n");
    await writeFile(join(worktree.path, "b.txt"), "agent's bee\n");
    await writeFile(join(workspace, "a.txt"), "user\n");
    const result = await applyToWorkspace(worktree);
    expect(result).toMatchObject({ applied: false, conflicts: [{ path: "a.txt", reason: "changed in the workspace and changed in the worktree" }] });
    expect(!result.applied && result.message).toBe(
      "Not applied: the workspace changed these files since the worktree started: a.txt. The workspace was left as it was.",
    );
    expect(!result.applied && result.conflicts[0].workspaceDiff).toContain("+user\n");
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("user\n");
    expect(await readFile(join(workspace, "b.txt"), "utf8")).toBe("bee\n");
  });

  it("refuses a file the workspace created or deleted too, and leaves a file changed the same way alone", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "created" });
    await writeFile(join(worktree.path, "same.txt"), "same\n");
    await writeFile(join(workspace, "same.txt"), "same\n");
    await writeFile(join(worktree.path, "b.txt"), "agent's bee\n");
    await rm(join(workspace, "b.txt"));
    const refused = await applyToWorkspace(worktree);
    expect(refused).toMatchObject({ applied: false, conflicts: [{ path: "b.txt", reason: "deleted in the workspace and changed in the worktree" }] });
    await writeFile(join(workspace, "b.txt"), "bee\n");
    expect(await applyToWorkspace(worktree)).toMatchObject({ applied: true, files: ["b.txt"], alreadyThere: ["same.txt"] });
  });

  it("two worktrees changing the same file: the first applies, the second is refused with the conflict shown, then merges", async () => {
    const first = await createWorktree({ workspace, dataFolder: data, title: "first" });
    const second = await createWorktree({ workspace, dataFolder: data, title: "second" });
    await writeFile(join(first.path, "a.txt"), "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");
    await writeFile(join(second.path, "a.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n");
    expect(await applyToWorkspace(first)).toMatchObject({ applied: true, files: ["a.txt"] });
    const refused = await applyToWorkspace(second);
    expect(refused).toMatchObject({ applied: false, conflicts: [{ path: "a.txt" }] });
    expect(!refused.applied && refused.conflicts[0].workspaceDiff).toContain("-one\n+ONE\n");
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");
    const merged = await applyToWorkspace(second, { merge: true });
    expect(merged).toMatchObject({ applied: true, files: ["a.txt"], merged: ["a.txt"], withConflictMarkers: [] });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("ONE\ntwo\nthree\nfour\nfive\nsix\nseven\nEIGHT\n");
  });

  it("merging overlapping changes writes conflict markers for the user to resolve", async () => {
    const first = await createWorktree({ workspace, dataFolder: data, title: "first" });
    const second = await createWorktree({ workspace, dataFolder: data, title: "second" });
    await writeFile(join(first.path, "b.txt"), "first bee\n");
    await writeFile(join(second.path, "b.txt"), "second bee\n");
    await writeFile(join(second.path, "c.txt"), "clean\n");
    expect(await applyToWorkspace(first)).toMatchObject({ applied: true });
    const merged = await applyToWorkspace(second, { merge: true });
    expect(merged).toMatchObject({ applied: true, withConflictMarkers: ["b.txt"] });
    expect(await readFile(join(workspace, "b.txt"), "utf8")).toBe(`<<<<<<< workspace\nfirst bee\n=======\nsecond bee\n>>>>>>> ${second.branch}\n`);
    expect(await readFile(join(workspace, "c.txt"), "utf8")).toBe("clean\n");
  });

  it("a binary file changed on both sides cannot be merged: the whole apply is refused", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "binary" });
    await writeFile(join(workspace, "b.txt"), Buffer.from([0, 1, 2]));
    await writeFile(join(worktree.path, "b.txt"), Buffer.from([0, 3, 4]));
    await writeFile(join(worktree.path, "c.txt"), "clean\n");
    expect(await applyToWorkspace(worktree, { merge: true })).toMatchObject({ applied: false, conflicts: [{ path: "b.txt", reason: "a binary file changed on both sides" }] });
    expect(existsSync(join(workspace, "c.txt"))).toBe(false);
  });

  it("a file the worktree creates where the workspace has an ignored one is refused by git's own check, untouched", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "ignored" });
    await writeFile(join(worktree.path, ".gitignore"), "");
    await mkdir(join(worktree.path, "ignored"));
    await writeFile(join(worktree.path, "ignored", "x"), "agent\n");
    await mkdir(join(workspace, "ignored"));
    await writeFile(join(workspace, "ignored", "x"), "user's build output\n");
    const result = await applyToWorkspace(worktree);
    expect(result).toMatchObject({ applied: false, conflicts: [{ path: "ignored/x", reason: "already exists in working directory" }] });
    expect(await readFile(join(workspace, ".gitignore"), "utf8")).toBe("ignored/\n");
  });

  it("reads file names literally: a file named like a pathspec pattern is that file", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "names" });
    await writeFile(join(worktree.path, "*"), "star\n");
    await writeFile(join(worktree.path, "-n"), "dash\n");
    await writeFile(join(workspace, "b.txt"), "user\n");
    await writeFile(join(worktree.path, "b.txt"), "agent\n");
    const refused = await applyToWorkspace(worktree);
    expect(refused).toMatchObject({ applied: false, conflicts: [{ path: "b.txt" }] });
    await writeFile(join(workspace, "b.txt"), "bee\n");
    const applied = await applyToWorkspace(worktree);
    expect(applied.applied && [...applied.files].sort()).toEqual(["*", "-n", "b.txt"]);
    expect(await readFile(join(workspace, "*"), "utf8")).toBe("star\n");
  });
});

describe("a worktree's .git file, in the agent's reach", () => {
  it.skipIf(process.platform === "win32")("is never followed: git runs on the worktree's own git folder, so a repository the agent made runs nothing", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "trap" });
    const marker = join(scratch, "pwned");
    const evil = join(scratch, "evil");
    await mkdir(evil);
    git(evil, "init", "-q");
    git(evil, "config", "filter.pwn.clean", `touch ${marker}; cat`);
    await writeFile(join(worktree.path, ".gitattributes"), "* filter=pwn\n");
    await writeFile(join(worktree.path, ".git"), `gitdir: ${join(evil, ".git")}\n`);
    await writeFile(join(worktree.path, "b.txt"), "agent\n");

    const changes = await worktreeChanges(worktree);
    expect(changes.files.map((file) => [file.path, file.status])).toEqual([
      [".gitattributes", "added"],
      ["b.txt", "modified"],
    ]);
    expect(await applyToWorkspace(worktree)).toMatchObject({ applied: true });
    expect(await readFile(join(workspace, "b.txt"), "utf8")).toBe("agent\n");
    expect(await keepBranch(worktree)).toMatchObject({ committed: true });
    expect(git(workspace, "show", `${worktree.branch}:b.txt`)).toBe("agent\n");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("keepBranch, discardWorktree, prune", () => {
  it("keep branch commits the worktree's changes to its branch, then removes the folder", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "keep" });
    await writeFile(join(worktree.path, "a.txt"), "kept\n");
    await writeFile(join(worktree.path, "untracked.txt"), "also kept\n");
    const kept = await keepBranch(worktree, "Keep my work");
    expect(kept).toMatchObject({ branch: worktree.branch, committed: true });
    expect(existsSync(worktree.path)).toBe(false);
    expect(git(workspace, "show", `${worktree.branch}:a.txt`)).toBe("kept\n");
    expect(git(workspace, "show", `${worktree.branch}:untracked.txt`)).toBe("also kept\n");
    expect(git(workspace, "log", "-1", "--format=%s", worktree.branch).trim()).toBe("Keep my work");
    expect(git(workspace, "rev-parse", worktree.branch).trim()).toBe(kept.commit);
    expect(await listPaddockWorktrees(workspace, data)).toEqual([]);
  });

  it("discard removes the worktree and its branch", async () => {
    const worktree = await createWorktree({ workspace, dataFolder: data, title: "discard" });
    await writeFile(join(worktree.path, "a.txt"), "gone\n");
    await discardWorktree(worktree);
    expect(existsSync(worktree.path)).toBe(false);
    expect(git(workspace, "branch", "--list", "paddock/*")).toBe("");
    expect(git(workspace, "worktree", "list", "--porcelain")).not.toContain(worktree.path);
  });

  it("never ends a worktree or a branch that is not Paddock's", async () => {
    git(workspace, "branch", "feature");
    await expect(discardWorktree({ repositoryRoot: workspace, path: workspace, branch: "feature" })).rejects.toMatchObject({ code: "invalid-name" });
    await expect(discardWorktree({ repositoryRoot: workspace, path: workspace, branch: "paddock/none" })).rejects.toMatchObject({ code: "not-a-paddock-worktree" });
    expect(git(workspace, "branch", "--list", "feature")).toContain("feature");
  });

  it("lists Paddock's worktrees and prunes the leftovers no chat uses, keeping their work on their branches", async () => {
    const used = await createWorktree({ workspace, dataFolder: data, title: "used" });
    const leftover = await createWorktree({ workspace, dataFolder: data, title: "leftover" });
    const gone = await createWorktree({ workspace, dataFolder: data, title: "gone" });
    const elsewhere = join(scratch, "mine");
    git(workspace, "worktree", "add", "-q", "-b", "paddock/user-made", elsewhere);
    await writeFile(join(leftover.path, "a.txt"), "unsaved\n");
    await rm(gone.path, { recursive: true });
    const listed = await listPaddockWorktrees(workspace, data);
    expect(listed.map((entry) => [entry.branch, entry.missing]).sort()).toEqual([
      [gone.branch, true],
      [leftover.branch, false],
      [used.branch, false],
    ]);
    const kept = await prunePaddockWorktrees(workspace, data, new Set([used.path]));
    expect(kept.map((entry) => [entry.branch, entry.committed]).sort()).toEqual([
      [gone.branch, false],
      [leftover.branch, true],
    ]);
    expect(git(workspace, "show", `${leftover.branch}:a.txt`)).toBe("unsaved\n");
    expect((await listPaddockWorktrees(workspace, data)).map((entry) => entry.path)).toEqual([used.path]);
    expect(existsSync(elsewhere)).toBe(true);
  });
});
