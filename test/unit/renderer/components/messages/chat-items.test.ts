import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { buildTranscript, formatCost, formatTokens, messageRowKey, spentCost, streamingItem } from "../../../../../src/renderer/components/messages/chatItems";
import { sumUsage } from "../../../../../src/shared/agent/usage";

const usage = (total: number, cost: number) => ({
  input: total / 2, output: total / 2, cacheRead: 0, cacheWrite: 0, totalTokens: total,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
});
const assistant = (content: AssistantMessage["content"], total = 10, cost = 0.001): AssistantMessage => ({
  role: "assistant", content, api: "x", provider: "p", model: "m", usage: usage(total, cost), stopReason: "stop", timestamp: 0,
});

describe("buildTranscript", () => {
  it("folds tool results into their call's card and keeps orphans as rows", () => {
    const { items, toolResults } = buildTranscript([
      { role: "user", content: "hi", timestamp: 0 },
      assistant([{ type: "toolCall", id: "c1", name: "read", arguments: {} }]),
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: [], isError: false, timestamp: 0 },
      { role: "toolResult", toolCallId: "lost", toolName: "read", content: [], isError: true, timestamp: 0 },
    ]);
    expect(items.map((i) => `${i.kind}:${i.key}`)).toEqual(["user:m0", "assistant:m1", "toolResult:m3"]);
    expect([...toolResults.keys()]).toEqual(["c1", "lost"]);
  });

  it("gives each message's row its session-wide index, the key made from it, and none to other rows", () => {
    const { items } = buildTranscript([{ role: "user", content: "hi", timestamp: 0 }, assistant([])], 9875);
    expect(items.map((i) => (i.kind === "history" ? undefined : i.index))).toEqual([9875, 9876]);
    expect(items.map((i) => i.key)).toEqual(["m9875", "m9876"]);
    expect(messageRowKey(0)).toBe("m0");
    expect(streamingItem(assistant([]), 9877)).toMatchObject({ key: "m9877", index: 9877, streaming: true });
  });

  it("sums usage and cost over assistant messages", () => {
    const totals = sumUsage([assistant([], 100, 0.5), { role: "user", content: "x", timestamp: 0 }, assistant([], 50, 0.25)]);
    expect(totals).toEqual({ input: 75, output: 75, cacheRead: 0, cacheWrite: 0, totalTokens: 150, reasoning: 0, cost: 0.75, billedCost: 0, turns: 2 });
  });

  it("sums pi-ai 1.6.0's reasoning tokens and the cost providers reported as billed", () => {
    const thinking = assistant([], 100, 0.5);
    if (thinking.role !== "assistant") throw new Error("not a reply");
    thinking.usage = { ...thinking.usage, reasoning: 30, cacheWrite1h: 5, cost: { ...thinking.usage.cost, totalFromProvider: true } };
    const totals = sumUsage([thinking, assistant([], 50, 0.25)]);
    expect(totals).toMatchObject({ reasoning: 30, cost: 0.75, billedCost: 0.5, turns: 2 });
  });

  it("formats tokens and cost readably", () => {
    expect(formatTokens(999)).toBe("999");
    expect(formatTokens(1234)).toBe("1.2k");
    expect(formatTokens(2_500_000)).toBe("2.5M");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.00512)).toBe("$0.0051");
    expect(formatCost(1.5)).toBe("$1.50");
  });
});

describe("spentCost", () => {
  it("says dollars from the model's pricing, and \"cost unknown\" for tokens that cost nothing, never \"$0\"", () => {
    expect(spentCost(0.0012)).toBe("$0.0012");
    expect(spentCost(2)).toBe("$2.00");
    // A subagent on a model without pricing (a custom endpoint) reports a cost of 0: its line said "$0".
    expect(spentCost(0)).toBe("cost unknown");
    expect(spentCost(undefined)).toBe("cost unknown");
  });
});
