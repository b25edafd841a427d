import type { Usage } from "@mariozechner/pi-ai";
import type { AgentMessage } from "./types";

export interface UsageTotals {
  input: number;
  output: number;
  totalTokens: number;
  cost: number;
}

/** Sums usage and cost over every assistant message. */
export function sumUsage(messages: readonly AgentMessage[]): UsageTotals {
  const totals: UsageTotals = { input: 0, output: 0, totalTokens: 0, cost: 0 };
  for (const message of messages) {
    if (message.role !== "assistant" || !message.usage) continue;
    const usage: Usage = message.usage;
    totals.input += usage.input;
    totals.output += usage.output;
    totals.totalTokens += usage.totalTokens;
    totals.cost += usage.cost?.total ?? 0;
  }
  return totals;
}
