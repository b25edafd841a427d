/**
 * The worker's record of a workspace's changes, over a real checkpoint store in temporary folders: which calls are
 * checkpointed, what a call's card is told, "since a message" on a chat whose later messages were set aside (a run
 * starting at an earlier message ends their claim to their indexes), and the timeline a restarted worker reads back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TempFolders } from "../../../../../testkit/temp-folders";
import { callScope, WorkspaceChanges } from "../../../../../src/agent-worker/host/changes/workspace-changes";
import type { WorkspaceCheckpoint } from "../../../../../src/shared-node/session-files/workspace-checkpoint-record";
import type { WorkerCheckpointSettings } from "../../../../../src/shared/protocol/control-protocol";

const folders = new TempFolders();
const open: WorkspaceChanges[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  folders.removeAll();
});

function rig(files: Record<string, string>, loaded: WorkspaceCheckpoint[] = [], root = folders.make(files), data = folders.make(), worktree?: { branch: string; base: string }) {
  const state = { count: 0, journaled: [] as WorkspaceCheckpoint[], off: [] as string[], settings: undefined as WorkerCheckpointSettings | undefined };
  const changes = new WorkspaceChanges(
    {
      sessionId: "s1",
      dataFolder: data,
      workspace: () => root,
      messageCount: () => state.count,
      userMessageIndexes: () => [0],
      journal: async (c) => void state.journaled.push(c),
      off: (text) => void state.off.push(text),
      checkpointSettings: () => state.settings,
      ...(worktree ? { worktree } : {}),
    },
    loaded,
  );
  open.push(changes);
  return { root, data, state, changes };
}
const tool = (id: string, name = "write") => ({ kind: "tool" as const, id, name });

describe("callScope", () => {
  const mcp = (name: string) => (name === "docs__search" ? true : name === "db__write" ? false : undefined);
  it("write and edit re-examine their path; bash, subagent and MCP tools not read-only the whole folder; reading tools nothing", () => {
    expect(callScope("write", { path: "a.ts", content: "" }, mcp)).toEqual({ paths: ["a.ts"] });
    expect(callScope("edit", { path: "b.ts", edits: [] }, mcp)).toEqual({ paths: ["b.ts"] });
    expect(callScope("bash", { command: "ls" }, mcp)).toBe("all");
    expect(callScope("subagent", { agent: "x", task: "y" }, mcp)).toBe("all");
    expect(callScope("db__write", {}, mcp)).toBe("all");
    expect(callScope("docs__search", {}, mcp)).toBeNull();
    for (const name of ["read", "ls", "grep", "find", "calculate", "wait"]) expect(callScope(name, {}, mcp)).toBeNull();
  });

  it("a task's worktree applied by the parent the whole folder; kept or discarded, nothing in the workspace", () => {
    expect(callScope("worktree", { action: "apply", sessionId: "s1" }, mcp)).toBe("all");
    expect(callScope("worktree", { action: "keep", sessionId: "s1" }, mcp)).toBeNull();
    expect(callScope("worktree", { action: "discard", sessionId: "s1" }, mcp)).toBeNull();
  });
});

describe("WorkspaceChanges", () => {
  it("a worktree chat records its folder as it opens: changes since the worktree's base include ones made before the first run", async () => {
    const worktree = { branch: "paddock/fix-csv", base: "0123456789abcdef0123456789abcdef01234567" };
    const { root, state, changes } = rig({ "a.txt": "one\n" }, [], undefined, undefined, worktree);
    changes.warm();
    await changes.beforeCall();
    await expect.poll(() => state.journaled.length).toBe(1); // the base, before any run
    writeFileSync(join(root, "a.txt"), "one\ntwo\n"); // the user's editor, before the chat's first run
    changes.runStarted();
    await changes.beforeCall();
    writeFileSync(join(root, "b.txt"), "new\n");
    await changes.afterCall("all", tool("c1", "bash"));
    const sinceBase = await changes.listChanges({ kind: "base" });
    expect(sinceBase.files.map((f) => [f.path, f.status])).toEqual([["a.txt", "modified"], ["b.txt", "added"]]);
    expect(sinceBase.notes?.[0]).toBe(`Compared with commit 0123456, where the worktree's branch paddock/fix-csv started (what "Apply to workspace" brings over).`);
  });

  it("a chat that does not work in a worktree has no base to compare with, and says so", async () => {
    const { changes } = rig({ "a.txt": "one\n" });
    changes.runStarted();
    await changes.beforeCall();
    await expect(changes.listChanges({ kind: "base" })).rejects.toThrow("This chat does not work in a worktree: there is no branch to compare with.");
  });

  it("checkpoints a run's start and each changing call, and tells the call's card what it changed", async () => {
    const { root, state, changes } = rig({ "a.txt": "one\ntwo\n" });
    changes.runStarted();
    await changes.beforeCall();
    expect(state.journaled.map((c) => c.cause)).toEqual(["run"]);
    state.count = 2;
    writeFileSync(join(root, "a.txt"), "one\nTWO\nthree\n");
    expect(await changes.afterCall({ paths: ["a.txt"] }, tool("c1", "edit"))).toEqual({ files: 1, added: 2, removed: 1 });
    expect(await changes.afterCall("all", tool("c2", "bash"))).toBeUndefined(); // nothing changed
    expect(await changes.afterCall(null, tool("c3", "read"))).toBeUndefined();
    expect(state.journaled.map((c) => [c.cause, c.at, c.by?.id])).toEqual([
      ["run", 0, undefined],
      ["tool", 2, "c1"],
      ["tool", 2, "c2"],
    ]);
  });

  it("Settings turning checkpoints off: nothing is recorded and the chat is told once; turned on again, a new baseline", async () => {
    const { root, state, changes } = rig({ "a.txt": "one\n" });
    state.settings = { enabled: false, maxFileBytes: 20 * 1024 * 1024 };
    changes.runStarted();
    await changes.beforeCall();
    writeFileSync(join(root, "a.txt"), "two\n");
    expect(await changes.afterCall({ paths: ["a.txt"] }, tool("c1", "edit"))).toBeUndefined();
    changes.runStarted();
    await changes.beforeCall();
    expect(state.journaled).toEqual([]);
    expect(state.off).toHaveLength(1);
    expect(state.off[0]).toMatch(/Checkpoints are off for this chat: Settings → Checkpoints turns them off/);
    expect(changes.off).toBeDefined();

    state.settings = { enabled: true, maxFileBytes: 4 };
    changes.runStarted();
    await changes.beforeCall();
    expect(changes.off).toBeUndefined();
    writeFileSync(join(root, "a.txt"), "three, longer than four bytes\n");
    expect(await changes.afterCall({ paths: ["a.txt"] }, tool("c2", "edit"))).toMatchObject({ files: 1 });
    const set = await changes.listChanges({ kind: "chat" });
    // The largest file kept comes from Settings: this one changed, with no copy kept.
    expect(set.files.map((f) => [f.path, f.tooLarge !== undefined])).toEqual([["a.txt", true]]);
  });

  it("a user's edit is never taken back silently: kept beside a reverted hunk, or made between runs, a later rewind asks", async () => {
    const lines = (n: number, change: (i: number) => string | undefined = () => undefined) =>
      Array.from({ length: n }, (_, i) => change(i) ?? `line ${i}`).join("\n") + "\n";
    const { root, state, changes } = rig({ "a.txt": lines(40), "b.txt": "b\n" });
    changes.runStarted();
    await changes.beforeCall();
    state.count = 2;
    // The agent changes lines 2 and 30 (two hunks) and b.txt.
    writeFileSync(join(root, "a.txt"), lines(40, (i) => (i === 2 ? "agent 2" : i === 30 ? "agent 30" : undefined)));
    await changes.afterCall({ paths: ["a.txt"] }, tool("t1", "edit"));
    writeFileSync(join(root, "b.txt"), "B\n");
    await changes.afterCall({ paths: ["b.txt"] }, tool("t2", "write"));
    // The user edits line 16, between the hunks, in their editor; then reverts the agent's first hunk.
    writeFileSync(join(root, "a.txt"), lines(40, (i) => (i === 2 ? "agent 2" : i === 16 ? "mine 16" : i === 30 ? "agent 30" : undefined)));
    const set = await changes.listChanges({ kind: "chat" });
    const diff = await changes.fileDiff(set.from, set.to, "a.txt");
    const reverted = await changes.revertHunk(set.from, set.to, "a.txt", diff.hunks[0].header, undefined);
    expect(reverted).toMatchObject({ done: true, reverted: ["a.txt"] });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe(lines(40, (i) => (i === 16 ? "mine 16" : i === 30 ? "agent 30" : undefined)));

    // Rewinding the files asks about a.txt (the user's line 16 is in it) instead of overwriting it.
    const asked = await changes.rewindFiles(0, undefined);
    expect(asked.done).toBe(false);
    expect(!asked.done && asked.conflicts.map((c) => c.path)).toEqual(["a.txt"]);
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("B\n"); // nothing written while it asks

    // "Keep mine": a.txt stays as the user has it, b.txt goes back.
    const kept = await changes.rewindFiles(0, "keep-mine");
    expect(kept).toMatchObject({ done: true, kept: ["a.txt"], reverted: ["b.txt"] });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toContain("mine 16");
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b\n");

    // An edit between runs counts the same: the next run's start records it as made outside.
    writeFileSync(join(root, "b.txt"), "B again by the agent\n");
    await changes.afterCall({ paths: ["b.txt"] }, tool("t3", "write"));
    writeFileSync(join(root, "b.txt"), "B edited by me\n");
    state.count = 4;
    changes.runStarted();
    await changes.beforeCall();
    const again = await changes.rewindFiles(0, undefined);
    expect(!again.done && again.conflicts.map((c) => c.path).sort()).toEqual(["a.txt", "b.txt"]);
    const overwritten = await changes.rewindFiles(0, "overwrite");
    expect(overwritten.done).toBe(true);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe(lines(40));
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("b\n");
  });

  it("'since a message' after the chat went back to an earlier message: the set-aside run's checkpoints no longer count", async () => {
    const { root, state, changes } = rig({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
    changes.runStarted();
    await changes.beforeCall(); // a call waits for the run's start to be recorded
    state.count = 2;
    writeFileSync(join(root, "a.txt"), "A\n");
    await changes.afterCall({ paths: ["a.txt"] }, tool("t1"));
    state.count = 4; // the next message, its run
    changes.runStarted();
    await changes.beforeCall(); // a call waits for the run's start to be recorded
    state.count = 6;
    writeFileSync(join(root, "b.txt"), "B\n");
    await changes.afterCall({ paths: ["b.txt"] }, tool("t2"));
    state.count = 2; // the message at 2 was edited: the messages from 2 on are a stored version
    changes.runStarted();
    await changes.beforeCall(); // a call waits for the run's start to be recorded
    state.count = 3;
    writeFileSync(join(root, "c.txt"), "C\n");
    await changes.afterCall({ paths: ["c.txt"] }, tool("t3"));

    const since2 = await changes.listChanges({ kind: "message", index: 2 });
    expect(since2.files.map((f) => f.path)).toEqual(["c.txt"]);
    const all = await changes.listChanges({ kind: "chat" });
    expect(all.files.map((f) => [f.path, all.authors[f.authors[0]].id])).toEqual([
      ["a.txt", "t1"],
      ["b.txt", "t2"],
      ["c.txt", "t3"],
    ]);
  });

  it("a recorded span (a scheduled run's) lists that span's changes, whatever came after; checkpoints not the chat's are refused", async () => {
    const { root, state, changes } = rig({ "a.txt": "a\n", "b.txt": "b\n" });
    changes.runStarted();
    await changes.beforeCall();
    state.count = 2;
    writeFileSync(join(root, "a.txt"), "A\nmore\n");
    await changes.afterCall({ paths: ["a.txt"] }, tool("t1"));
    const run = await changes.listChanges({ kind: "turn" });
    // The chat goes on: a later run changes another file.
    state.count = 4;
    changes.runStarted();
    await changes.beforeCall();
    writeFileSync(join(root, "b.txt"), "B\n");
    await changes.afterCall({ paths: ["b.txt"] }, tool("t2"));

    const span = await changes.listChanges({ kind: "range", from: run.from, to: run.to });
    expect(span).toMatchObject({ since: { kind: "range", from: run.from, to: run.to }, from: run.from, to: run.to, totals: { files: 1, added: 2, removed: 1 } });
    expect(span.files.map((f) => f.path)).toEqual(["a.txt"]);
    expect((await changes.listChanges({ kind: "chat" })).files.map((f) => f.path)).toEqual(["a.txt", "b.txt"]);
    await expect(changes.listChanges({ kind: "range", from: "nope", to: run.to })).rejects.toThrow(/not this chat's/);
    await expect(changes.listChanges({ kind: "range", from: run.to, to: run.from })).rejects.toThrow(/start comes after their end/);
  });

  it("a restarted worker reads the timeline back and goes on from it", async () => {
    const first = rig({ "a.txt": "a\n" });
    first.changes.runStarted();
    await first.changes.beforeCall();
    first.state.count = 2;
    writeFileSync(join(first.root, "a.txt"), "A\n");
    await first.changes.afterCall({ paths: ["a.txt"] }, tool("t1"));
    await first.changes.close();

    const again = rig({}, first.state.journaled, first.root, first.data);
    again.state.count = 4;
    const set = await again.changes.listChanges({ kind: "chat" });
    expect(set.from).toBe(first.state.journaled[0].id);
    expect(set.to).toBe(first.state.journaled[1].id);
    expect(set.files).toMatchObject([{ path: "a.txt", status: "modified", added: 1, removed: 1 }]);
    const rewound = await again.changes.rewindFiles(0, undefined);
    expect(rewound).toMatchObject({ done: true, reverted: ["a.txt"] });
    expect(again.state.journaled.map((c) => [c.cause, c.by?.name])).toEqual([["revert", "rewind"]]);
  });
});
