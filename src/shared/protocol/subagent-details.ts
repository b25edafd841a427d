/**
 * What a `subagent` tool call's details hold, as its progress updates and its result carry them: each task's run,
 * and usage summed. The parent's tool card reads it to show every subagent live (see SubagentRuns.tsx).
 */
import type { ModelRef } from "./app-api";
import type { AgentScope, SubagentUsage } from "./control-protocol";

/** One task: waiting for a slot, running (with progress), or ended (with its outcome). */
export interface SubagentRun {
  agent: string;
  task: string;
  /** Set once main has started its worker: the subagent's own session, which the card can open. */
  sessionId?: string;
  status: "waiting" | "running" | "done" | "failed";
  model?: ModelRef;
  usage: SubagentUsage;
  /** What it did last, in a line. */
  latest?: string;
  output?: string;
  stopReason?: string;
  errorMessage?: string;
  /** The definition's model could not be used; the chat's was. */
  notice?: string;
  /** Only in the final result's details: the messages of its run. */
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

/** The details of a `subagent` result or progress update, if `value` (an AgentToolResult) carries them. */
export function subagentDetails(value: unknown): SubagentDetails | undefined {
  const details = (value as { details?: unknown } | undefined)?.details as SubagentDetails | undefined;
  return details && Array.isArray(details.runs) ? details : undefined;
}
