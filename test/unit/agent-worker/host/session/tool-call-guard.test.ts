/**
 * The session's tool-call guard on the Agent's loop: parked calls wait in the tool while the turn's other calls run,
 * denials the card must show as such are delivered by the tool, and what pi's loop leaves out of a result (a
 * failure's details, a returned failure) is put back by afterToolCall. Every case runs on our Agent and on
 * pi-agent-core 0.73.1's own: the guard needs nothing of the loop that pi's does not do.
 */
import * as Reference from "@mariozechner/pi-agent-core";
import { fauxAssistantMessage, fauxToolCall, type JsonObject, type ToolResultMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { Agent, type AgentOptions, type AgentTool } from "../../../../../src/agent-worker/agent/index";
import { streamSimple } from "../../../../../src/agent-worker/agent/stream-simple";
import { ToolCallGuard } from "../../../../../src/agent-worker/host/session/tool-call-guard";
import type { CallDecision, CallVerdict } from "../../../../../src/agent-worker/host/approvals/call-decision";
import { toolErrorResult, ToolFailure } from "../../../../../src/shared/agent/tool-failure";
import type { BeforeToolCallContext } from "../../../../../src/shared/agent/types";
import { echoTool, failingTool, useScriptedModel } from "../../agent/harness";

const faux = useScriptedModel();

type AgentClass = new (options: AgentOptions) => { prompt(text: string): Promise<void>; subscribe(listener: (event: any) => void): () => void };
const AGENTS: [string, AgentClass][] = [
  ["ours", Agent as unknown as AgentClass],
  ["pi-agent-core 0.73.1", Reference.Agent as unknown as AgentClass],
];

const calls = (...list: [string, JsonObject, string][]) => fauxAssistantMessage(list.map(([name, args, id]) => fauxToolCall(name, args, { id })));

/**
 * Runs one turn of `toolCalls` on `AgentClass`, its tools wrapped by a guard deciding with `decide`, and returns the
 * toolResult messages, what ran (the tools' log) and how often the session's after-hook saw a call that ran.
 */
async function runGuarded(
  AgentClass: AgentClass,
  toolCalls: [string, JsonObject, string][],
  tools: AgentTool<any>[],
  decide: (context: BeforeToolCallContext) => Promise<CallVerdict>,
  options: Partial<AgentOptions> = {},
) {
  faux.setResponses([calls(...toolCalls), fauxAssistantMessage("done")]);
  const guard = new ToolCallGuard(decide);
  const ran: string[] = [];
  const agent = new AgentClass({
    initialState: { model: faux.getModel(), systemPrompt: "guarded", tools: guard.wrap(tools) },
    streamFn: streamSimple,
    beforeToolCall: guard.beforeToolCall,
    afterToolCall: async (context) => {
      const restored = guard.restore(context);
      if (restored.ran) ran.push(`after ${context.toolCall.id}`);
      return { details: restored.result.details, isError: restored.isError };
    },
    ...options,
  });
  const results: ToolResultMessage[] = [];
  const ends: string[] = [];
  agent.subscribe((event) => {
    if (event.type === "message_end" && event.message.role === "toolResult") results.push(event.message);
    if (event.type === "tool_execution_end") ends.push(event.toolCallId);
  });
  await agent.prompt("go");
  return { results, ran, ends };
}

/** A decision that comes later, when `settle` is called. */
function later(): { promise: Promise<CallDecision>; settle(decision: CallDecision): void } {
  let settle: (decision: CallDecision) => void = () => {};
  const promise = new Promise<CallDecision>((resolve) => (settle = resolve));
  return { promise, settle };
}

describe.each(AGENTS)("the tool-call guard on %s's Agent", (_name, AgentClass) => {
  it("a parked call waits in its tool while the turn's other call runs, and is denied with its reason and ending", async () => {
    const log: string[] = [];
    const c1 = later();
    const c3 = later();
    const parked = new Map([["c1", c1.promise], ["c3", c3.promise]]);
    const echo = echoTool("echo", { log: (line) => log.push(line) });
    // Decided only once c2 has finished: had the parked calls held up the turn, this would never run.
    const watcher: AgentTool<any> = {
      ...echo,
      execute: async (id, params, signal, onUpdate) => {
        const result = await echo.execute(id, params as { text: string }, signal, onUpdate);
        if (id === "c2") {
          c1.settle({ block: true, reason: "Denied: no answer before the run ended, so the call was not made.", ending: "denied" });
          c3.settle(undefined);
        }
        return result;
      },
    };
    const { results, ran } = await runGuarded(
      AgentClass,
      [["echo", { text: "a" }, "c1"], ["echo", { text: "b", delayMs: 5 }, "c2"], ["echo", { text: "c" }, "c3"]],
      [watcher],
      async ({ toolCall }) => {
        const decision = parked.get(toolCall.id);
        return decision ? { parked: decision } : undefined;
      },
    );
    expect(log).toEqual(["echo start c2", "echo end c2", "echo start c3", "echo end c3"]);
    expect(results.map((r) => r.toolCallId)).toEqual(["c1", "c2", "c3"]);
    expect(results[0]).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Denied: no answer before the run ended, so the call was not made." }],
      details: { ending: "denied" },
    });
    expect(results[2]).toMatchObject({ isError: false, content: [{ text: "echo:c" }] });
    // The denied call never ran: the session's after-call work (checkpoints) is not done for it.
    expect(ran).toEqual(["after c2", "after c3"]);
  });

  it("sequentially, a parked call is waited for before the next call starts", async () => {
    const log: string[] = [];
    const c1 = later();
    setTimeout(() => c1.settle(undefined), 20);
    const { results } = await runGuarded(
      AgentClass,
      [["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"]],
      [echoTool("echo", { log: (line) => log.push(line), executionMode: "sequential" })],
      async ({ toolCall }) => (toolCall.id === "c1" ? { parked: c1.promise } : undefined),
    );
    expect(log).toEqual(["echo start c1", "echo end c1", "echo start c2", "echo end c2"]);
    expect(results.map((r) => r.isError)).toEqual([false, false]);
  });

  it("a denial or stop decided now keeps its ending; a block without one is pi's block ({} details)", async () => {
    const log: string[] = [];
    const verdicts: Record<string, CallVerdict> = {
      c1: { block: true, reason: "The user denied this call.", ending: "denied" },
      c2: { block: true, reason: "The run was stopped before the user answered.", ending: "stopped" },
      c3: { block: true, reason: "This call is already waiting for an answer." },
    };
    const { results, ran } = await runGuarded(
      AgentClass,
      [["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"], ["echo", { text: "c" }, "c3"], ["echo", { text: "d" }, "c4"]],
      [echoTool("echo", { log: (line) => log.push(line) })],
      async ({ toolCall }) => verdicts[toolCall.id],
    );
    expect(log).toEqual(["echo start c4", "echo end c4"]);
    expect(results.map((r) => [r.toolCallId, r.isError, r.content, r.details])).toEqual([
      ["c1", true, [{ type: "text", text: "The user denied this call." }], { ending: "denied" }],
      ["c2", true, [{ type: "text", text: "The run was stopped before the user answered." }], { ending: "stopped" }],
      ["c3", true, [{ type: "text", text: "This call is already waiting for an answer." }], {}],
      ["c4", false, [{ type: "text", text: "echo:d" }], { text: "echo:d" }],
    ]);
    expect(ran).toEqual(["after c4"]);
  });

  it("a ToolFailure's details and a returned failure's isError reach the result; a plain throw keeps pi's {}", async () => {
    const tools: AgentTool<any>[] = [
      { ...failingTool("chain"), execute: async () => Promise.reject(new ToolFailure("Chain stopped at step 2", { steps: 1 })) },
      { ...failingTool("bash"), execute: async () => toolErrorResult([{ type: "text", text: "(no output)\n\nCommand exited with code 3" }], { exitCode: 3 }) },
      failingTool("boom"),
    ];
    const { results } = await runGuarded(AgentClass, [["chain", {}, "c1"], ["bash", {}, "c2"], ["boom", {}, "c3"]], tools, async () => undefined);
    expect(results.map((r) => [r.toolCallId, r.isError, r.content, r.details])).toEqual([
      ["c1", true, [{ type: "text", text: "Chain stopped at step 2" }], { steps: 1 }],
      ["c2", true, [{ type: "text", text: "(no output)\n\nCommand exited with code 3" }], { exitCode: 3 }],
      ["c3", true, [{ type: "text", text: "boom exploded" }], {}],
    ]);
  });
});

describe("the tool-call guard with a tool it did not wrap", () => {
  it("decides in beforeToolCall, a parked call too, as pi's block: the call never runs", async () => {
    faux.setResponses([calls(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"]), fauxAssistantMessage("done")]);
    const log: string[] = [];
    const guard = new ToolCallGuard(async ({ toolCall }) =>
      toolCall.id === "c1" ? { block: true, reason: "no", ending: "denied" } : { parked: Promise.resolve({ block: true, reason: "later no", ending: "denied" }) },
    );
    const agent = new Agent({
      initialState: { model: faux.getModel(), tools: [echoTool("echo", { log: (line) => log.push(line) })] },
      beforeToolCall: guard.beforeToolCall,
    });
    const results: ToolResultMessage[] = [];
    agent.subscribe((event) => void (event.type === "message_end" && event.message.role === "toolResult" && results.push(event.message)));
    await agent.prompt("go");
    expect(log).toEqual([]);
    expect(results.map((r) => [r.isError, r.content, r.details])).toEqual([
      [true, [{ type: "text", text: "no" }], {}],
      [true, [{ type: "text", text: "later no" }], {}],
    ]);
  });
});

describe("the tool-call guard's records", () => {
  it("are taken once per call, and cleared when a run ends", async () => {
    const guard = new ToolCallGuard(async () => ({ block: true, reason: "no", ending: "denied" }));
    const [tool] = guard.wrap([failingTool("x")]);
    const context = { toolCall: { type: "toolCall" as const, id: "c1", name: "x", arguments: {} }, result: { content: [], details: {} }, isError: true };
    const before = { ...context, assistantMessage: {} as never, args: {}, context: { systemPrompt: "", messages: [], tools: [tool] } };
    expect(await guard.beforeToolCall(before)).toBeUndefined();
    await expect(tool.execute("c1", {})).rejects.toThrow("no");
    expect(guard.restore(context)).toMatchObject({ ran: false, result: { details: { ending: "denied" } } });
    expect(guard.restore(context)).toMatchObject({ ran: true, result: { details: {} } });
    await guard.beforeToolCall(before);
    guard.clear();
    await expect(tool.execute("c1", {})).rejects.toThrow("x exploded");
  });
});
