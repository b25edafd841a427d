/**
 * What a `subagent` tool call's details hold, as its progress updates and its result carry them: each task's run,
 * and usage summed. The parent's tool card reads it to show every subagent live (see SubagentRuns.tsx).
 */
import type { ModelRef } from "./app-api";
import type { AgentScope, SubagentUsage, SubagentWorktree } from "./control-protocol";

/**
 * A task's status, as pi 1.6.0's subagent tool names it: pending (waiting for its turn or its worker), running,
 * completed, failed (an error, a process that died, an unknown agent) or aborted (stopped by the user).
 */
export type SubagentStatus = "pending" | "running" | "completed" | "failed" | "aborted";

/** One task: pending, running (with progress), or ended (with its outcome). */
export interface SubagentRun {
  agent: string;
  task: string;
  /** Set once main has started its worker: the subagent's own session, which the card can open. */
  sessionId?: string;
  status: SubagentStatus;
  model?: ModelRef;
  usage: SubagentUsage;
  /** What it did last, in a line. */
  latest?: string;
  output?: string;
  stopReason?: string;
  errorMessage?: string;
  /** The definition's model could not be used; the chat's was. */
  notice?: string;
  /** `isolation: worktree`: where it worked and what it changed there (not in the workspace until applied). */
  worktree?: SubagentWorktree;
  /**
   * Only in chats saved before the run stayed in the child's session alone: its messages, copied in here. Nothing
   * reads them (the card opens the child's session, `sessionId`); today's results never carry them.
   */
  messages?: unknown[];
}

export interface SubagentDetails {
  mode: "single" | "parallel" | "chain";
  agentScope: AgentScope;
  projectAgentsDir?: string;
  runs: SubagentRun[];
  /** Summed over every run. */
  usage: SubagentUsage;
}

/** Whether the task has ended badly (pi's `isFailedResult`). */
export function isFailedRun(run: Pick<SubagentRun, "status">): boolean {
  return run.status === "failed" || run.status === "aborted";
}

/**
 * The details of a `subagent` result or progress update, if `value` (an AgentToolResult) carries them. Chats saved
 * before pi 1.6.0's statuses say "waiting" and "done"; they read as "pending" and "completed", and a stop recorded as
 * a failure with stopReason "aborted" reads as "aborted".
 */
export function subagentDetails(value: unknown): SubagentDetails | undefined {
  const details = (value as { details?: unknown } | undefined)?.details as SubagentDetails | undefined;
  if (!details || !Array.isArray(details.runs)) return undefined;
  if (!details.runs.some(isLegacy)) return details;
  return { ...details, runs: details.runs.map((run) => (isLegacy(run) ? { ...run, status: legacyStatus(run) } : run)) };
}

const STATUSES: ReadonlySet<string> = new Set<SubagentStatus>(["pending", "running", "completed", "failed", "aborted"]);

/** Today's runs never say "failed" with stopReason "aborted": that is an older chat's stop. */
function isLegacy(run: SubagentRun | undefined): run is SubagentRun {
  return Boolean(run) && (!STATUSES.has(run!.status) || (run!.status === "failed" && run!.stopReason === "aborted"));
}

function legacyStatus(run: SubagentRun): SubagentStatus {
  const status = run.status as string;
  if (status === "waiting") return "pending";
  if (status === "done") return "completed";
  return run.stopReason === "aborted" ? "aborted" : "failed";
}
