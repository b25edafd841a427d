/**
 * What a UI knows about each tool call beyond AgentState: its arguments, its streamed partial output and its final
 * result. Like the Agent's state, it changes only through one pure reducer, run by the worker (for snapshots) and by
 * every mirror (from forwarded events), so both agree.
 */
import type { AgentStateEvent } from "./state";

export interface ToolRun {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly partialResult?: unknown;
  readonly result?: unknown;
  readonly isError?: boolean;
  readonly status: "running" | "done" | "error";
}

export type ToolRuns = Readonly<Record<string, ToolRun>>;

export const NO_TOOL_RUNS: ToolRuns = Object.freeze({});

/** Pure: returns `runs` itself for events that do not concern tools. A new run (or reset) forgets earlier runs. */
export function reduceToolRuns(runs: ToolRuns, event: AgentStateEvent): ToolRuns {
  switch (event.type) {
    case "run_start":
    case "reset":
      return Object.keys(runs).length === 0 ? runs : NO_TOOL_RUNS;
    case "tool_execution_start":
      return { ...runs, [event.toolCallId]: { toolCallId: event.toolCallId, toolName: event.toolName, args: event.args, status: "running" } };
    case "tool_execution_update": {
      const run = runs[event.toolCallId];
      return run ? { ...runs, [event.toolCallId]: { ...run, partialResult: event.partialResult } } : runs;
    }
    case "tool_execution_end": {
      const run = runs[event.toolCallId];
      if (!run) return runs;
      return { ...runs, [event.toolCallId]: { ...run, result: event.result, isError: event.isError, status: event.isError ? "error" : "done" } };
    }
    default:
      return runs;
  }
}
