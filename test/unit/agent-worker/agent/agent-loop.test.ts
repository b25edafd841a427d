/** Behaviour j (the loop) of issue 2, plus prepareNextTurn (a model switched mid-run applies from the next turn). */
import {
  type AssistantMessage,
  fauxAssistantMessage,
  type FauxResponseStep,
  fauxToolCall,
  type JsonObject,
  type Message,
  withoutInitialSystemMessage,
} from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import {
  Agent,
  type AgentEvent,
  type AgentLoopConfig,
  type AgentMessage,
  type AgentTool,
  type BeforeToolCallResult,
  runAgentLoop,
} from "../../../../src/agent-worker/agent/index";
import { ToolFailure } from "../../../../src/shared/agent/tool-failure";
import { echoTool, failingTool, userMessage, useScriptedModel } from "./harness";

const faux = useScriptedModel(["model-a", "model-b"]);

function calls(...list: [string, JsonObject, string][]): AssistantMessage {
  return fauxAssistantMessage(list.map(([name, args, id]) => fauxToolCall(name, args, { id })));
}

/** Runs the low-level loop on a prompt and returns its events, compactly described. */
async function runLoop(
  responses: FauxResponseStep[],
  tools: AgentTool<any>[],
  extra: Partial<AgentLoopConfig> = {},
): Promise<{ events: AgentEvent[]; trace: string[] }> {
  faux.setResponses(responses);
  const events: AgentEvent[] = [];
  await runAgentLoop(
    [userMessage("go")],
    { systemPrompt: "", messages: [], tools },
    { model: faux.getModel(), convertToLlm: (m) => m as Message[], ...extra },
    (event) => {
      events.push(event);
    },
  );
  const trace = events
    .filter((e) => e.type !== "message_update")
    .map((e) => {
      if (e.type === "message_start" || e.type === "message_end") return `${e.type} ${e.message.role}`;
      if (e.type.startsWith("tool_execution")) return `${e.type} ${(e as { toolCallId: string }).toolCallId}`;
      return e.type;
    });
  return { events, trace };
}

describe("j. loop", () => {
  it("emits pi's documented order, tool ends in completion order and results in call order", async () => {
    const { trace } = await runLoop(
      [calls(["echo", { text: "slow", delayMs: 20 }, "c1"], ["echo", { text: "fast", delayMs: 1 }, "c2"]), fauxAssistantMessage("done")],
      [echoTool("echo")],
    );
    expect(trace).toEqual([
      "agent_start",
      "turn_start",
      "message_start user",
      "message_end user",
      "message_start assistant",
      "message_end assistant",
      "tool_execution_start c1",
      "tool_execution_start c2",
      "tool_execution_update c1",
      "tool_execution_update c2",
      "tool_execution_end c2",
      "tool_execution_end c1",
      "message_start toolResult",
      "message_end toolResult",
      "message_start toolResult",
      "message_end toolResult",
      "turn_end",
      "turn_start",
      "message_start assistant",
      "message_end assistant",
      "turn_end",
      "agent_end",
    ]);
  });

  it("runs a batch sequentially when a called tool is marked sequential", async () => {
    const { trace } = await runLoop(
      [calls(["slow", { text: "a", delayMs: 10 }, "c1"], ["fast", { text: "b" }, "c2"]), fauxAssistantMessage("done")],
      [echoTool("slow", { executionMode: "sequential" }), echoTool("fast")],
    );
    const tools = trace.filter((t) => t.startsWith("tool_execution") || t.includes("toolResult"));
    expect(tools).toEqual([
      "tool_execution_start c1",
      "tool_execution_update c1",
      "tool_execution_end c1",
      "message_start toolResult",
      "message_end toolResult",
      "tool_execution_start c2",
      "tool_execution_update c2",
      "tool_execution_end c2",
      "message_start toolResult",
      "message_end toolResult",
    ]);
  });

  it("turns unknown tools, invalid arguments and throwing tools into error results", async () => {
    const { events } = await runLoop(
      [calls(["missing", {}, "c1"], ["echo", { wrong: 1 }, "c2"], ["boom", {}, "c3"]), fauxAssistantMessage("ok")],
      [echoTool("echo"), failingTool("boom")],
    );
    const results = events.flatMap((e) => (e.type === "tool_execution_end" ? [[e.toolCallId, e.isError, e.result.content[0].text]] : []));
    expect(results).toContainEqual(["c1", true, "Tool missing not found"]);
    expect(results).toContainEqual(["c3", true, "boom exploded"]);
    const invalid = results.find(([id]) => id === "c2");
    expect(invalid?.[1]).toBe(true);
  });

  it("counts a returned result as a success whatever it carries, as pi-agent-core 0.73.1 (the session's tool-call guard counts pi 1.6.0's isError)", async () => {
    const tool = { ...echoTool("echo"), execute: async () => ({ content: [{ type: "text", text: "killed" }], details: {}, isError: true }) } as AgentTool<any>;
    const { events } = await runLoop([calls(["echo", { text: "x" }, "c1"]), fauxAssistantMessage("ok")], [tool]);
    expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ isError: false, result: { content: [{ text: "killed" }] } });
    const result = events.find((e) => e.type === "message_end" && e.message.role === "toolResult");
    expect(result).toMatchObject({ message: { isError: false, content: [{ text: "killed" }] } });
  });

  it("runs prepareArguments before validation", async () => {
    const tool = { ...echoTool("echo"), prepareArguments: () => ({ text: "fixed" }) } as AgentTool<any>;
    const { events } = await runLoop([calls(["echo", { nonsense: true }, "c1"]), fauxAssistantMessage("ok")], [tool]);
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end).toMatchObject({ isError: false, result: { content: [{ text: "echo:fixed" }] } });
  });

  it("beforeToolCall blocks with its reason; afterToolCall overrides field by field", async () => {
    const { events } = await runLoop(
      [calls(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"]), fauxAssistantMessage("ok")],
      [echoTool("echo")],
      {
        beforeToolCall: async ({ toolCall }) => (toolCall.id === "c1" ? { block: true, reason: "denied" } : undefined),
        afterToolCall: async () => ({ isError: true, details: { overridden: true } }),
      },
    );
    const results = events.flatMap((e) => (e.type === "message_end" && e.message.role === "toolResult" ? [e.message] : []));
    expect(results[0]).toMatchObject({ toolCallId: "c1", isError: true, content: [{ text: "denied" }] });
    expect(results[1]).toMatchObject({
      toolCallId: "c2",
      isError: true,
      content: [{ text: "echo:b" }],
      details: { overridden: true },
    });
  });

  it("a blocked call's result and a thrown error's have details {}, whatever the hook's answer or the error carry (pi's)", async () => {
    const thrower = { ...failingTool("boom"), execute: async () => Promise.reject(new ToolFailure("broke", { kept: true })) } as AgentTool<any>;
    const { events } = await runLoop(
      [calls(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"], ["boom", {}, "c3"]), fauxAssistantMessage("ok")],
      [echoTool("echo"), thrower],
      {
        // What earlier versions of this loop honoured: a block's details, a parked decision. pi ignores both.
        beforeToolCall: async ({ toolCall }) =>
          (toolCall.id === "c1"
            ? { block: true, reason: "no", details: { ending: "denied" } }
            : toolCall.id === "c2"
              ? { parked: Promise.resolve({ block: true, reason: "later no" }) }
              : undefined) as BeforeToolCallResult | undefined,
      },
    );
    const results = events.flatMap((e) => (e.type === "message_end" && e.message.role === "toolResult" ? [e.message] : []));
    expect(results[0]).toMatchObject({ toolCallId: "c1", isError: true, content: [{ text: "no" }] });
    expect(results[0].details).toEqual({});
    expect(results[1]).toMatchObject({ toolCallId: "c2", isError: false, content: [{ text: "echo:b" }] });
    expect(results[2]).toMatchObject({ toolCallId: "c3", isError: true, content: [{ text: "broke" }] });
    expect(results[2].details).toEqual({});
  });

  it("ends the run when every result of a batch terminates, not when only some do", async () => {
    const all = await runLoop([calls(["stop", { text: "a" }, "c1"])], [echoTool("stop", { terminate: true })]);
    expect(all.trace.slice(-2)).toEqual(["turn_end", "agent_end"]);
    const some = await runLoop(
      [calls(["stop", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"]), fauxAssistantMessage("went on")],
      [echoTool("stop", { terminate: true }), echoTool("echo")],
    );
    expect(some.trace.filter((t) => t === "turn_start")).toHaveLength(2);
  });

  it("shouldStopAfterTurn stops before another model call", async () => {
    const { trace } = await runLoop([calls(["echo", { text: "a" }, "c1"]), fauxAssistantMessage("never")], [echoTool("echo")], {
      shouldStopAfterTurn: () => true,
    });
    expect(trace.slice(-2)).toEqual(["turn_end", "agent_end"]);
    expect(faux.getPendingResponseCount()).toBe(1);
  });

  it("asks getApiKey and runs transformContext then convertToLlm before every call", async () => {
    const order: string[] = [];
    await runLoop([calls(["echo", { text: "a" }, "c1"]), fauxAssistantMessage("done")], [echoTool("echo")], {
      transformContext: async (messages) => {
        order.push(`transform ${messages.length}`);
        return messages;
      },
      convertToLlm: (messages) => {
        order.push(`convert ${messages.length}`);
        return messages as Message[];
      },
      getApiKey: (provider) => {
        order.push(`key ${provider}`);
        return "k";
      },
    });
    expect(order).toEqual(["transform 1", "convert 1", "key scripted", "transform 3", "convert 3", "key scripted"]);
  });

  it("prepareNextTurn replaces model, reasoning and context from the next turn on", async () => {
    const seen: { model: string; reasoning: unknown; count: number }[] = [];
    const step: FauxResponseStep = (context, options, _state, model) => {
      seen.push({ model: model.id, reasoning: (options as { reasoning?: unknown }).reasoning, count: withoutInitialSystemMessage(context.messages).length });
      return seen.length === 1 ? calls(["echo", { text: "a" }, "c1"]) : fauxAssistantMessage("done");
    };
    const turns: unknown[] = [];
    await runLoop([step, step], [echoTool("echo")], {
      reasoning: "low",
      prepareNextTurn: async (turn) => {
        turns.push({ message: turn.message.role, results: turn.toolResults.length, newMessages: turn.newMessages.length });
        return { model: faux.getModel("model-b"), reasoning: undefined, context: { ...turn.context, messages: [userMessage("fresh")] } };
      },
    });
    expect(seen).toEqual([
      { model: "model-a", reasoning: "low", count: 1 },
      { model: "model-b", reasoning: undefined, count: 1 },
    ]);
    expect(turns[0]).toEqual({ message: "assistant", results: 1, newMessages: 3 });
  });

  it("the default convertToLlm keeps only user, assistant and toolResult messages", async () => {
    const requests: string[][] = [];
    faux.setResponses([
      (context) => {
        requests.push(withoutInitialSystemMessage(context.messages).map((m) => m.role));
        return fauxAssistantMessage("ok");
      },
    ]);
    const agent = new Agent({ initialState: { model: faux.getModel() } });
    const custom = { role: "ui-banner", text: "hidden", timestamp: 1 } as unknown as AgentMessage;
    agent.state.messages = [custom];
    await agent.prompt("hi");
    expect(requests).toEqual([["user"]]);
    expect(agent.state.messages[0]).toBe(custom);
  });
});

describe("prepareNextTurn in the Agent", () => {
  it("a model switched mid-run applies from the next turn", async () => {
    faux.setResponses([calls(["echo", { text: "a" }, "c1"]), fauxAssistantMessage("from the new model")]);
    const agent = new Agent({ initialState: { model: faux.getModel("model-a"), tools: [echoTool("echo")] } });
    agent.subscribe((event) => {
      if (event.type === "tool_execution_start") {
        agent.state.model = faux.getModel("model-b")!;
        agent.state.thinkingLevel = "medium";
      }
    });
    await agent.prompt("go");
    const assistants = agent.state.messages.filter((m): m is AssistantMessage => m.role === "assistant");
    expect(assistants.map((m) => m.model)).toEqual(["model-a", "model-b"]);
  });
});
