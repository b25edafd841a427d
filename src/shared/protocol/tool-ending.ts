/**
 * How a tool call that did not finish its work ended, beyond pi's `isError`: the field of a tool result's `details`
 * its card reads to say "stopped", "denied" or "timed out" rather than "failed". The worker sets it: the approval gate
 * on a denial (the user's no, nobody answering, a stop while it asked; delivered by the session's tool-call guard,
 * agent-worker/host/session/tool-call-guard.ts), the session when a call errs after the run was stopped, and the bash
 * tool on its own abort or timeout. What the model is told (the result's text) is unchanged.
 */
export const TOOL_ENDING_FIELD = "ending";

export type ToolEnding = "stopped" | "denied" | "timeout";

const ENDINGS: ReadonlySet<string> = new Set<ToolEnding>(["stopped", "denied", "timeout"]);

/** The ending a tool result's `details` carry, if any. */
export function toolEnding(details: unknown): ToolEnding | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const value = (details as Record<string, unknown>)[TOOL_ENDING_FIELD];
  return typeof value === "string" && ENDINGS.has(value) ? (value as ToolEnding) : undefined;
}

/** `details` with `ending` set (kept when it already says one: the tool knew best). */
export function withToolEnding(details: unknown, ending: ToolEnding): Record<string, unknown> {
  const base = typeof details === "object" && details !== null && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
  return toolEnding(base) ? base : { ...base, [TOOL_ENDING_FIELD]: ending };
}
