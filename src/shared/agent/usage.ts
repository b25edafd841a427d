import type { Usage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "./types";

export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  /** Of `output`, the tokens spent thinking, where the provider reports them (pi-ai 1.6.0's `usage.reasoning`). */
  reasoning: number;
  cost: number;
  /** Of `cost`, what providers reported as billed (pi-ai 1.6.0's `cost.totalFromProvider`); the rest is estimated. */
  billedCost: number;
  /** Assistant messages, i.e. model calls. */
  turns: number;
}

/** Sums usage and cost over every assistant message, and the summaries compactions had written (not turns). */
export function sumUsage(messages: readonly AgentMessage[]): UsageTotals {
  const totals: UsageTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, reasoning: 0, cost: 0, billedCost: 0, turns: 0 };
  for (const message of messages) {
    if (message.role !== "assistant" && message.role !== "compaction") continue;
    if (message.role === "assistant") totals.turns++;
    if (!message.usage) continue;
    const usage: Usage = message.usage;
    totals.input += usage.input;
    totals.output += usage.output;
    totals.cacheRead += usage.cacheRead ?? 0;
    totals.cacheWrite += usage.cacheWrite ?? 0;
    totals.totalTokens += usage.totalTokens;
    totals.reasoning += usage.reasoning ?? 0;
    totals.cost += usage.cost?.total ?? 0;
    if (usage.cost?.totalFromProvider) totals.billedCost += usage.cost.total;
  }
  return totals;
}
