import type { AgentToolResult } from "./types";

/**
 * A tool's failure that still has details to show (a chain's finished steps, a stopped command's saved output).
 * Tools fail by throwing, as pi's do, and pi's loop gives a thrown error's result `details: {}`: the session's tool
 * wrapper (agent-worker/host/session/tool-call-guard.ts) keeps these details and its `afterToolCall` puts them back.
 */
export class ToolFailure<T = unknown> extends Error {
  constructor(
    message: string,
    readonly details: T,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

/**
 * A failure a tool returns rather than throws, as pi 1.6.0's bash does for a command that exits with another code
 * than 0: `isError` beside pi's fields. pi-agent-core 0.73.1's loop counts any returned result as a success; the
 * session's tool wrapper makes this one count as an error (tool-call-guard.ts).
 */
export type ToolErrorResult<T> = AgentToolResult<T> & { isError: true };

export function toolErrorResult<T>(content: AgentToolResult<T>["content"], details: T): ToolErrorResult<T> {
  return { content, details, isError: true };
}

/** Whether a tool returned its failure (toolErrorResult). */
export function isToolErrorResult(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true;
}
