/**
 * The part of a session that depends on who gave it its work, chosen once when the session opens: a chat of the
 * user's (the parent role: it may start subagents, parent-role.ts) or a subagent's session (the child role: its
 * agent's tools and instructions, its parent's tasks asked in the parent's chat, child-role.ts).
 */
import type { AgentStateEvent } from "../../../shared/agent/state";
import type { AgentMessage, AgentTool, BeforeToolCallContext } from "../../../shared/agent/types";
import type { CallDecision, CallVerdict } from "../approvals/call-decision";
import type { MainControlApi, SubagentApprovalQuestion, SubagentProgress, WorkerStatus } from "../../../shared/protocol/control-protocol";

/** What a session needs of main. */
export type SessionMain = Pick<
  MainControlApi,
  "getApiKey" | "report" | "resolveModel" | "listAgents" | "confirmProjectAgents" | "runSubagent" | "stopSubagent" | "taskWorktree" | "askParent" | "addProjectGrant" | "mcpTools" | "mcpCall" | "mcpCancel" | "listSkills"
> & Partial<Pick<MainControlApi, "getProviderConfig">>;

export interface SessionRole {
  /** The MCP tools a subagent's definition names (undefined: the chat's servers decide). */
  readonly mcpToolNames?: readonly string[];
  /** The session's own tools (before MCP's), given its workspace's (none without one). */
  tools(workspaceTools: readonly AgentTool<any>[], hasWorkspace: boolean): AgentTool<any>[];
  /**
   * The instructions: `custom`, the chat's own (else Settings' default), added to the workspace prompt after its
   * rules (the whole prompt without a workspace); `addendum`, a subagent's definition, appended to the workspace
   * prompt (or the whole prompt without a workspace).
   */
  instructions(chatInstructions: () => string | undefined): { custom?: string; addendum?: string };
  /** Who decides on one of the Agent's calls (asked from its `beforeToolCall`, see tool-call-guard.ts). */
  readonly decideCall: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<CallVerdict>;
  /** Whether `event` is news for main beyond a run's start and end. */
  reportsOn(event: AgentStateEvent): boolean;
  /** What the role adds to the status main is sent. */
  status(messages: readonly AgentMessage[]): Pick<WorkerStatus, "subagent">;
  /** Runs one task the parent gave (a subagent's; see WorkerControlApi.runTask). */
  task<T>(run: () => Promise<T>): Promise<T>;
  /** Main passes on a subagent's progress to the tool call that runs it. */
  subagentProgress(progress: SubagentProgress): void;
  /**
   * A network question of the session's, when someone else decides it (a subagent's on its parent's task: asked in
   * the parent's chat); undefined: the session's own chat asks.
   */
  askNetwork?(question: SubagentApprovalQuestion): Promise<CallDecision> | undefined;
}
