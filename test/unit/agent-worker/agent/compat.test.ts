/**
 * Compatibility: this file is ordinary pi-agent-core 0.73 usage code (the kind found in pi's README) with only the
 * import path changed. `npm run typecheck` compiles it (tsconfig.node.json includes test/unit/**); the runtime
 * tests below check that it also behaves.
 */
import {
  fauxAssistantMessage,
  fauxToolCall,
  type Message,
} from "@earendil-works/pi-ai";
import { Type } from "typebox";
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
} from "../../../../src/agent-worker/agent/index";
import { useScriptedModel } from "./harness";
import type { CompactionMessage } from "../../../../src/shared/agent/compaction";
import type { FilesRestoredMessage } from "../../../../src/shared/agent/files-restored";
import type { PermissionProfileMessage } from "../../../../src/shared/agent/profile-marker";

// --- Custom messages through declaration merging, as pi documents it. ---
interface NoteMessage {
  role: "note";
  content: string;
  timestamp: number;
}

declare module "../../../../src/agent-worker/agent/index" {
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
    filesRestored: FilesRestoredMessage;
    permissionProfile: PermissionProfileMessage;
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
    if (m.role === "compaction" || m.role === "filesRestored" || m.role === "permissionProfile") return []; // the app's own kinds (see the augmentation above)
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
// pi-agent-core 0.73.1's types are built on its own pi-ai 0.73.1's messages, ours on pi-ai 1.6.0's (system messages,
// new stop reasons and usage fields), so the two cannot be assignable to each other as wholes. What must stay the same
// is the Agent's own API: the names of every field, option, event and parameter, checked here (where ours has more,
// pi-ai 1.6.0's request options and tool fields or our own additions, every one of pi's is still there); the differential test
// checks that the two behave the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Ours has every key pi's has (and may have more: pi-ai 1.6.0's request options and tool fields, our additions). */
type Covers<Ours, Theirs> = [Exclude<keyof Theirs, keyof Ours>] extends [never] ? true : false;
type Arity<F> = F extends (...args: infer P) => unknown ? P["length"] : never;
const sameKeys = {
  context: true as Same<keyof AgentContext, keyof Pi.AgentContext>,
  loopConfig: true as Covers<AgentLoopConfig, Pi.AgentLoopConfig>,
  options: true as Same<Exclude<keyof AgentOptions, "onStateEvent" | "onQueueChange">, keyof Pi.AgentOptions>,
  state: true as Same<keyof AgentState, keyof Pi.AgentState>,
  tool: true as Covers<AgentTool<typeof weatherParameters>, Pi.AgentTool<typeof weatherParameters>>,
  beforeToolCall: true as Same<keyof BeforeToolCallContext, keyof Pi.BeforeToolCallContext>,
  afterToolCallResult: true as Same<keyof AfterToolCallResult, keyof Pi.AfterToolCallResult>,
  stopAfterTurn: true as Same<keyof ShouldStopAfterTurnContext, keyof Pi.ShouldStopAfterTurnContext>,
  events: true as Same<AgentEvent["type"], Pi.AgentEvent["type"]>,
  toolCall: true as Covers<AgentToolCall, Pi.AgentToolCall>,
  messageRoles: true as Same<AgentMessage["role"], Exclude<Pi.AgentMessage["role"], never> | "system">,
  runAgentLoop: true as Same<Arity<typeof runAgentLoop>, Arity<typeof import("@mariozechner/pi-agent-core").runAgentLoop>>,
  agentLoop: true as Same<Arity<typeof agentLoop>, Arity<typeof import("@mariozechner/pi-agent-core").agentLoop>>,
  streamFn: true as Same<Arity<StreamFn>, Arity<Pi.StreamFn>>,
  agent: true as Covers<Agent, Pi.Agent>,
} satisfies Record<string, true>;
const sameThinking: Same<Exclude<ThinkingLevel, "max">, Pi.ThinkingLevel> = true;

describe("compat: pi-agent-core usage code against our exports", () => {
  const faux = useScriptedModel();

  it("matches pi's public types", () => {
    expect(Object.values(sameKeys).every(Boolean)).toBe(true);
    expect(sameThinking).toBe(true);
    expectTypeOf<CustomAgentMessages["note"]>().toEqualTypeOf<NoteMessage>();
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
