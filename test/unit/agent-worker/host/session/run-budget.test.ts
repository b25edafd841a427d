/**
 * A chat's budget enforced around our real Agent on pi-ai's scripted model (agent-worker/host/session/run-budget.ts):
 * each kind of cap stops the run as Stop does, with the reason on the stopped reply and journaled; 80 % warns once;
 * a model without pricing counts tokens and says the cost is unknown; a subagent call's reported usage counts; a
 * chat whose own cap is reached refuses the next run.
 */
import { fauxAssistantMessage, fauxToolCall, type AssistantMessage, type FauxResponseStep } from "@earendil-works/pi-ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { RunBudget, spendOf, type BudgetClock } from "../../../../../src/agent-worker/host/session/run-budget";
import type { Agent } from "../../../../../src/agent-worker/agent/index";
import type { AgentTool, StreamFn } from "../../../../../src/shared/agent/types";
import { streamSimple } from "../../../../../src/agent-worker/agent/stream-simple";
import type { ChatBudget } from "../../../../../src/shared/agent/budget";
import type { BudgetMeter } from "../../../../../src/shared/protocol/budget-meter";
import type { TranscriptRecord } from "../../../../../src/shared-node/session-files/transcript-store";
import { echoTool, scriptedAgent, textResult, useScriptedModel, userMessage } from "../../agent/harness";
import { FakeClock } from "../../../../../testkit/fake-clock";

const faux = useScriptedModel(["budget-1"]);

/**
 * A reply with this usage (tokens split in and out) and cost. pi-ai's faux provider estimates usage itself, at no
 * cost; the reply carries what it should report in its response id, which `priced` (the Agent's stream) puts back.
 */
function withUsage(message: AssistantMessage, tokens: number, cost: number): AssistantMessage {
  return { ...message, responseId: `usage:${tokens}:${cost}` };
}
function reported(message: AssistantMessage): AssistantMessage {
  const [, tokens, cost] = (message.responseId ?? "").split(":").map(Number);
  if (!message.responseId?.startsWith("usage:")) return message;
  const input = Math.round(tokens / 2);
  return {
    ...message,
    usage: { input, output: tokens - input, cacheRead: 0, cacheWrite: 0, totalTokens: tokens, cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost } },
  };
}
const priced: StreamFn = (model, context, options) => {
  const inner = streamSimple(model, context, options);
  return {
    async *[Symbol.asyncIterator]() {
      for await (const event of inner) yield event.type === "done" ? { ...event, message: reported(event.message) } : event;
    },
    result: async () => reported(await inner.result()),
  } as unknown as ReturnType<StreamFn>;
};
const callEcho = (tokens: number, cost: number, n = 1): FauxResponseStep => () =>
  withUsage(fauxAssistantMessage(Array.from({ length: n }, (_, i) => fauxToolCall("echo", { text: `e${i}` })), { stopReason: "toolUse" }), tokens, cost);
const answer = (tokens: number, cost: number): FauxResponseStep => () => withUsage(fauxAssistantMessage("done"), tokens, cost);

function session(responses: FauxResponseStep[], budget: ChatBudget, options: { tools?: AgentTool<any>[]; clock?: BudgetClock } = {}) {
  const journal: TranscriptRecord[] = [];
  const notices: string[] = [];
  const kinds: string[] = [];
  const meters: (BudgetMeter | undefined)[] = [];
  let caps = budget;
  let runBudget: RunBudget | undefined;
  const agent: Agent = scriptedAgent(faux, responses, {
    initialState: { tools: options.tools ?? [echoTool("echo")] },
    streamFn: priced,
    onStateEvent: (event, state) => {
      if (event.type === "run_start") runBudget?.runStarted(false, state.messages);
    },
  });
  runBudget = new RunBudget({
    agent: () => agent,
    caps: () => caps,
    stop: () => agent.abort(),
    notice: (text, kind) => {
      notices.push(text);
      kinds.push(kind);
    },
    shown: (meter) => meters.push(meter),
    journal: async (record) => void journal.push(record),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const run = async (text = "go") => {
    await agent.prompt(userMessage(text));
    await agent.waitForIdle();
  };
  const last = () => agent.state.messages.at(-1) as AssistantMessage;
  return { agent, budget: runBudget, journal, notices, kinds, meters, run, last, setCaps: (next: ChatBudget) => (caps = next) };
}

const stoppedTexts = (journal: TranscriptRecord[]) =>
  journal.flatMap((r) => (r.t === "message" && r.message.role === "assistant" && r.message.errorMessage ? [r.message.errorMessage] : []));

describe("run budgets", () => {
  it("a token cap stops the run at the reply that reaches it: the stopped reply says why, journaled", async () => {
    const { run, last, journal, notices, kinds, agent } = session([callEcho(400, 0.01), callEcho(400, 0.01), callEcho(400, 0.01), answer(10, 0)], { run: { tokens: 1000 } });
    await run();
    expect(last()).toMatchObject({ stopReason: "aborted", errorMessage: "Stopped at the 1k-token budget: 2 tool calls, $0.03" });
    expect(stoppedTexts(journal)).toEqual(["Stopped at the 1k-token budget: 2 tool calls, $0.03"]);
    expect(journal[0]).toEqual({ t: "drop", count: 1 });
    // Warned once on the way (800 of 1,000), then told of the stop.
    expect(notices).toEqual(["80% of the run's 1k-token budget used: 1 tool call, $0.02", "Stopped at the 1k-token budget: 2 tool calls, $0.03"]);
    // Both are warnings (amber, role=status): nothing failed, the user's limit held.
    expect(kinds).toEqual(["warning", "warning"]);
    // The third reply's call ended as stopped, and the run with the stopped reply, before the model was asked again.
    expect(agent.state.messages.map((m) => (m.role === "toolResult" ? `tool:${m.isError ? "stopped" : "ok"}` : m.role))).toEqual([
      "user", "assistant", "tool:ok", "assistant", "tool:ok", "assistant", "tool:stopped", "assistant",
    ]);
    expect(last().content).toEqual([]);
  });

  it("a money cap stops at pi-ai's cost; the warning at 80 % comes once", async () => {
    const { run, last, notices } = session([callEcho(100, 0.45), callEcho(100, 0.45), callEcho(100, 0.45), answer(10, 0.45)], { run: { costUsd: 1 } });
    await run();
    expect(last().errorMessage).toBe("Stopped at the $1.00 budget: 2 tool calls, 300 tokens");
    expect(notices.filter((n) => n.startsWith("90% of the run's $1.00 budget"))).toHaveLength(1);
    expect(notices.filter((n) => n.includes("% of"))).toHaveLength(1);
  });

  it("a tool call cap stops once that many calls have finished; calls still in flight end as stopped", async () => {
    const slow: AgentTool<any> = {
      ...echoTool("echo"),
      async execute(_id, params: any, signal) {
        const ms = params.text === "e1" ? 5_000 : 1;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted by signal"))));
        });
        return textResult(`echo:${params.text}`);
      },
    };
    const { run, last, agent } = session([callEcho(10, 0.001, 1), callEcho(10, 0.001, 2), answer(10, 0)], { run: { toolCalls: 2 } }, { tools: [slow] });
    const started = Date.now();
    await run();
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(last().errorMessage).toBe("Stopped at the 2-tool-call budget: 20 tokens, $0.0020");
    const results = agent.state.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => r.role === "toolResult" && r.isError)).toEqual([false, false, true]);
  });

  it("a time cap (a fake clock): warned at 80 %, stopped at the cap while a tool waits", async () => {
    const clock = new FakeClock(1_000_000);
    const advance = (ms: number) => clock.advance(ms);
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    const waiting: AgentTool<any> = {
      name: "echo", label: "Wait", description: "waits", parameters: Type.Object({ text: Type.String() }),
      execute: (_id, _params, signal) => {
        toolStarted();
        return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted by signal"))));
      },
    };
    const { agent, run, last, notices } = session([callEcho(10, 0.01), answer(10, 0)], { run: { minutes: 10 } }, { tools: [waiting], clock });
    const running = run();
    await started;
    advance(7 * 60_000);
    expect(notices).toEqual([]);
    advance(60_000);
    expect(notices).toEqual(["80% of the run's 10-minute budget used: 0 tool calls, 10 tokens, $0.01"]);
    expect(agent.state.isStreaming).toBe(true);
    advance(2 * 60_000);
    await running;
    expect(last().errorMessage).toBe("Stopped at the 10-minute budget: 0 tool calls, 10 tokens, $0.01");
    expect(agent.state.messages.find((m) => m.role === "toolResult")).toMatchObject({ isError: true });
  });

  it("a model without pricing: tokens and time count, the cost is unknown (never $0.00), a money cap cannot stop it", async () => {
    const { run, last, meters } = session([callEcho(300, 0), callEcho(300, 0), answer(300, 0)], { run: { costUsd: 0.5, tokens: 500 } });
    await run();
    expect(last().errorMessage).toBe("Stopped at the 500-token budget: 1 tool call, cost unknown");
    expect(meters.at(-1)?.run?.spend).toMatchObject({ cost: 0, costUnknown: true });
  });

  it("a subagent call's usage counts toward its parent's caps as it reports it", async () => {
    const subagent: AgentTool<any> = {
      name: "subagent", label: "Subagent", description: "delegates", parameters: Type.Object({}),
      async execute(_id, _params, signal, onUpdate) {
        const usage = (input: number, toolCalls: number) => ({ input, output: 0, cacheRead: 0, cacheWrite: 0, cost: input / 1000, turns: 1, toolCalls });
        for (const input of [200, 400, 900, 1500]) {
          if (signal?.aborted) throw new Error("aborted by signal");
          onUpdate?.({ content: [{ type: "text", text: "working" }], details: { usage: usage(input, input / 100) } });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return { content: [{ type: "text", text: "sub done" }], details: { usage: usage(1500, 15) } };
      },
    };
    const step: FauxResponseStep = () => withUsage(fauxAssistantMessage([fauxToolCall("subagent", {})], { stopReason: "toolUse" }), 100, 0.1);
    const { run, last, meters, agent } = session([step, answer(10, 0)], { run: { tokens: 1000 } }, { tools: [subagent] });
    await run();
    expect(last().errorMessage).toBe("Stopped at the 1k-token budget: 9 tool calls, $1.00");
    const result = agent.state.messages.find((m) => m.role === "toolResult");
    expect(result?.role === "toolResult" && result.isError).toBe(true);
    // Its 9 calls and the parent's own `subagent` call.
    expect(meters.at(-1)?.run?.spend.toolCalls).toBe(10);
  });

  it("a chat's own cap counts its earlier runs and refuses the next run once reached, until raised", async () => {
    const s = session([answer(600, 0.2), answer(600, 0.2), answer(10, 0)], { chat: { tokens: 1000 } });
    await s.run("one");
    expect(s.last().stopReason).toBe("stop");
    expect(s.budget.refusal(s.agent.state.messages)).toBeUndefined();
    await s.run("two");
    // The reply that reached the chat's cap ended the run (the reply itself had finished: nothing was cut).
    expect(s.notices.at(-1)).toBe("Stopped at the chat's 1k-token budget: 0 tool calls, $0.40");
    expect(s.budget.refusal(s.agent.state.messages)).toMatch(/^This chat reached its 1k-token budget\. Raise or remove it in the chat's Budget…/);
    s.setCaps({ chat: { tokens: 5000 } });
    s.budget.capsChanged();
    expect(s.budget.refusal(s.agent.state.messages)).toBeUndefined();
    // A chat cleared (reset) has spent nothing.
    s.setCaps({ chat: { tokens: 1000 } });
    expect(s.budget.refusal(s.agent.state.messages)).toBeDefined();
    expect(s.budget.refusal([])).toBeUndefined();
  });

  it("spendOf counts a chat's replies, tool calls and subagent results from its messages", () => {
    const model = faux.getModel();
    const reply = reported(withUsage({ ...fauxAssistantMessage("x"), api: model.api, provider: model.provider, model: model.id }, 100, 0.5));
    const spend = spendOf([
      userMessage("hi"),
      reply,
      { role: "toolResult", toolCallId: "1", toolName: "subagent", content: [], isError: false, timestamp: 1, details: { usage: { input: 50, output: 50, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 1, toolCalls: 3 } } },
    ]);
    expect(spend).toEqual({ cost: 0.5, costUnknown: true, tokens: 200, elapsedMs: 0, toolCalls: 4 });
  });
});
