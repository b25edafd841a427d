/** An isolated task's worktree after the task: found by the child's recorded launch only, then applied, kept or discarded. */
import { existsSync } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TaskWorktrees } from "../../../../src/main/broker/task-worktrees";
import type { ChildLaunch } from "../../../../src/main/broker/child-launch";
import { createWorktree } from "../../../../src/shared-node/git-worktrees/worktree-lifecycle";
import { TempFolders } from "../../../../testkit/temp-folders";
import { git } from "../../../../testkit/git";

const folders = new TempFolders("paddock-task-worktrees-");
afterAll(() => folders.removeAll());


async function rig() {
  const workspace = await realpath(folders.make({ "a.txt": "one\n" }));
  git(workspace, "init", "-q");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  const worktree = await createWorktree({ workspace, dataFolder: join(folders.make({}), "worktrees"), title: "worker fix" });
  const launch = (extra: Partial<ChildLaunch> = {}): ChildLaunch => ({
    setup: { parentSessionId: "parent", agent: "worker", instructions: "", tools: ["write"] },
    toolCallId: "c1",
    workspace: worktree.folder,
    ...extra,
  });
  const launches = new Map<string, ChildLaunch>([
    ["sub-isolated", launch({ worktree })],
    ["sub-plain", launch({ workspace })],
  ]);
  const tasks = new TaskWorktrees((id) => (launches.has(id) ? { launch: launches.get(id)! } : undefined));
  return { workspace, worktree, tasks };
}

describe("a task's worktree, after the task", () => {
  it("lists its changes and applies them to the workspace", async () => {
    const { workspace, worktree, tasks } = await rig();
    await writeFile(join(worktree.path, "a.txt"), "one\ntwo\n");
    expect((await tasks.changes("sub-isolated")).files).toMatchObject([{ path: "a.txt", status: "modified", added: 1 }]);
    expect(await tasks.fileDiff("sub-isolated", { path: "a.txt" })).toContain("+two\n");
    expect(await tasks.apply("sub-isolated")).toMatchObject({ applied: true, files: ["a.txt"] });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("keeps its branch with the changes committed, or discards worktree and branch", async () => {
    const kept = await rig();
    await writeFile(join(kept.worktree.path, "a.txt"), "kept\n");
    expect(await kept.tasks.keep("sub-isolated")).toMatchObject({ branch: kept.worktree.branch, committed: true });
    expect(git(kept.workspace, "log", "-1", "--format=%s", kept.worktree.branch).trim()).toBe("Changes made by the worker subagent in Paddock");
    expect(existsSync(kept.worktree.path)).toBe(false);
    const gone = await rig();
    await gone.tasks.discard("sub-isolated");
    expect(existsSync(gone.worktree.path)).toBe(false);
    expect(git(gone.workspace, "branch", "--list", gone.worktree.branch)).toBe("");
  });

  it("refuses, in words, a subagent that worked in the workspace itself, or no subagent at all", async () => {
    const { tasks } = await rig();
    await expect(tasks.apply("sub-plain")).rejects.toThrow("This subagent did not work in a worktree of its own.");
    await expect(tasks.keep("nobody")).rejects.toThrow("This subagent did not work in a worktree of its own.");
  });
});
