/** A parent's `worktree` tool, main's side: only the caller's own isolated tasks, and what happened in words. */
import { existsSync } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ParentTaskWorktrees } from "../../../../src/main/broker/parent-task-worktrees";
import type { ChildLaunch } from "../../../../src/main/broker/child-launch";
import { createWorktree } from "../../../../src/shared-node/git-worktrees/worktree-lifecycle";
import { TempFolders } from "../../../../testkit/temp-folders";
import { git } from "../../../../testkit/git";

const folders = new TempFolders("paddock-parent-task-worktrees-");
afterAll(() => folders.removeAll());


async function rig() {
  const workspace = await realpath(folders.make({ "a.txt": "one\n" }));
  git(workspace, "init", "-q");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  const worktree = await createWorktree({ workspace, dataFolder: join(folders.make({}), "worktrees"), title: "worker fix" });
  const launch = (parent: string, extra: Partial<ChildLaunch> = {}): ChildLaunch => ({
    setup: { parentSessionId: parent, agent: "worker", instructions: "", tools: ["write"] },
    toolCallId: "c1",
    workspace: worktree.folder,
    ...extra,
  });
  const launches = new Map<string, ChildLaunch>([
    ["sub-isolated", launch("parent", { worktree })],
    ["sub-plain", launch("parent", { workspace })],
    ["sub-other", launch("other-chat", { worktree })],
  ]);
  const tasks = new ParentTaskWorktrees((id) => (launches.has(id) ? { launch: launches.get(id)! } : undefined));
  return { workspace, worktree, tasks };
}

describe("a parent's worktree tool, in main", () => {
  it("refuses another chat's task, a task that was not isolated, and a session that is no task, changing nothing", async () => {
    const { worktree, tasks } = await rig();
    await writeFile(join(worktree.path, "a.txt"), "two\n");
    expect(await tasks.run("parent", { action: "discard", sessionId: "sub-other" })).toEqual({ ok: false, text: "sub-other is not a subagent task of this chat." });
    expect(await tasks.run("parent", { action: "apply", sessionId: "parent" })).toEqual({ ok: false, text: "parent is not a subagent task of this chat." });
    expect(await tasks.run("parent", { action: "apply", sessionId: "sub-plain" })).toMatchObject({ ok: false, text: expect.stringContaining("did not work in a worktree of its own") });
    expect(existsSync(worktree.path)).toBe(true);
  });

  it("describes and applies its own task's worktree, naming the files", async () => {
    const { workspace, worktree, tasks } = await rig();
    await writeFile(join(worktree.path, "a.txt"), "one\ntwo\n");
    expect(await tasks.run("parent", { action: "describe", sessionId: "sub-isolated" })).toEqual({
      ok: true,
      text: `The worker subagent's worktree (branch ${worktree.branch}): 1 file changed, +1 −0: a.txt`,
    });
    const applied = await tasks.run("parent", { action: "apply", sessionId: "sub-isolated" });
    expect(applied).toMatchObject({ ok: true, text: expect.stringContaining("as uncommitted changes: 1 file: a.txt.") });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("refuses an apply where the workspace changed the same file, naming it; keeps the branch on request", async () => {
    const { workspace, worktree, tasks } = await rig();
    await writeFile(join(worktree.path, "a.txt"), "theirs\n");
    await writeFile(join(workspace, "a.txt"), "mine\n");
    const refused = await tasks.run("parent", { action: "apply", sessionId: "sub-isolated" });
    expect(refused.ok).toBe(false);
    expect(refused.text).toContain("Nothing was applied");
    expect(refused.text).toContain("- a.txt:");
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("mine\n");
    const kept = await tasks.run("parent", { action: "keep", sessionId: "sub-isolated" });
    expect(kept).toMatchObject({ ok: true, text: expect.stringContaining(`branch ${worktree.branch}`) });
    expect(existsSync(worktree.path)).toBe(false);
  });
});
