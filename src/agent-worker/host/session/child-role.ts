/**
 * A subagent's session: the workspace and MCP tools its definition names and never `subagent` (no recursion), its
 * definition's instructions. Whoever gave the work decides on its calls: a call in its parent's task is asked in the
 * parent's chat (by the parent's policy and grants); a call on what the user typed in the subagent's own window,
 * there, as in any chat. Its parent shows what it is doing: each tool call is news, and its status carries its usage.
 */
import type { AgentStateEvent } from "../../../shared/agent/state";
import type { AgentMessage, AgentTool } from "../../../shared/agent/types";
import { denied, type CallDecision } from "../approvals/call-decision";
import type { SubagentApprovalQuestion, SubagentSetup } from "../../../shared/protocol/control-protocol";
import { sumUsage } from "../../../shared/agent/usage";
import type { ApprovalGate } from "../approvals/approval-gate";
import type { SessionMain, SessionRole } from "./session-role";
import { subagentActivity, subagentUsage, toolCallCount } from "./subagent-task";

export interface ChildRoleHost {
  setup: SubagentSetup;
  main: Pick<SessionMain, "askParent">;
  /** Created after the role; asked for at the first call. */
  approvals(): ApprovalGate;
  /** The workspace's word on a call that would touch what it protects. */
  protection(toolCallId: string, toolName: string, args: unknown): Promise<string | undefined>;
  /** What an approval question says about a call (see SessionHost.describeCall). */
  describeCall(toolName: string, args: unknown): Promise<{ summary: string; diff?: string }>;
}

export class ChildRole implements SessionRole {
  readonly mcpToolNames: readonly string[];
  /** How many of its parent's tasks are running now (their tool calls are asked in the parent's chat). */
  private parentTasks = 0;

  constructor(private readonly host: ChildRoleHost) {
    this.mcpToolNames = host.setup.tools;
  }

  tools(workspaceTools: readonly AgentTool<any>[]): AgentTool<any>[] {
    return workspaceTools.filter((t) => this.host.setup.tools.includes(t.name));
  }

  instructions(): { custom?: string; addendum?: string } {
    return { addendum: this.host.setup.instructions.trim() };
  }

  readonly decideCall: SessionRole["decideCall"] = (context, signal) =>
    this.parentTasks > 0 ? this.askParent(context.toolCall.id, context.toolCall.name, context.args) : this.host.approvals().decideCall(context, signal);

  reportsOn(event: AgentStateEvent): boolean {
    return event.type === "tool_execution_start";
  }

  status(messages: readonly AgentMessage[]) {
    return { subagent: { usage: subagentUsage(sumUsage(messages), toolCallCount(messages)), latest: subagentActivity(messages) } };
  }

  async task<T>(run: () => Promise<T>): Promise<T> {
    this.parentTasks++;
    try {
      return await run();
    } finally {
      this.parentTasks--;
    }
  }

  /** On its parent's task, a command's network question is asked in the parent's chat (a block is a denial). */
  askNetwork(question: SubagentApprovalQuestion): Promise<CallDecision> | undefined {
    if (this.parentTasks === 0) return undefined;
    return this.host.main
      .askParent(question)
      .catch(() => ({ block: true, reason: "The parent chat could not be asked." }))
      .then((answer): CallDecision => (answer.block ? { block: true, reason: answer.reason ?? "The user denied it." } : undefined));
  }

  /** A subagent starts none. */
  subagentProgress(): void {}

  /** This subagent's call: its parent's chat decides. */
  private async askParent(toolCallId: string, toolName: string, args: unknown): Promise<CallDecision> {
    const protection = await this.host.protection(toolCallId, toolName, args);
    const question: SubagentApprovalQuestion = { toolCallId, toolName, args, ...(await this.host.describeCall(toolName, args)), ...(protection ? { protection } : {}) };
    const answer = await this.host.main.askParent(question).catch(() => ({ block: true, reason: "The parent chat could not be asked." }));
    // Shown as "denied" on the subagent's card: the parent's chat said no (or could not be asked).
    return answer.block ? denied(answer.reason ?? "The user denied this call.") : undefined;
  }
}
