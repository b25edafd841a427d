/** A session's role (session/parent-role.ts, session/child-role.ts): what a user's chat and a subagent's session do differently. */
import { describe, expect, it } from "vitest";
import { ApprovalGate, type GatePolicy } from "../../../../../src/agent-worker/host/approvals/approval-gate";
import { ChildRole } from "../../../../../src/agent-worker/host/session/child-role";
import { ParentRole } from "../../../../../src/agent-worker/host/session/parent-role";
import type { SessionRole } from "../../../../../src/agent-worker/host/session/session-role";
import type { AgentTool, BeforeToolCallContext } from "../../../../../src/shared/agent/types";
import type { SubagentApprovalQuestion, TaskWorktreeAnswer, TaskWorktreeRequest } from "../../../../../src/shared/protocol/control-protocol";
import type { ApprovalRequest } from "../../../../../src/shared/protocol/session-protocol";

const tool = (name: string) => ({ name, label: name, description: name, parameters: {}, execute: async () => ({ content: [] }) }) as unknown as AgentTool<any>;
const workspaceTools = ["read", "edit", "bash"].map(tool);
const call = (name: string, id = "c1") => ({ toolCall: { id, name, arguments: {} }, args: { path: "a.txt" } }) as unknown as BeforeToolCallContext;

/** A gate that asks this chat's user about every call; `asked` lists the questions, which wait until answered. */
function gate(policy: GatePolicy = "ask") {
  let pending: ApprovalRequest[] = [];
  const approvals = new ApprovalGate({
    policy: () => policy,
    describe: async (name) => ({ summary: `${name} call` }),
    changed: (now) => void (pending = now),
    saveGrant: async () => undefined,
    timeoutMs: () => 60_000,
  });
  approvals.setViewers(1);
  return { approvals, pending: () => pending };
}

function child(answer: { block: boolean; reason?: string } = { block: false }) {
  const { approvals, pending } = gate();
  const questions: SubagentApprovalQuestion[] = [];
  const role = new ChildRole({
    setup: { parentSessionId: "p", agent: "scout", instructions: "  Look around.  ", tools: ["read", "bash", "mcp_search"] },
    main: { askParent: async (question) => (questions.push(question), answer) },
    approvals: () => approvals,
    protection: async () => undefined,
    describeCall: async (name) => ({ summary: `${name} of a.txt` }),
  });
  return { role, questions, pending };
}

function parent(taskWorktree: (request: TaskWorktreeRequest) => Promise<TaskWorktreeAnswer> = async () => ({ ok: false, text: "not here" })) {
  const { approvals, pending } = gate();
  const role: SessionRole = new ParentRole({
    options: { sessionId: "p" },
    main: { listAgents: async () => ({ agents: [] }) as never, confirmProjectAgents: async () => undefined, runSubagent: async () => ({}) as never, stopSubagent: async () => undefined, taskWorktree },
    approvals: () => approvals,
    modelRef: () => undefined,
    thinkingLevel: () => "off",
    profile: async () => "ask",
    planning: () => false,
  });
  return { role, pending };
}

describe("a child role (a subagent's session)", () => {
  it("has only the workspace tools its definition names, never subagent, and its definition's instructions as the addendum", () => {
    const { role } = child();
    expect(role.tools(workspaceTools).map((t) => t.name)).toEqual(["read", "bash"]);
    expect(role.mcpToolNames).toEqual(["read", "bash", "mcp_search"]);
    expect(role.instructions()).toEqual({ addendum: "Look around." });
  });

  it("routes the calls of its parent's task to the parent's chat, and says the parent's no", async () => {
    const { role, questions, pending } = child({ block: true });
    const verdict = await role.task(() => role.decideCall(call("bash")));
    expect(verdict).toEqual({ block: true, reason: "The user denied this call.", ending: "denied" });
    expect(questions).toEqual([{ toolCallId: "c1", toolName: "bash", args: { path: "a.txt" }, summary: "bash of a.txt" }]);
    expect(pending()).toEqual([]);
  });

  it("asks its parent's chat a command's network question only on the parent's task: undefined there is an allowance", async () => {
    const question = { toolCallId: "n1", toolName: "network", args: { host: "example.org" }, summary: "curl wants example.org" };
    expect(child().role.askNetwork(question)).toBeUndefined(); // not its parent's to answer: the session's own chat asks
    const allowing = child();
    expect(await allowing.role.task(() => allowing.role.askNetwork(question)!)).toBeUndefined();
    expect(allowing.questions).toEqual([question]);
    const denying = child({ block: true, reason: "not that host" });
    expect(await denying.role.task(() => denying.role.askNetwork(question)!)).toEqual({ block: true, reason: "not that host" });
  });

  it("asks in its own window about a call on what the user typed there", async () => {
    const { role, questions, pending } = child();
    void role.decideCall(call("read"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(questions).toEqual([]);
    expect(pending().map((p) => p.toolName)).toEqual(["read"]);
  });

  it("tells main about each tool call and reports its usage in its status", () => {
    const { role } = child();
    expect(role.reportsOn({ type: "tool_execution_start" } as never)).toBe(true);
    expect(role.status([]).subagent?.usage).toMatchObject({ turns: 0 });
  });
});

describe("a parent role (a user's chat)", () => {
  it("has the built-in tools, and with a workspace its tools and subagent", () => {
    const { role } = parent();
    const names = role.tools(workspaceTools, true).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read", "edit", "bash", "subagent"]));
    expect(role.tools([], false).map((t) => t.name)).not.toContain("subagent");
    expect(role.mcpToolNames).toBeUndefined();
  });

  it("uses the chat's own instructions, and asks its own user about every call", async () => {
    const { role, pending } = parent();
    expect(role.instructions(() => "Be brief.")).toEqual({ custom: "Be brief." });
    expect(role.instructions(() => undefined)).toEqual({});
    void role.task(() => role.decideCall(call("bash")));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pending().map((p) => p.toolName)).toEqual(["bash"]);
    expect(role.reportsOn({ type: "tool_execution_start" } as never)).toBe(false);
    expect(role.status([])).toEqual({});
  });
});

describe("a parent role's worktree tool", () => {
  const worktreeCall = (args: Record<string, unknown>) => ({ toolCall: { id: "w1", name: "worktree", arguments: args }, args }) as unknown as BeforeToolCallContext;

  it("is offered with subagent, and only then", () => {
    const { role } = parent();
    expect(role.tools(workspaceTools, true).map((t) => t.name)).toContain("worktree");
    expect(role.tools([], false).map((t) => t.name)).not.toContain("worktree");
  });

  it("asks the user like write, the question saying what the task's worktree holds, as main describes it", async () => {
    const asked: TaskWorktreeRequest[] = [];
    const { role, pending } = parent(async (request) => (asked.push(request), { ok: true, text: "The worker subagent's worktree (branch paddock/x): 1 file changed, +1 −0: a.txt" }));
    void role.decideCall(worktreeCall({ action: "apply", sessionId: "child-1" }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([{ action: "describe", sessionId: "child-1" }]);
    expect(pending()).toMatchObject([
      { toolName: "worktree", summary: "Apply a subagent task's changes to the workspace. The worker subagent's worktree (branch paddock/x): 1 file changed, +1 −0: a.txt" },
    ]);
  });

  it("refuses, without asking, a task main refuses (another chat's)", async () => {
    const { role, pending } = parent(async () => ({ ok: false, text: "other-1 is not a subagent task of this chat." }));
    expect(await role.decideCall(worktreeCall({ action: "discard", sessionId: "other-1" }))).toEqual({ block: true, reason: "other-1 is not a subagent task of this chat." });
    expect(pending()).toEqual([]);
  });
});
