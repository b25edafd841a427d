/**
 * Budgets (issue 27 §3):
 * - `budgets.checkPerEventMs`: what the run's budget accounting (agent-worker/host/session/run-budget.ts) costs per
 *   streamed event, over a run's worth of them as the Agent emits them (per reply: 500 streamed deltas, its end; a
 *   tool call's start, two progress updates and end; a subagent call's progress), every cap set and none reached.
 *   The mean of 5 passes of 200 replies. Target 0.01 ms.
 */
import type { Agent } from "../src/agent-worker/agent/agent";
import { RunBudget } from "../src/agent-worker/host/session/run-budget";
import type { AgentEvent } from "../src/shared/agent/types";
import { median, metric, type Metric } from "./lib/metrics";

const REPLIES = 200;
const DELTAS = 500;
const PASSES = 5;

export async function benchBudgets(): Promise<Record<string, Metric>> {
  let listener: ((event: AgentEvent, signal: AbortSignal) => unknown) | undefined;
  const agent = {
    subscribe: (fn: typeof listener) => {
      listener = fn;
      return () => undefined;
    },
    state: { isStreaming: true, messages: [] },
  } as unknown as Agent;
  let meters = 0;
  const budget = new RunBudget({
    agent: () => agent,
    caps: () => ({ chat: { costUsd: 1e6, tokens: 1e10, toolCalls: 1e6 }, run: { costUsd: 1e6, tokens: 1e10, minutes: 1e4, toolCalls: 1e6 } }),
    stop: () => undefined,
    notice: () => undefined,
    shown: () => void meters++,
    journal: async () => undefined,
  });
  const signal = new AbortController().signal;
  const reply = {
    role: "assistant", content: [{ type: "text", text: "x" }], api: "bench", provider: "bench", model: "bench", stopReason: "toolUse", timestamp: 1,
    usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, totalTokens: 1200, cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 } },
  };
  const events: AgentEvent[] = [];
  for (let i = 0; i < DELTAS; i++) events.push({ type: "message_update", message: reply, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x", partial: reply } } as unknown as AgentEvent);
  events.push({ type: "message_end", message: reply } as unknown as AgentEvent);
  events.push({ type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: {} });
  events.push({ type: "tool_execution_update", toolCallId: "t", toolName: "bash", args: {}, partialResult: { content: [] } });
  events.push({ type: "tool_execution_update", toolCallId: "s", toolName: "subagent", args: {}, partialResult: { details: { usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, cost: 0.0001, turns: 1, toolCalls: 1 } } } });
  events.push({ type: "tool_execution_end", toolCallId: "t", toolName: "bash", result: { content: [] }, isError: false });
  const passes: number[] = [];
  for (let pass = 0; pass < PASSES + 1; pass++) {
    budget.runStarted(false, []);
    const started = performance.now();
    for (let r = 0; r < REPLIES; r++) for (const event of events) void listener!(event, signal);
    const perEvent = (performance.now() - started) / (REPLIES * events.length);
    if (pass > 0) passes.push(perEvent); // the first pass warms the code up
  }
  return {
    checkPerEventMs: metric(median(passes), "<=", 0.01, "ms", {
      note: `median of ${PASSES} passes of ${REPLIES} replies, ${events.length} events each (${DELTAS} streamed deltas); every cap set, none reached`,
      detail: { perEventMicroseconds: Math.round(median(passes) * 1e6) / 1e3, meterPushes: meters },
    }),
  };
}
