import { describe, expect, it } from "vitest";
import { recordedLaunch, storedLaunch, type ChildLaunch } from "../../../../src/main/broker/child-launch";
import type { SessionRecord } from "../../../../src/shared/protocol/session-summary";

const launch: ChildLaunch = {
  setup: { parentSessionId: "parent", agent: "scout", instructions: "You scout.", tools: ["read", "grep"] },
  toolCallId: "call-1",
  workspace: "/work/project",
  workspaceIdentity: { dev: "2049", ino: "123456789012345678901" },
  model: { provider: "openai", id: "gpt-4.1" },
  thinkingLevel: "high",
};

/** A child's index entry as core.ts writes it, through JSON as the index file keeps it. */
function childRecord(stored: unknown): SessionRecord {
  const record = {
    id: "sub-1",
    title: "scout (subagent)",
    created: 1,
    updated: 1,
    messageCount: 0,
    model: { provider: "openai", id: "gpt-4.1" },
    workspace: "/work/project",
    parent: { sessionId: "parent", toolCallId: "call-1", agent: "scout" },
    ...(stored === undefined ? {} : { launch: stored }),
  };
  return JSON.parse(JSON.stringify(record)) as SessionRecord;
}

describe("a subagent's recorded launch", () => {
  it("comes back from the index as main launched it, with the parent link the record already holds", () => {
    expect(recordedLaunch(childRecord(storedLaunch(launch)))).toEqual({ launch });
  });

  it("keeps the worktree an isolated task runs in", () => {
    const worktree = {
      repositoryRoot: "/work/project",
      path: "/data/worktrees/project-fix-abc123",
      folder: "/data/worktrees/project-fix-abc123",
      branch: "paddock/fix",
      base: "0123456789abcdef0123456789abcdef01234567",
      startedFrom: "0123456789abcdef0123456789abcdef01234567",
      carried: false,
    };
    const isolated: ChildLaunch = { ...launch, workspace: worktree.folder, worktree };
    expect(recordedLaunch(childRecord(storedLaunch(isolated)))).toEqual({ launch: isolated });
    expect(recordedLaunch(childRecord({ ...storedLaunch(isolated), worktree: { ...worktree, branch: 7 } }))?.problem).toContain("is damaged");
  });

  it("does not repeat the record's parent link in what the index keeps", () => {
    expect(Object.keys(storedLaunch(launch)).sort()).toEqual(["instructions", "model", "thinkingLevel", "tools", "version", "workspace", "workspaceIdentity"]);
  });

  it("is none for a chat: only a session with a parent is a child", () => {
    const { parent: _parent, ...chat } = childRecord(storedLaunch(launch));
    expect(recordedLaunch(chat)).toBeUndefined();
    expect(recordedLaunch(undefined)).toBeUndefined();
  });

  it("missing (a child from before launches were kept): the same agent and parent with no tools, no instructions, no workspace, and words saying so", () => {
    const recorded = recordedLaunch(childRecord(undefined))!;
    expect(recorded.launch).toEqual({
      setup: { parentSessionId: "parent", agent: "scout", instructions: "", tools: [] },
      toolCallId: "call-1",
      model: { provider: "openai", id: "gpt-4.1" },
    });
    expect(recorded.problem).toBe("This scout subagent's set-up was not saved with it (it ran in an older Paddock), so it opens without its instructions and without any tools.");
  });

  it.each([
    ["not an object", "everything"],
    ["tools that are not names", { ...storedLaunch(launch), tools: "*" }],
    ["an unknown version", { ...storedLaunch(launch), version: 2 }],
    ["a thinking level that is not one", { ...storedLaunch(launch), thinkingLevel: "enormous" }],
    ["no instructions", { version: 1, tools: ["bash"] }],
  ])("damaged (%s): never a wider tool set than none", (_what, stored) => {
    const recorded = recordedLaunch(childRecord(stored))!;
    expect(recorded.launch.setup.tools).toEqual([]);
    expect(recorded.launch.workspace).toBeUndefined();
    expect(recorded.problem).toBe("This scout subagent's set-up is damaged, so it opens without its instructions and without any tools.");
  });
});
