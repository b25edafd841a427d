/**
 * Differential test: every scenario runs through pi's Agent (`@mariozechner/pi-agent-core` 0.73.1, test-only) and
 * through ours, with the same scripted model. Every event (deep-copied when the listener sees it), the state that
 * listener sees, the listener's abort flag, and every note a scenario takes must be identical.
 * Adding a case is adding one entry to `scenarios`.
 */
import * as Reference from "@mariozechner/pi-agent-core";
import {
  fauxAssistantMessage,
  type FauxResponseStep,
  fauxText,
  fauxThinking,
  fauxToolCall,
  type ImageContent,
  type JsonObject,
  type Message,
  type Model,
} from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import * as Ours from "../../../../src/agent-worker/agent/index";
import { streamSimple } from "../../../../src/agent-worker/agent/stream-simple";
import type { AgentEvent, AgentMessage, AgentTool } from "../../../../src/agent-worker/agent/index";
import { delay, echoTool, failingTool, normalise, userMessage, useScriptedModel } from "./harness";
import { ToolFailure } from "../../../../src/shared/agent/tool-failure";

/** The part of the Agent API the scenarios drive; both implementations have it. */
interface AgentUnderTest {
  state: Ours.AgentState;
  steeringMode: "all" | "one-at-a-time";
  followUpMode: "all" | "one-at-a-time";
  subscribe(listener: (event: AgentEvent, signal: AbortSignal) => Promise<void> | void): () => void;
  prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void>;
  continue(): Promise<void>;
  steer(message: AgentMessage): void;
  followUp(message: AgentMessage): void;
  clearSteeringQueue(): void;
  clearFollowUpQueue(): void;
  clearAllQueues(): void;
  hasQueuedMessages(): boolean;
  abort(): void;
  reset(): void;
  waitForIdle(): Promise<void>;
}

interface ScenarioEnv {
  agent: AgentUnderTest;
  model: Model<any>;
  /** Records anything worth comparing (outcomes, hook inputs...). */
  note(value: unknown): void;
  /** True the first time it is called with `key` in this run. */
  once(key: string): boolean;
}

interface Scenario {
  name: string;
  /** What the scripted model answers, in order. */
  responses?: (env: ScenarioEnv) => FauxResponseStep[];
  /** Extra Agent options (hooks, modes). */
  options?: (env: ScenarioEnv) => Partial<Ours.AgentOptions>;
  tools?: (env: ScenarioEnv) => AgentTool<any>[];
  initialMessages?: AgentMessage[];
  thinkingLevel?: Ours.ThinkingLevel;
  /** A listener subscribed after the recording one. */
  onEvent?: (env: ScenarioEnv, event: AgentEvent) => void | Promise<void>;
  run: (env: ScenarioEnv) => Promise<void>;
  /** Sanity checks on our log, so a scenario cannot silently stop exercising what it claims. */
  check?: (log: unknown[]) => void;
}

type AgentConstructor = new (options: Ours.AgentOptions) => AgentUnderTest;

const faux = useScriptedModel();

async function attempt(env: ScenarioEnv, label: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
    env.note(`${label}: ok`);
  } catch (error) {
    env.note(`${label}: threw ${(error as Error).message}`);
  }
}

/** A response step that records what the loop sent to the model, then answers `message`. */
function recordingStep(env: ScenarioEnv, message: ReturnType<typeof fauxAssistantMessage>): FauxResponseStep {
  return (context, options) => {
    const streamOptions = options as (typeof options & { reasoning?: string }) | undefined;
    // pi-ai 1.6 carries the system prompt and the tools in a leading system message.
    const [first, ...rest] = context.messages;
    const system = first?.role === "system" ? first : undefined;
    env.note({
      request: (system ? rest : context.messages).map((m) => m.role),
      systemPrompt: system?.content,
      tools: system?.toolsAdded?.map((t) => t.name),
      reasoning: streamOptions?.reasoning ?? "none",
      apiKey: streamOptions?.apiKey ?? "none",
    });
    return message;
  };
}

const reply = (text: string) => fauxAssistantMessage(text);
const callTools = (...calls: [string, JsonObject, string][]) =>
  fauxAssistantMessage(calls.map(([name, args, id]) => fauxToolCall(name, args, { id })));
const hasEvent = (log: unknown[], predicate: (entry: any) => boolean) =>
  expect(log.some((entry: any) => entry?.event && predicate(entry.event))).toBe(true);
const hasNote = (log: unknown[], note: unknown) => expect(log).toContainEqual({ note });

const scenarios: Scenario[] = [
  {
    name: "plain reply to a string prompt",
    responses: (env) => [recordingStep(env, fauxAssistantMessage([fauxThinking("hmm"), fauxText("Hello there, friend")]))],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("hi")),
  },
  {
    name: "prompt forms: one message, several messages, text with images",
    responses: () => [reply("one"), reply("two"), reply("three")],
    run: async (env) => {
      await attempt(env, "message", () => env.agent.prompt(userMessage("a")));
      await attempt(env, "array", () => env.agent.prompt([userMessage("b"), userMessage("c")]));
      await attempt(env, "images", () =>
        env.agent.prompt("look", [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }]),
      );
    },
  },
  {
    name: "thinking level high is passed as reasoning, api key asked per request",
    thinkingLevel: "high",
    options: (env) => ({
      getApiKey: (provider) => {
        env.note(`key for ${provider}`);
        return "secret";
      },
    }),
    tools: () => [echoTool("echo")],
    responses: (env) => [
      recordingStep(env, callTools(["echo", { text: "x" }, "c1"])),
      recordingStep(env, reply("done")),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "parallel tools: concurrent run, end in completion order, results in call order",
    tools: (env) => [echoTool("slow", { log: env.note }), echoTool("fast", { log: env.note })],
    responses: (env) => [
      callTools(["slow", { text: "s", delayMs: 15 }, "c1"], ["fast", { text: "f", delayMs: 1 }, "c2"]),
      recordingStep(env, reply("both done")),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("run both")),
    check: (log) => hasNote(log, "fast end c2"),
  },
  {
    name: "sequential tool execution from the config",
    options: () => ({ toolExecution: "sequential" }),
    tools: (env) => [echoTool("slow", { log: env.note }), echoTool("fast", { log: env.note })],
    responses: () => [
      callTools(["slow", { text: "s", delayMs: 10 }, "c1"], ["fast", { text: "f", delayMs: 1 }, "c2"]),
      reply("ok"),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("run")),
  },
  {
    name: "a tool marked sequential makes its batch sequential",
    tools: (env) => [
      echoTool("slow", { log: env.note, executionMode: "sequential" }),
      echoTool("fast", { log: env.note }),
    ],
    responses: () => [
      callTools(["slow", { text: "s", delayMs: 10 }, "c1"], ["fast", { text: "f", delayMs: 1 }, "c2"]),
      reply("ok"),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("run")),
  },
  {
    name: "unknown tool, invalid arguments and a throwing tool give error results",
    tools: () => [echoTool("echo"), failingTool("boom")],
    responses: () => [
      callTools(["nope", {}, "c1"], ["echo", { wrong: 1 }, "c2"], ["boom", {}, "c3"], ["echo", { text: "fine" }, "c4"]),
      reply("recovered"),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("try")),
    check: (log) => hasEvent(log, (e) => e.type === "tool_execution_end" && e.toolCallId === "c3" && e.isError),
  },
  {
    name: "prepareArguments repairs arguments before validation",
    tools: () => [
      {
        ...echoTool("echo"),
        prepareArguments: (args: unknown) => ({ text: String((args as { legacy?: string }).legacy ?? "") }),
      } as AgentTool<any>,
    ],
    responses: () => [callTools(["echo", { legacy: "old" }, "c1"]), reply("ok")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("legacy")),
  },
  {
    name: "beforeToolCall blocks with and without a reason",
    tools: (env) => [echoTool("echo", { log: env.note })],
    options: (env) => ({
      beforeToolCall: async (ctx, signal) => {
        env.note({ before: ctx.toolCall.id, args: ctx.args, contextSize: ctx.context.messages.length, signal: !!signal });
        if (ctx.toolCall.id === "c1") return { block: true, reason: "not allowed" };
        if (ctx.toolCall.id === "c2") return { block: true };
        return undefined;
      },
    }),
    responses: () => [
      callTools(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"], ["echo", { text: "c" }, "c3"]),
      reply("ok"),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    // Earlier versions of our loop honoured a block's details and a parked decision (now the session's, in
    // tool-call-guard.ts): whatever else the hook answers, a block's result has details {} and a non-block runs.
    name: "a block's result has details {} whatever else beforeToolCall answers",
    tools: (env) => [echoTool("echo", { log: env.note })],
    options: () => ({
      beforeToolCall: async (ctx) =>
        (ctx.toolCall.id === "c1"
          ? { block: true, reason: "denied", details: { ending: "denied" } }
          : ctx.toolCall.id === "c2"
            ? { parked: Promise.resolve({ block: true, reason: "later" }) }
            : undefined) as Ours.BeforeToolCallResult | undefined,
    }),
    responses: () => [callTools(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"]), reply("ok")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
    check: (log) => {
      hasEvent(log, (e) => e.type === "tool_execution_end" && e.toolCallId === "c1" && e.isError && Object.keys(e.result.details).length === 0);
      hasNote(log, "echo end c2");
    },
  },
  {
    // A ToolFailure keeps its details only through the session's afterToolCall (tool-call-guard.ts); a result that
    // says isError (pi 1.6.0's bash) is a success to pi-agent-core 0.73.1's loop.
    name: "a thrown error's result has details {} whatever the error carries; a returned isError is a success",
    tools: () => [
      { ...failingTool("fails"), execute: async () => Promise.reject(new ToolFailure("failed with details", { saved: "/tmp/out" })) } as AgentTool<any>,
      { ...failingTool("returns"), execute: async () => ({ content: [{ type: "text", text: "exit 3" }], details: { exitCode: 3 }, isError: true }) } as AgentTool<any>,
    ],
    responses: () => [callTools(["fails", {}, "c1"], ["returns", {}, "c2"]), reply("ok")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
    check: (log) => {
      hasEvent(log, (e) => e.type === "tool_execution_end" && e.toolCallId === "c1" && e.isError && Object.keys(e.result.details).length === 0);
      hasEvent(log, (e) => e.type === "tool_execution_end" && e.toolCallId === "c2" && !e.isError);
    },
  },
  {
    name: "afterToolCall overrides content, details, isError and a throwing hook",
    tools: () => [echoTool("echo")],
    options: (env) => ({
      afterToolCall: async (ctx) => {
        env.note({ after: ctx.toolCall.id, result: ctx.result, isError: ctx.isError });
        if (ctx.toolCall.id === "c1") return { content: [{ type: "text", text: "replaced" }] };
        if (ctx.toolCall.id === "c2") return { details: { replaced: true }, isError: true };
        if (ctx.toolCall.id === "c3") throw new Error("after hook broke");
        return undefined;
      },
    }),
    responses: () => [
      callTools(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"], ["echo", { text: "c" }, "c3"], [
        "echo",
        { text: "d" },
        "c4",
      ]),
      reply("ok"),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "a batch whose results all terminate ends the run",
    tools: () => [echoTool("stop", { terminate: true })],
    responses: () => [callTools(["stop", { text: "a" }, "c1"], ["stop", { text: "b" }, "c2"]), reply("never asked")],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("stop"));
      env.note({ pending: faux.getPendingResponseCount() });
    },
    check: (log) => hasNote(log, { pending: 1 }),
  },
  {
    name: "terminate only from afterToolCall on some results does not end the run",
    tools: () => [echoTool("echo")],
    options: () => ({
      afterToolCall: async (ctx) => (ctx.toolCall.id === "c1" ? { terminate: true } : undefined),
    }),
    responses: () => [callTools(["echo", { text: "a" }, "c1"], ["echo", { text: "b" }, "c2"]), reply("continued")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "steering one-at-a-time enters after the tool calls, one per turn",
    tools: () => [echoTool("echo")],
    onEvent: (env, event) => {
      if (event.type === "tool_execution_start" && env.once("steer")) {
        env.agent.steer(userMessage("steer 1"));
        env.agent.steer(userMessage("steer 2"));
      }
    },
    responses: (env) => [
      callTools(["echo", { text: "a", delayMs: 5 }, "c1"]),
      recordingStep(env, reply("after steer 1")),
      recordingStep(env, reply("after steer 2")),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("work")),
  },
  {
    name: "steering all drains both at once; mode switched mid-run",
    onEvent: (env, event) => {
      if (event.type === "message_update" && env.once("steer")) {
        env.agent.steer(userMessage("steer 1"));
        env.agent.steer(userMessage("steer 2"));
        env.agent.steeringMode = "all";
      }
    },
    responses: (env) => [reply("first answer"), recordingStep(env, reply("after steering"))],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("work")),
  },
  {
    name: "follow-ups one-at-a-time wait until the agent would stop",
    tools: () => [echoTool("echo")],
    onEvent: (env, event) => {
      if (event.type === "message_start" && event.message.role === "assistant" && env.once("follow")) {
        env.agent.followUp(userMessage("follow 1"));
        env.agent.followUp(userMessage("follow 2"));
      }
    },
    responses: (env) => [
      callTools(["echo", { text: "a" }, "c1"]),
      recordingStep(env, reply("tool turn done")),
      recordingStep(env, reply("follow 1 done")),
      recordingStep(env, reply("follow 2 done")),
    ],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("work")),
  },
  {
    name: "follow-ups all, with steering taking precedence",
    options: () => ({ followUpMode: "all" }),
    onEvent: (env, event) => {
      if (event.type === "message_update" && env.once("queue")) {
        env.agent.followUp(userMessage("follow 1"));
        env.agent.followUp(userMessage("follow 2"));
        env.agent.steer(userMessage("steer"));
      }
    },
    responses: (env) => [reply("one"), recordingStep(env, reply("two")), recordingStep(env, reply("three"))],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("work")),
  },
  {
    name: "queue clearing and hasQueuedMessages",
    responses: () => [reply("one")],
    run: async (env) => {
      env.agent.steer(userMessage("s"));
      env.agent.followUp(userMessage("f"));
      env.note({ queued: env.agent.hasQueuedMessages() });
      env.agent.clearSteeringQueue();
      env.note({ queued: env.agent.hasQueuedMessages() });
      env.agent.clearFollowUpQueue();
      env.note({ queued: env.agent.hasQueuedMessages() });
      env.agent.followUp(userMessage("f2"));
      env.agent.clearAllQueues();
      env.note({ queued: env.agent.hasQueuedMessages() });
      await attempt(env, "prompt", () => env.agent.prompt("work"));
    },
  },
  {
    name: "continue() from a user message",
    initialMessages: [userMessage("pending question")],
    responses: (env) => [recordingStep(env, reply("answer"))],
    run: (env) => attempt(env, "continue", () => env.agent.continue()),
  },
  {
    name: "continue() from a tool result",
    initialMessages: [userMessage("q")],
    tools: () => [echoTool("echo")],
    responses: () => [callTools(["echo", { text: "a" }, "c1"]), reply("answer")],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      // Drop the final answer so the transcript ends with the tool result.
      env.agent.state.messages = env.agent.state.messages.slice(0, -1);
      faux.appendResponses([recordingStep(env, reply("continued after tool"))]);
      await attempt(env, "continue", () => env.agent.continue());
    },
  },
  {
    name: "continue() from an assistant message runs queued steering, then follow-ups, then throws",
    responses: (env) => [
      reply("first"),
      recordingStep(env, reply("steer a")),
      recordingStep(env, reply("steer b")),
      recordingStep(env, reply("follow")),
    ],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      env.agent.steer(userMessage("steer a"));
      env.agent.steer(userMessage("steer b"));
      env.agent.followUp(userMessage("follow"));
      await attempt(env, "continue with steering", () => env.agent.continue());
      env.agent.steeringMode = "all";
      await attempt(env, "continue with nothing", () => env.agent.continue());
    },
  },
  {
    name: "continue() with only follow-ups queued, and with none",
    responses: (env) => [reply("first"), recordingStep(env, reply("follow"))],
    run: async (env) => {
      await attempt(env, "continue empty", () => env.agent.continue());
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      await attempt(env, "continue from assistant", () => env.agent.continue());
      env.agent.followUp(userMessage("follow"));
      await attempt(env, "continue with follow-up", () => env.agent.continue());
    },
  },
  {
    name: "prompt() and continue() during a run throw",
    onEvent: async (env, event) => {
      if (event.type === "message_update" && env.once("busy")) {
        await attempt(env, "prompt during run", () => env.agent.prompt("again"));
        await attempt(env, "continue during run", () => env.agent.continue());
      }
    },
    responses: () => [reply("long enough answer")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "abort mid-stream keeps the aborted message; the agent is reusable",
    onEvent: (env, event) => {
      if (event.type === "message_update" && env.once("abort")) env.agent.abort();
    },
    responses: () => [reply("this answer will be cut short by the abort"), reply("second run")],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      await attempt(env, "prompt again", () => env.agent.prompt("again"));
    },
    check: (log) => hasEvent(log, (e) => e.type === "message_end" && e.message.stopReason === "aborted"),
  },
  {
    name: "abort mid-tool reaches the running tool",
    tools: (env) => [echoTool("echo", { log: env.note })],
    onEvent: (env, event) => {
      if (event.type === "tool_execution_update" && env.once("abort")) env.agent.abort();
    },
    responses: () => [callTools(["echo", { text: "a", delayMs: 50 }, "c1"]), reply("not streamed")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
    check: (log) => hasEvent(log, (e) => e.type === "tool_execution_end" && e.isError),
  },
  {
    name: "provider error ends the run with the error recorded",
    responses: () => [
      fauxAssistantMessage("partial", { stopReason: "error", errorMessage: "rate limited" }),
      reply("fine again"),
    ],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      await attempt(env, "prompt again", () => env.agent.prompt("retry"));
    },
  },
  {
    name: "no scripted response is a provider error",
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "safety net: a throwing convertToLlm",
    options: () => ({
      convertToLlm: () => {
        throw new Error("convert broke");
      },
    }),
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
    check: (log) => hasEvent(log, (e) => e.type === "agent_end" && e.messages[0]?.errorMessage === "convert broke"),
  },
  {
    name: "safety net: a throwing transformContext after a tool turn",
    tools: () => [echoTool("echo")],
    options: (env) => ({
      transformContext: async (messages) => {
        if (!env.once("first transform")) throw new Error("transform broke");
        return messages;
      },
    }),
    responses: () => [callTools(["echo", { text: "a" }, "c1"])],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "safety net: a throwing listener; the abort flag is kept when aborted",
    onEvent: (env, event) => {
      if (event.type === "turn_end" && env.once("throw")) {
        env.agent.abort();
        throw new Error("listener broke");
      }
    },
    responses: () => [reply("hello")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "safety net: a listener throwing mid-stream clears the streaming message at agent_end",
    onEvent: (env, event) => {
      if (event.type === "message_update" && env.once("throw")) throw new Error("listener broke mid-stream");
    },
    responses: () => [reply("hello there")],
    run: (env) => attempt(env, "prompt", () => env.agent.prompt("go")),
  },
  {
    name: "reset after a run clears transcript, runtime state and queues",
    responses: () => [reply("hello")],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      env.agent.steer(userMessage("s"));
      env.agent.followUp(userMessage("f"));
      env.agent.reset();
      env.note({
        queued: env.agent.hasQueuedMessages(),
        messages: env.agent.state.messages.length,
        model: env.agent.state.model.id,
        systemPrompt: env.agent.state.systemPrompt,
        tools: env.agent.state.tools.length,
      });
    },
  },
  {
    name: "reset during a run",
    tools: () => [echoTool("echo")],
    onEvent: (env, event) => {
      if (event.type === "turn_end" && env.once("reset")) env.agent.reset();
    },
    responses: () => [callTools(["echo", { text: "a" }, "c1"]), reply("after reset")],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      await env.agent.waitForIdle();
    },
  },
  {
    name: "state setters during a run apply to the next run; unsubscribe stops events",
    onEvent: (env, event) => {
      if (event.type === "agent_start" && env.once("set")) {
        env.agent.state.systemPrompt = "changed prompt";
        env.agent.state.tools = [echoTool("late")];
      }
    },
    responses: (env) => [recordingStep(env, reply("one")), recordingStep(env, reply("two"))],
    run: async (env) => {
      await attempt(env, "prompt", () => env.agent.prompt("go"));
      const off = env.agent.subscribe(() => env.note("extra listener"));
      off();
      await attempt(env, "prompt again", () => env.agent.prompt("again"));
    },
  },
  {
    name: "slow agent_end listener keeps the agent streaming until it settles",
    onEvent: async (env, event) => {
      if (event.type === "agent_end") {
        await delay(5);
        env.note({ streamingDuringAgentEnd: env.agent.state.isStreaming });
      }
    },
    responses: () => [reply("hello")],
    run: async (env) => {
      const running = env.agent.prompt("go");
      await env.agent.waitForIdle();
      env.note({ idleAfterWait: !env.agent.state.isStreaming });
      await running;
    },
  },
];

/** Runs one scenario on one implementation and returns everything observed, normalised. */
async function record(AgentClass: AgentConstructor, scenario: Scenario): Promise<unknown[]> {
  const log: unknown[] = [];
  const seen = new Set<string>();
  const model = faux.getModel();
  const env = {} as ScenarioEnv;
  env.model = model;
  env.note = (value) => log.push({ note: normalise(value) });
  env.once = (key) => (seen.has(key) ? false : (seen.add(key), true));
  faux.setResponses(scenario.responses?.(env) ?? []);
  env.agent = new AgentClass({
    initialState: {
      model,
      systemPrompt: "You are scripted.",
      thinkingLevel: scenario.thinkingLevel,
      messages: scenario.initialMessages,
      tools: scenario.tools?.(env),
    },
    // pi-agent-core's default stream function is its own pi-ai 0.73.1's, which knows nothing of the scripted model:
    // both Agents get pi-ai 1.6.0's, explicitly.
    streamFn: streamSimple,
    ...scenario.options?.(env),
  });
  env.agent.subscribe((event, signal) => {
    const state = env.agent.state;
    log.push({
      event: normalise(event),
      aborted: signal.aborted,
      state: normalise({
        messages: state.messages,
        isStreaming: state.isStreaming,
        streamingMessage: state.streamingMessage,
        pendingToolCalls: [...state.pendingToolCalls].sort(),
        errorMessage: state.errorMessage,
      }),
    });
  });
  if (scenario.onEvent) env.agent.subscribe((event) => scenario.onEvent!(env, event));
  await scenario.run(env);
  await env.agent.waitForIdle();
  log.push({
    final: normalise({
      messages: env.agent.state.messages,
      isStreaming: env.agent.state.isStreaming,
      errorMessage: env.agent.state.errorMessage,
      queued: env.agent.hasQueuedMessages(),
      pendingResponses: faux.getPendingResponseCount(),
    }),
  });
  return log;
}

describe("differential: our Agent against pi-agent-core 0.73.1", () => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", async (_name, scenario) => {
    const reference = await record(Reference.Agent as unknown as AgentConstructor, scenario);
    const ours = await record(Ours.Agent as unknown as AgentConstructor, scenario);
    expect(ours.length).toBeGreaterThan(1);
    expect(ours).toStrictEqual(reference);
    scenario.check?.(ours);
  });
});

/** Loop-level scenarios: the same low-level call through pi's loop functions and ours. */
interface LoopScenario {
  name: string;
  responses: () => FauxResponseStep[];
  run: (loop: typeof Ours, config: Ours.AgentLoopConfig, context: Ours.AgentContext, note: (v: unknown) => void) => Promise<unknown>;
  config?: (note: (v: unknown) => void) => Partial<Ours.AgentLoopConfig>;
}

const loopScenarios: LoopScenario[] = [
  {
    name: "shouldStopAfterTurn ends the run after the current turn",
    responses: () => [callTools(["echo", { text: "a" }, "c1"]), reply("never asked")],
    config: (note) => ({
      shouldStopAfterTurn: (ctx) => {
        note({ stopAsked: ctx.message.stopReason, results: ctx.toolResults.length, newMessages: ctx.newMessages.length });
        return true;
      },
    }),
    run: (loop, config, context, note) => loop.runAgentLoop([userMessage("go")], context, config, (e) => note(e)),
  },
  {
    name: "agentLoop as an event stream resolves with the new messages",
    responses: () => [callTools(["echo", { text: "a" }, "c1"]), reply("done")],
    run: async (loop, config, context, note) => {
      const stream = loop.agentLoop([userMessage("go")], context, config);
      for await (const event of stream) note(event.type);
      return stream.result();
    },
  },
  {
    name: "agentLoopContinue from a user message, and its refusals",
    responses: () => [reply("continued")],
    run: async (loop, config, context, note) => {
      for (const messages of [[], [assistantMessageFor()]]) {
        try {
          loop.agentLoopContinue({ ...context, messages }, config);
        } catch (error) {
          note((error as Error).message);
        }
      }
      await loop
        .runAgentLoopContinue({ ...context, messages: [] }, config, () => {})
        .catch((error: Error) => note(`rejected: ${error.message}`));
      return loop.runAgentLoopContinue({ ...context, messages: [userMessage("q")] }, config, (e) => note(e));
    },
  },
];

function assistantMessageFor(): AgentMessage {
  return { ...reply("previous"), timestamp: 1 };
}

/**
 * pi-agent-core's loop functions with pi-ai 1.6.0's stream function as their last argument when the caller passes
 * none (their default is their own pi-ai 0.73.1's, which knows nothing of the scripted model).
 */
function withStreamFn(loop: typeof Ours): typeof Ours {
  const streamFnIndex = { agentLoop: 4, agentLoopContinue: 3, runAgentLoop: 5, runAgentLoopContinue: 4 } as const;
  const wrapped: Record<string, unknown> = { ...loop };
  for (const [name, index] of Object.entries(streamFnIndex)) {
    const original = (loop as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    wrapped[name] = (...args: unknown[]) => {
      const padded = [...args];
      padded.length = Math.max(padded.length, index + 1);
      padded[index] ??= streamSimple;
      return original(...padded);
    };
  }
  return wrapped as unknown as typeof Ours;
}

async function recordLoop(loop: typeof Ours, scenario: LoopScenario): Promise<unknown[]> {
  const log: unknown[] = [];
  const note = (value: unknown) => log.push(normalise(value));
  faux.setResponses(scenario.responses());
  const config: Ours.AgentLoopConfig = {
    model: faux.getModel(),
    convertToLlm: (messages) => messages as Message[],
    ...scenario.config?.(note),
  };
  const context: Ours.AgentContext = { systemPrompt: "loop", messages: [], tools: [echoTool("echo")] };
  note({ result: await scenario.run(loop, config, context, note) });
  return log;
}

describe("differential: our loop functions against pi-agent-core 0.73.1", () => {
  it.each(loopScenarios.map((scenario) => [scenario.name, scenario] as const))("%s", async (_name, scenario) => {
    const reference = await recordLoop(withStreamFn(Reference as unknown as typeof Ours), scenario);
    const ours = await recordLoop(Ours, scenario);
    expect(ours.length).toBeGreaterThan(1);
    expect(ours).toStrictEqual(reference);
  });
});
