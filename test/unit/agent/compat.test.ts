/**
 * Compatibility: this file is ordinary pi-agent-core 0.73 usage code (the kind found in pi's README) with only the
 * import path changed. `npm run typecheck` compiles it (tsconfig.node.json includes test/unit/**); the runtime
 * tests below check that it also behaves.
 */
import {
  fauxAssistantMessage,
  fauxToolCall,
  type Message,
  Type,
} from "@mariozechner/pi-ai";
import type * as Pi from "@mariozechner/pi-agent-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  Agent,
  type AfterToolCallContext,
  type AfterToolCallResult,
  type AgentContext,
  type AgentEvent,
  type AgentLoopConfig,
  type AgentMessage,
  type AgentOptions,
  type AgentState,
  type AgentTool,
  type AgentToolCall,
  type AgentToolResult,
  type AgentToolUpdateCallback,
  agentLoop,
  agentLoopContinue,
  type BeforeToolCallContext,
  type BeforeToolCallResult,
  type CustomAgentMessages,
  runAgentLoop,
  runAgentLoopContinue,
  type ShouldStopAfterTurnContext,
  type StreamFn,
  type ThinkingLevel,
  type ToolExecutionMode,
} from "../../../src/agent-worker/agent/index";
import { useScriptedModel } from "./harness";
import type { CompactionMessage } from "../../../src/shared/agent/compaction";

// --- Custom messages through declaration merging, as pi documents it. ---
interface NoteMessage {
  role: "note";
  content: string;
  timestamp: number;
}

declare module "../../../src/agent-worker/agent/index" {
  interface CustomAgentMessages {
    note: NoteMessage;
  }
}

// The same augmentation on pi's module, so the type comparisons below compare like with like; with Paddock's own
// kinds too, which our module carries in every program that compiles src/shared (compaction markers).
declare module "@mariozechner/pi-agent-core" {
  interface CustomAgentMessages {
    note: NoteMessage;
    compaction: CompactionMessage;
  }
}

// --- A tool written the pi way. ---
const weatherParameters = Type.Object({ city: Type.String({ description: "City name" }) });

const weatherTool: AgentTool<typeof weatherParameters, { tempC: number }> = {
  name: "get_weather",
  label: "Weather",
  description: "Current weather for a city",
  parameters: weatherParameters,
  executionMode: "parallel",
  async execute(toolCallId: string, params, signal?: AbortSignal, onUpdate?: AgentToolUpdateCallback<{ tempC: number }>) {
    if (signal?.aborted) throw new Error("aborted");
    onUpdate?.({ content: [{ type: "text", text: `looking up ${params.city}` }], details: { tempC: 0 } });
    const result: AgentToolResult<{ tempC: number }> = {
      content: [{ type: "text", text: `${params.city}: 21C (${toolCallId})` }],
      details: { tempC: 21 },
    };
    return result;
  },
};

function convertToLlm(messages: AgentMessage[]): Message[] {
  return messages.flatMap((m): Message[] => {
    if (m.role === "note") return [{ role: "user", content: `Note: ${m.content}`, timestamp: m.timestamp }];
    if (m.role === "compaction") return []; // the app's own kind (see the augmentation above)
    return [m];
  });
}

const beforeToolCall = async (ctx: BeforeToolCallContext, _signal?: AbortSignal): Promise<BeforeToolCallResult | undefined> =>
  ctx.toolCall.name === "rm" ? { block: true, reason: "no" } : undefined;

const afterToolCall = async (ctx: AfterToolCallContext): Promise<AfterToolCallResult | undefined> =>
  ctx.isError ? { content: [{ type: "text", text: "tool failed, try again" }] } : undefined;

function createAgent(model: AgentState["model"]): Agent {
  const thinkingLevel: ThinkingLevel = "off";
  const toolExecution: ToolExecutionMode = "parallel";
  const options: AgentOptions = {
    initialState: { systemPrompt: "You are helpful.", model, thinkingLevel, tools: [weatherTool], messages: [] },
    convertToLlm,
    transformContext: async (messages, _signal) => messages.slice(-50),
    getApiKey: (_provider) => undefined,
    beforeToolCall,
    afterToolCall,
    steeringMode: "one-at-a-time",
    followUpMode: "all",
    toolExecution,
    transport: "auto",
    sessionId: "session-1",
  };
  return new Agent(options);
}

function describeEvent(event: AgentEvent): string {
  switch (event.type) {
    case "message_update":
      return event.assistantMessageEvent.type === "text_delta" ? `delta ${event.assistantMessageEvent.delta}` : "update";
    case "tool_execution_end":
      return `${event.toolName} ${event.isError ? "failed" : "ok"}`;
    case "turn_end":
      return `turn with ${event.toolResults.length} results`;
    case "agent_end":
      return `end ${event.messages.length}`;
    default:
      return event.type;
  }
}

function lowLevelConfig(model: AgentState["model"]): AgentLoopConfig {
  return {
    model,
    convertToLlm,
    shouldStopAfterTurn: (ctx: ShouldStopAfterTurnContext) => ctx.newMessages.length > 20,
    getSteeringMessages: async () => [],
    getFollowUpMessages: async () => [],
  };
}

// --- Type-level checks against pi's own declarations: each line fails to compile if the shapes drift apart. ---
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function assignable<T>(_value: T): void {}
function typeOnly<T>(): T {
  return undefined as T;
}
/** Never called: compiling it is the check. */
export function piShapesAreAssignableBothWays(): void {
  assignable<Pi.AgentContext>(typeOnly<AgentContext>());
  assignable<AgentContext>(typeOnly<Pi.AgentContext>());
  assignable<Pi.AgentLoopConfig>(typeOnly<AgentLoopConfig>());
  assignable<AgentLoopConfig>(typeOnly<Pi.AgentLoopConfig>());
  assignable<AgentOptions>(typeOnly<Pi.AgentOptions>());
  assignable<Pi.AgentOptions>(typeOnly<Omit<AgentOptions, "onStateEvent" | "onQueueChange">>());
  assignable<Pi.AgentState>(typeOnly<AgentState>());
  assignable<AgentState>(typeOnly<Pi.AgentState>());
  assignable<Pi.AgentTool<typeof weatherParameters>>(typeOnly<AgentTool<typeof weatherParameters>>());
  assignable<AgentTool<typeof weatherParameters>>(typeOnly<Pi.AgentTool<typeof weatherParameters>>());
  assignable<Pi.BeforeToolCallContext>(typeOnly<BeforeToolCallContext>());
  assignable<Pi.AfterToolCallResult>(typeOnly<AfterToolCallResult>());
  assignable<Pi.ShouldStopAfterTurnContext>(typeOnly<ShouldStopAfterTurnContext>());
  assignable<typeof import("@mariozechner/pi-agent-core").runAgentLoop>(runAgentLoop);
  assignable<typeof import("@mariozechner/pi-agent-core").agentLoop>(agentLoop);
  assignable<Pi.Agent["prompt"]>(typeOnly<Agent["prompt"]>());
  assignable<Pi.Agent["subscribe"]>(typeOnly<Agent["subscribe"]>());
  assignable<Pi.Agent["continue"]>(typeOnly<Agent["continue"]>());
}
const sameEvent: Same<AgentEvent, Pi.AgentEvent> = true;
const sameThinking: Same<ThinkingLevel, Pi.ThinkingLevel> = true;
const sameToolCall: Same<AgentToolCall, Pi.AgentToolCall> = true;
const sameStreamFn: Same<StreamFn, Pi.StreamFn> = true;

describe("compat: pi-agent-core usage code against our exports", () => {
  const faux = useScriptedModel();

  it("matches pi's public types", () => {
    expect([sameEvent, sameThinking, sameToolCall, sameStreamFn]).toEqual([true, true, true, true]);
    expectTypeOf<CustomAgentMessages["note"]>().toEqualTypeOf<NoteMessage>();
    expectTypeOf<AgentMessage>().toEqualTypeOf<Pi.AgentMessage>();
    expectTypeOf<ToolExecutionMode>().toEqualTypeOf<Pi.ToolExecutionMode>();
    expectTypeOf(new Agent().state.pendingToolCalls).toEqualTypeOf<ReadonlySet<string>>();
  });

  it("runs the pi-style agent with a custom message and a tool", async () => {
    faux.setResponses([
      fauxAssistantMessage([fauxToolCall("get_weather", { city: "Oslo" }, { id: "w1" })]),
      fauxAssistantMessage("It is 21C in Oslo."),
    ]);
    const agent = createAgent(faux.getModel());
    const seen: string[] = [];
    const unsubscribe = agent.subscribe(async (event, signal) => {
      if (!signal.aborted) seen.push(describeEvent(event));
    });
    agent.state.messages = [{ role: "note", content: "user prefers Celsius", timestamp: 1 }];
    await agent.prompt("Weather in Oslo?");
    unsubscribe();
    expect(seen).toContain("get_weather ok");
    expect(seen.at(-1)).toBe("end 4");
    expect(agent.state.messages[0]).toEqual({ role: "note", content: "user prefers Celsius", timestamp: 1 });
  });

  it("runs the low-level loop functions", async () => {
    faux.setResponses([fauxAssistantMessage("hello"), fauxAssistantMessage("again")]);
    const context: AgentContext = { systemPrompt: "", messages: [], tools: [weatherTool] };
    const config = lowLevelConfig(faux.getModel());
    const stream = agentLoop([{ role: "user", content: "hi", timestamp: 1 }], context, config);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const newMessages = await stream.result();
    expect(types[0]).toBe("agent_start");
    expect(newMessages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const continued = await runAgentLoopContinue({ ...context, messages: [newMessages[0]] }, config, () => {});
    expect(continued).toHaveLength(1);
    expect(() => agentLoopContinue({ ...context, messages: [] }, config)).toThrow("Cannot continue");
  });
});
