/**
 * What a subagent's run comes to, for its parent: the final text (pi's `getFinalOutput`: the last assistant message's
 * text), how it ended, usage summed, and a line saying what it is doing. Pure functions of the run's messages.
 */
import type { AgentMessage } from "../../../shared/agent/types";
import type { SubagentOutcome, SubagentUsage } from "../../../shared/protocol/control-protocol";
import { contentText } from "../../../shared/agent/content-text";
import { sumUsage, type UsageTotals } from "../../../shared/agent/usage";

export function subagentResult(messages: readonly AgentMessage[]): Omit<SubagentOutcome, "requestId" | "agent" | "sessionId" | "notice"> {
  const last = [...messages].reverse().find((m) => m.role === "assistant");
  const stopReason = last?.role === "assistant" ? last.stopReason : undefined;
  const errorMessage = last?.role === "assistant" ? last.errorMessage : undefined;
  const ok = last !== undefined && stopReason !== "error" && stopReason !== "aborted";
  return {
    ok,
    output: finalOutput(messages),
    ...(stopReason ? { stopReason } : {}),
    ...(errorMessage ? { errorMessage } : ok || last ? {} : { errorMessage: "The subagent did not answer." }),
    usage: subagentUsage(sumUsage(messages), toolCallCount(messages)),
  };
}

/** The text of the last assistant message that has any. */
export function finalOutput(messages: readonly AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const text = contentText(m.content.filter((c) => c.type === "text"), "");
    if (text.trim()) return text;
  }
  return "";
}

/** A run's usage as a parent reports it: the chat's own sums (sumUsage), less what a subagent's card does not show. */
export function subagentUsage({ input, output, cacheRead, cacheWrite, cost, turns }: UsageTotals, toolCalls = 0): SubagentUsage {
  return { input, output, cacheRead, cacheWrite, cost, turns, toolCalls };
}

/** Tool calls the run finished (each has its result): they count toward the parent's budget. */
export function toolCallCount(messages: readonly AgentMessage[]): number {
  let count = 0;
  for (const m of messages) if (m.role === "toolResult") count++;
  return count;
}

/** What it did last, in a line: its latest tool call ("→ read src/a.ts") or the start of its latest text. */
export function subagentActivity(messages: readonly AgentMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const block = m.content[j];
      if (block.type === "toolCall") return clip(`→ ${block.name} ${argsLine(block.arguments)}`);
      if (block.type === "text" && block.text.trim()) return clip(block.text.trim().split("\n")[0]);
    }
  }
  return undefined;
}

function argsLine(args: unknown): string {
  const a = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  for (const key of ["command", "path", "pattern"]) if (typeof a[key] === "string") return a[key] as string;
  return JSON.stringify(args) ?? "";
}

function clip(line: string): string {
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
