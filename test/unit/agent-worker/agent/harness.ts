/**
 * Shared helpers for the Agent tests: a scripted model (pi-ai's faux provider), small tools, and normalisation of
 * recorded events so two runs can be compared.
 */
import {
  type AssistantMessage,
  createFauxCore,
  type FauxProviderRegistration,
  type FauxResponseStep,
  type Model,
  type RegisterFauxProviderOptions,
  type UserMessage,
} from "@earendil-works/pi-ai";
import { Type } from "typebox";
import { afterAll, beforeAll } from "vitest";
import { registerApiStreams } from "../../../../src/agent-worker/agent/stream-simple";
import { Agent, type AgentMessage, type AgentTool, type AgentToolResult } from "../../../../src/agent-worker/agent/index";
import { zeroUsage } from "../../../../src/shared/agent/state";

/**
 * A faux provider that streams one 4-character chunk per timer tick. Timers (not microtasks) make the interleaving
 * of provider, loop and listeners the same on every run, so aborts and steering land at the same event each time.
 */
export function registerScriptedModel(modelIds: string[] = ["scripted-1"]): FauxProviderRegistration {
  return registerFauxModel({
    api: `scripted-${modelIds.join("-")}`,
    provider: "scripted",
    models: modelIds.map((id) => ({ id, reasoning: true })),
    tokenSize: { min: 1, max: 1 },
    tokensPerSecond: 2000,
  });
}

/**
 * pi-ai's faux provider, streaming through our `streamSimple` (stream-simple.ts) until unregistered: what pi-ai's
 * `registerFauxProvider` did in its global API registry, which only its `/compat` entry keeps.
 */
export function registerFauxModel(options: RegisterFauxProviderOptions): FauxProviderRegistration {
  const core = createFauxCore(options);
  const unregister = registerApiStreams(core.api, { stream: core.stream, streamSimple: core.streamSimple });
  return {
    api: core.api,
    models: core.models,
    getModel: core.getModel,
    state: core.state,
    setResponses: (responses) => core.setResponses(responses),
    appendResponses: (responses) => core.appendResponses(responses),
    getPendingResponseCount: () => core.getPendingResponseCount(),
    unregister,
  };
}

/**
 * The scripted model for the enclosing test file or `describe` block: registered before its tests, unregistered
 * after. The returned object stands for the registration and may be used once the tests run.
 */
export function useScriptedModel(modelIds?: string[]): FauxProviderRegistration {
  let registration: FauxProviderRegistration | undefined;
  beforeAll(() => {
    registration = registerScriptedModel(modelIds);
  });
  afterAll(() => registration?.unregister());
  return new Proxy({} as FauxProviderRegistration, {
    get(_, key) {
      if (!registration) throw new Error("The scripted model is only registered while tests run");
      const value: unknown = Reflect.get(registration, key);
      return typeof value === "function" ? value.bind(registration) : value;
    },
  });
}

/** An Agent on the scripted model that answers with `responses`, in order; `options.initialState` adds to the model. */
export function scriptedAgent(
  faux: FauxProviderRegistration,
  responses: FauxResponseStep[],
  options: ConstructorParameters<typeof Agent>[0] = {},
): Agent {
  faux.setResponses(responses);
  return new Agent({ ...options, initialState: { model: faux.getModel(), ...options.initialState } });
}

export function userMessage(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp: 1 };
}

export function assistantText(model: Model<any>, text: string): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: zeroUsage(),
    stopReason: "stop",
    timestamp: 1,
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function textResult(text: string, extra: Partial<AgentToolResult<any>> = {}): AgentToolResult<any> {
  return { content: [{ type: "text", text }], details: { text }, ...extra };
}

const echoParameters = Type.Object({ text: Type.String(), delayMs: Type.Optional(Type.Number()) });

/**
 * A tool that waits `delayMs` (timer), reports one progress update, and echoes `text`. It honours the abort signal
 * by throwing "aborted by signal". `log` sees when it starts and finishes.
 */
export function echoTool(
  name: string,
  options: { log?: (line: string) => void; executionMode?: "sequential" | "parallel"; terminate?: boolean } = {},
): AgentTool<typeof echoParameters> {
  return {
    name,
    label: `Echo ${name}`,
    description: "Echoes its text after a delay",
    parameters: echoParameters,
    executionMode: options.executionMode,
    async execute(toolCallId, params, signal, onUpdate) {
      options.log?.(`${name} start ${toolCallId}`);
      onUpdate?.(textResult(`${params.text}...`));
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new Error("aborted by signal"));
        const timer = setTimeout(resolve, params.delayMs ?? 1);
        signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("aborted by signal"));
        });
      });
      options.log?.(`${name} end ${toolCallId}`);
      return textResult(`echo:${params.text}`, options.terminate ? { terminate: true } : {});
    },
  };
}

/** A tool whose execute always throws. */
export function failingTool(name: string): AgentTool<any> {
  return {
    name,
    label: name,
    description: "Always fails",
    parameters: Type.Object({}),
    async execute() {
      throw new Error(`${name} exploded`);
    },
  };
}

/** Deep copy with every `timestamp` set to 0, so two runs recorded at different times compare equal. */
export function normalise<T>(value: T): T {
  return stripTimestamps(structuredClone(value)) as T;
}

function stripTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) stripTimestamps(item);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "timestamp" && typeof inner === "number") (value as Record<string, unknown>)[key] = 0;
      // pi-ai 1.6.0's streams measure a response's duration onto its final message, when the stream ends: a
      // measurement, and whether a recorded copy was taken before or after it landed depends on timing.
      else if (key === "durationMs" && typeof inner === "number") delete (value as Record<string, unknown>)[key];
      else stripTimestamps(inner);
    }
  }
  return value;
}

export function textOf(message: AgentMessage): string {
  if (!("content" in message) || typeof message.content === "string") return String((message as any).content);
  return message.content.map((block) => ("text" in block ? block.text : `[${block.type}]`)).join("");
}
