/**
 * Project context files (AGENTS.md, CLAUDE.md) go into every request's system prompt unasked, and a repository can
 * ship them: a link to a file elsewhere, or a FIFO, must not send that file to the model or hang the worker.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace/workspace-paths";
import { loadContextFiles } from "../../../../../src/agent-worker/host/workspace/workspace-context";
import { Fifos, within } from "../../../../../testkit/fifos";
import { TempFolders } from "../../../../../testkit/temp-folders";

const folders = new TempFolders("paddock-context-");
const fifos = new Fifos();
beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // the worker's log line for each file left out
});
afterEach(() => {
  vi.restoreAllMocks();
  fifos.releaseAll();
  folders.removeAll();
});

const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- not-really-a-key";

/** Only what lies under `root`: the machine's own folders above it are not the test's. */
async function contextUnder(root: string, folder: string, denied: string[] = [], userFolder?: string) {
  // The session's own wiring: the deny list asked through the workspace's path gate.
  const paths = new WorkspacePaths(folder, [], { deny: denied.map((path) => ({ path, what: "is private" })), allowRead: [] });
  const { files, skipped } = await loadContextFiles(folder, (real) => paths.privateFolderOf(real, "read")?.path, userFolder);
  return { files: files.filter((f) => f.path.startsWith(root)), skipped: skipped.filter((s) => s.startsWith(root)) };
}

describe("project context files", () => {
  it("a workspace's AGENTS.md that links to a file outside is not read, and says so", async () => {
    const outside = folders.make({ "secret-key": SECRET });
    const root = folders.make();
    symlinkSync(join(outside, "secret-key"), join(root, "AGENTS.md"));
    const { files, skipped } = await contextUnder(root, root);
    expect(JSON.stringify(files)).not.toContain("PRIVATE KEY");
    expect(files).toEqual([]);
    expect(skipped).toEqual([`${join(root, "AGENTS.md")}: not read (a link to ${join(outside, "secret-key")}, outside ${root})`]);
  });

  it("a link that stays inside its folder is read: CLAUDE.md -> AGENTS.md, and a folder above pointing into itself", async () => {
    const above = folders.make({ "docs/agents.md": "House rules." });
    symlinkSync(join(above, "docs/agents.md"), join(above, "AGENTS.md"));
    const root = join(above, "repo");
    mkdirSync(root);
    writeFileSync(join(root, "AGENTS.md"), "Repo rules.");
    symlinkSync("AGENTS.md", join(root, "CLAUDE.md"));
    const sub = join(root, "pkg");
    mkdirSync(sub);
    symlinkSync("../AGENTS.md", join(sub, "CLAUDE.md")); // the workspace's link into the folder above: outside it
    const { files, skipped } = await contextUnder(above, sub);
    expect(files).toEqual([
      { path: join(above, "AGENTS.md"), content: "House rules." },
      { path: join(root, "AGENTS.md"), content: "Repo rules." },
    ]);
    expect(skipped).toEqual([`${join(sub, "CLAUDE.md")}: not read (a link to ${join(root, "AGENTS.md")}, outside ${sub})`]);
  });

  it("a folder above the workspace may not link out of itself, nor into a credential folder inside it", async () => {
    const home = folders.make({ ".ssh/id_ed25519": SECRET, "elsewhere/notes.md": "x" });
    const code = join(home, "code");
    const root = join(code, "repo");
    mkdirSync(root, { recursive: true });
    symlinkSync(join(home, "elsewhere/notes.md"), join(code, "AGENTS.md"));
    symlinkSync(join(home, ".ssh/id_ed25519"), join(home, "AGENTS.md"));
    const { files, skipped } = await contextUnder(home, root, [join(home, ".ssh")]);
    expect(files).toEqual([]);
    expect(skipped).toEqual([
      `${join(home, "AGENTS.md")}: not read (a link into ${join(home, ".ssh")}, which Paddock never reads)`,
      `${join(code, "AGENTS.md")}: not read (a link to ${join(home, "elsewhere/notes.md")}, outside ${code})`,
    ]);
  });

  it("a workspace swapped for a link after its tools were made: the context there is not read", async () => {
    const outside = folders.make({ "AGENTS.md": "OUTSIDE-CONTEXT" });
    const base = folders.make();
    const root = join(base, "ws"); // the real path the tools judge by, now a link
    symlinkSync(outside, root);
    const { files, skipped } = await contextUnder(base, root);
    expect(files).toEqual([]);
    expect(skipped).toEqual([`${root}: context not read (the folder now leads to ${outside})`]);
  });

  it("a FIFO as AGENTS.md is skipped without being opened: four loads at once finish promptly", { timeout: 15_000 }, async () => {
    const root = folders.make({ "CLAUDE.md": "Never read: AGENTS.md comes first." });
    fifos.make(join(root, "AGENTS.md"));
    const loads = Array.from({ length: 4 }, () => contextUnder(root, root));
    const results = await within(Promise.all(loads), 5_000, "four context loads with a FIFO as AGENTS.md");
    for (const { files, skipped } of results) {
      expect(files).toEqual([]);
      expect(skipped).toEqual([`${join(root, "AGENTS.md")}: not read (a FIFO (named pipe), not a regular file)`]);
    }
  });

  it("AGENTS.override.md stands in for a folder's AGENTS.md, as in pi 1.6.0; folders without one keep theirs", async () => {
    const above = folders.make({ "AGENTS.md": "Team rules." });
    const root = join(above, "repo");
    mkdirSync(root);
    writeFileSync(join(root, "AGENTS.md"), "Repo rules.");
    writeFileSync(join(root, "AGENTS.override.md"), "My local rules.");
    writeFileSync(join(root, "CLAUDE.md"), "Never read.");
    const { files, skipped } = await contextUnder(above, root);
    expect(files).toEqual([
      { path: join(above, "AGENTS.md"), content: "Team rules." },
      { path: join(root, "AGENTS.override.md"), content: "My local rules." },
    ]);
    expect(skipped).toEqual([]);
  });

  it("an override that may not be read is reported and passed over to the folder's AGENTS.md, as pi passes it over", async () => {
    const outside = folders.make({ "secret-key": SECRET });
    const root = folders.make({ "AGENTS.md": "Repo rules." });
    symlinkSync(join(outside, "secret-key"), join(root, "AGENTS.override.md"));
    const linked = await contextUnder(root, root);
    expect(linked.files).toEqual([{ path: join(root, "AGENTS.md"), content: "Repo rules." }]);
    expect(linked.skipped).toEqual([`${join(root, "AGENTS.override.md")}: not read (a link to ${join(outside, "secret-key")}, outside ${root})`]);

    const piped = folders.make({ "AGENTS.md": "Repo rules." });
    fifos.make(join(piped, "AGENTS.override.md"));
    const fifo = await within(contextUnder(piped, piped), 5_000, "a context load with a FIFO as AGENTS.override.md");
    expect(fifo.files).toEqual([{ path: join(piped, "AGENTS.md"), content: "Repo rules." }]);
    expect(fifo.skipped).toEqual([`${join(piped, "AGENTS.override.md")}: not read (a FIFO (named pipe), not a regular file)`]);
  });

  it("pi's user folder's context file comes first, read where the folder leads, and only once", async () => {
    const home = folders.make({ "dotfiles/pi/AGENTS.md": "Everywhere rules.", "code/repo/AGENTS.md": "Repo rules." });
    symlinkSync(join(home, "dotfiles/pi"), join(home, "agent-link")); // ~/.pi/agent as a dotfiles checkout's link
    const root = join(home, "code/repo");
    const { files } = await contextUnder(home, root, [], join(home, "agent-link"));
    expect(files).toEqual([
      { path: join(home, "dotfiles/pi/AGENTS.md"), content: "Everywhere rules." },
      { path: join(root, "AGENTS.md"), content: "Repo rules." },
    ]);
    // A user folder that is the workspace itself (or above it) is not read twice; a missing one reads nothing.
    expect((await contextUnder(home, root, [], root)).files).toEqual([{ path: join(root, "AGENTS.md"), content: "Repo rules." }]);
    expect((await contextUnder(home, root, [], join(home, "nowhere"))).files).toEqual([{ path: join(root, "AGENTS.md"), content: "Repo rules." }]);
  });

  it("the user folder's file is held to the same rules: a link out of its folder is reported, not read", async () => {
    const home = folders.make({ ".ssh/id": SECRET, "agent/.keep": "", "repo/.keep": "" });
    symlinkSync(join(home, ".ssh/id"), join(home, "agent/AGENTS.md"));
    const { files, skipped } = await contextUnder(home, join(home, "repo"), [join(home, ".ssh")], join(home, "agent"));
    expect(files).toEqual([]);
    expect(skipped).toEqual([`${join(home, "agent/AGENTS.md")}: not read (a link to ${join(home, ".ssh/id")}, outside ${join(home, "agent")})`]);
  });

  it("in a git worktree nested in its repository, the worktree's AGENTS.md stands in for the repository's, as in pi 1.6.0", async () => {
    const repo = folders.make({ "AGENTS.md": "Main checkout's rules." });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@e", "-c", "user.name=t", ...args], { cwd: repo, stdio: "ignore" });
    git("init", "-q");
    git("add", "AGENTS.md");
    git("commit", "-qm", "rules");
    git("worktree", "add", "-q", ".worktrees/feat");
    const worktree = join(repo, ".worktrees/feat");
    writeFileSync(join(worktree, "AGENTS.md"), "Feature branch's rules.");
    const inWorktree = await contextUnder(repo, join(worktree));
    expect(inWorktree.files).toEqual([{ path: join(worktree, "AGENTS.md"), content: "Feature branch's rules." }]);
    // Deeper in the worktree, too; a worktree without a file of its own keeps the repository's.
    mkdirSync(join(worktree, "pkg"));
    expect((await contextUnder(repo, join(worktree, "pkg"))).files).toEqual([{ path: join(worktree, "AGENTS.md"), content: "Feature branch's rules." }]);
    git("worktree", "add", "-q", ".worktrees/bare");
    rmSync(join(repo, ".worktrees/bare/AGENTS.md"));
    expect((await contextUnder(repo, join(repo, ".worktrees/bare"))).files).toEqual([{ path: join(repo, "AGENTS.md"), content: "Main checkout's rules." }]);
    // The repository itself, and a sibling worktree (not below its repository), read as before.
    expect((await contextUnder(repo, repo)).files).toEqual([{ path: join(repo, "AGENTS.md"), content: "Main checkout's rules." }]);
    const sibling = join(folders.make(), "sib");
    git("worktree", "add", "-q", sibling);
    const parent = dirname(sibling);
    writeFileSync(join(parent, "AGENTS.md"), "Parent folder's rules.");
    expect((await contextUnder(parent, sibling)).files).toEqual([
      { path: join(parent, "AGENTS.md"), content: "Parent folder's rules." },
      { path: join(sibling, "AGENTS.md"), content: "Main checkout's rules." },
    ]);
  });

  it("a .git file that claims a repository it does not belong to shadows nothing", async () => {
    const home = folders.make({ "AGENTS.md": "Home rules.", "proj/AGENTS.md": "Project rules." });
    writeFileSync(join(home, "proj/.git"), `gitdir: ${join(home, "nowhere")}\n`);
    expect((await contextUnder(home, join(home, "proj"))).files).toEqual([
      { path: join(home, "AGENTS.md"), content: "Home rules." },
      { path: join(home, "proj/AGENTS.md"), content: "Project rules." },
    ]);
  });
});
