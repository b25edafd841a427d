/**
 * A chat of the user's: the built-in tools, and with a workspace its tools and `subagent`; its own instructions;
 * its calls asked in its own chat. The subagents it starts report their progress to the call that runs them.
 */
import type { AgentTool } from "../../../shared/agent/types";
import type { SubagentProgress, WorkerInitOptions } from "../../../shared/protocol/control-protocol";
import type { ModelRef } from "../../../shared/protocol/app-api";
import type { ThinkingLevel } from "../../../shared/agent/types";
import { builtinTools } from "../../tools";
import { subagentTool } from "../../tools/subagent/subagent-tool";
import { worktreeQuestion, worktreeTool, type WorktreeAction } from "../../tools/subagent/worktree-tool";
import type { BeforeToolCallContext } from "../../../shared/agent/types";
import type { CallDecision } from "../approvals/call-decision";
import { isRecord } from "../../../shared/is-record";
import type { ApprovalGate } from "../approvals/approval-gate";
import type { SessionMain, SessionRole } from "./session-role";
import type { PermissionProfile } from "../../../shared/protocol/permission-profiles";

export interface ParentRoleHost {
  options: Pick<WorkerInitOptions, "sessionId" | "agentFolders">;
  main: Pick<SessionMain, "listAgents" | "confirmProjectAgents" | "runSubagent" | "stopSubagent" | "taskWorktree">;
  /** Created after the role; asked for at the first call. */
  approvals(): ApprovalGate;
  modelRef(): ModelRef | undefined;
  thinkingLevel(): ThinkingLevel;
  /** The profile the chat's calls are decided under now: its subagents' is never wider. */
  profile(): Promise<PermissionProfile>;
  /** The run under way plans (the chat's Plan mode, or its contract's): its subagents plan too. */
  planning(): boolean;
}

export class ParentRole implements SessionRole {
  /** Progress listeners of this chat's running subagent tasks, by request id. */
  private readonly listeners = new Map<string, (progress: SubagentProgress) => void>();
  private nextRequest = 0;

  constructor(private readonly host: ParentRoleHost) {}

  tools(workspaceTools: readonly AgentTool<any>[], hasWorkspace: boolean): AgentTool<any>[] {
    const subagents = hasWorkspace && workspaceTools.length > 0;
    return [...builtinTools(), ...workspaceTools, ...(subagents ? [this.subagentTool(), worktreeTool((request) => this.host.main.taskWorktree(request))] : [])];
  }

  instructions(chatInstructions: () => string | undefined): { custom?: string; addendum?: string } {
    const custom = chatInstructions();
    return custom === undefined ? {} : { custom };
  }

  readonly decideCall: SessionRole["decideCall"] = (context, signal) =>
    context.toolCall.name === "worktree" ? this.decideWorktreeCall(context, signal) : this.host.approvals().decideCall(context, signal);

  /**
   * A `worktree` call is asked like `write` (Settings' policy for `worktree`, "ask" unless set), its question saying
   * what the task's worktree holds, as main describes it. A task main refuses (another chat's, not isolated) is
   * refused here, without asking.
   */
  private async decideWorktreeCall(context: BeforeToolCallContext, signal?: AbortSignal): Promise<CallDecision> {
    const args = isRecord(context.args) ? context.args : {};
    const action = args.action as WorktreeAction;
    const sessionId = typeof args.sessionId === "string" ? args.sessionId : "";
    const described = await this.host.main.taskWorktree({ action: "describe", sessionId }).catch((error: Error) => ({ ok: false, text: error.message }));
    if (!described.ok) return { block: true, reason: described.text };
    const summary = worktreeQuestion(action, action === "apply" && args.merge === true, described.text);
    return this.host.approvals().ask({ id: context.toolCall.id, toolName: "worktree", args: context.args, described: { summary } }, signal);
  }

  reportsOn(): boolean {
    return false;
  }

  status(): Record<string, never> {
    return {};
  }

  task<T>(run: () => Promise<T>): Promise<T> {
    return run();
  }

  subagentProgress(progress: SubagentProgress): void {
    this.listeners.get(progress?.requestId)?.(progress);
  }

  private subagentTool(): AgentTool<any> {
    const { main, options } = this.host;
    return subagentTool({
      // A cwd only when the task has one: the control channel's schema takes no `undefined`.
      listAgents: (scope, cwd) => (cwd === undefined ? main.listAgents(scope) : main.listAgents(scope, cwd)),
      confirmProjectAgents: (names, cwd) => (cwd === undefined ? main.confirmProjectAgents(names) : main.confirmProjectAgents(names, cwd)),
      confirm: async (toolCallId, question, signal) =>
        (await this.host.approvals().ask({ id: toolCallId, toolName: "subagent", args: {}, described: { summary: question }, policy: "every-call" }, signal)) === undefined,
      run: async (request, onProgress) => {
        this.listeners.set(request.requestId, onProgress);
        try {
          const plan = this.host.planning() ? { parentPlan: true as const } : {};
          return await main.runSubagent({ ...request, parentProfile: await this.host.profile(), ...plan });
        } finally {
          this.listeners.delete(request.requestId);
        }
      },
      stop: (requestId) => main.stopSubagent(requestId),
      parentModel: () => this.host.modelRef(),
      parentThinkingLevel: () => this.host.thinkingLevel(),
      newRequestId: () => `${options.sessionId}-${++this.nextRequest}-${Date.now().toString(36)}`,
    }, { piAgents: options.agentFolders?.pi, paddockAgents: options.agentFolders?.paddock, worktreeTool: true });
  }
}
