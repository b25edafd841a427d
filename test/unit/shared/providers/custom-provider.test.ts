import { type AssistantMessage, type AssistantMessageEvent, type Context } from "@earendil-works/pi-ai";
import { Type } from "typebox";
import { streamSimple } from "../../../../src/agent-worker/agent/stream-simple";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  customModel,
  customProviderId,
  KEYLESS_API_KEY,
  type CustomProvider,
} from "../../../../src/shared/providers/custom-provider";
import { startOpenAIServer, type OpenAITestServer } from "../../../../src/web-host/openai-test-server";

let server: OpenAITestServer;
let provider: CustomProvider;
beforeAll(async () => {
  server = await startOpenAIServer();
  provider = { id: "local", name: "Local", baseUrl: `${server.baseUrl}/`, models: ["paddock-test"] };
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const context = (text: string): Context => ({
  systemPrompt: "be brief",
  messages: [{ role: "user", content: text, timestamp: Date.now() }],
  tools: [{ name: "read", description: "read a file", parameters: Type.Object({ path: Type.String() }) }],
});

/** Streams through pi-ai's real streamSimple; `onEvent` may abort. Returns the events and the final message. */
async function run(text: string, options: { signal?: AbortSignal; onEvent?: (e: AssistantMessageEvent) => void } = {}) {
  const model = customModel(provider, "paddock-test");
  const stream = streamSimple(model, context(text), { apiKey: KEYLESS_API_KEY, maxRetries: 0, signal: options.signal });
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    options.onEvent?.(event);
  }
  const message: AssistantMessage = await stream.result();
  return { events, message };
}

describe("customModel", () => {
  it("builds an openai-completions model for the custom provider", () => {
    const model = customModel({ ...provider, reasoning: true, contextWindow: 8192 }, "qwen3");
    expect(model).toMatchObject({
      id: "qwen3",
      api: "openai-completions",
      provider: "custom:local",
      baseUrl: server.baseUrl,
      reasoning: true,
      contextWindow: 8192,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      compat: { supportsStore: false, supportsDeveloperRole: false, maxTokensField: "max_tokens", supportsReasoningEffort: true },
    });
    expect(model.maxTokens).toBeGreaterThan(0);
    expect(customProviderId(model.provider)).toBe("local");
    expect(customProviderId("openai")).toBeUndefined();
  });

  it("sends a request generic servers accept", async () => {
    server.enqueue({ text: "ok" });
    await run("hi");
    const { body, headers } = server.requests[0];
    expect(body.messages[0]).toEqual({ role: "system", content: "be brief" });
    expect(body).toMatchObject({ model: "paddock-test", stream: true, stream_options: { include_usage: true } });
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(body).not.toHaveProperty("store");
    expect(body).not.toHaveProperty("prompt_cache_retention");
    expect(body.tools[0].function).not.toHaveProperty("strict");
    expect(headers.authorization).toBe(`Bearer ${KEYLESS_API_KEY}`);
  });
});

describe("a custom model streaming through pi-ai against the loopback server", () => {
  it("streams text, thinking and usage", async () => {
    server.enqueue({ reasoning: "let me see", text: "Hello there, world", chunkChars: 5, usage: { prompt_tokens: 11, completion_tokens: 4 } });
    const { events, message } = await run("hi");
    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([
      { type: "thinking", thinking: "let me see", thinkingSignature: "reasoning_content" },
      { type: "text", text: "Hello there, world" },
    ]);
    expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta)).toEqual([
      "Hello",
      " ther",
      "e, wo",
      "rld",
    ]);
    expect(message.usage).toMatchObject({ input: 11, output: 4, totalTokens: 15 });
    expect(message.usage.cost.total).toBe(0);
  });

  it("streams tool calls with parsed arguments and stopReason toolUse", async () => {
    server.enqueue({
      text: "reading",
      toolCalls: [
        { id: "call_a", name: "read", arguments: { path: "/etc/hosts" } },
        { id: "call_b", name: "read", arguments: { path: "/tmp/x" } },
      ],
      chunkChars: 3,
    });
    const { message } = await run("read both");
    expect(message.stopReason).toBe("toolUse");
    expect(message.content.filter((c) => c.type === "toolCall")).toEqual([
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "/etc/hosts" } },
      { type: "toolCall", id: "call_b", name: "read", arguments: { path: "/tmp/x" } },
    ]);
  });

  it("reports finish_reason length as stopReason length", async () => {
    server.enqueue({ text: "trunc", finishReason: "length" });
    expect((await run("hi")).message.stopReason).toBe("length");
  });

  it("turns an HTTP 500 into stopReason error carrying the status and message", async () => {
    server.enqueue({ error: { status: 500, message: "model crashed" } });
    const { events, message } = await run("hi");
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toContain("500");
    expect(message.errorMessage).toContain("model crashed");
    expect(events.at(-1)?.type).toBe("error");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 429 after retry-after when the caller allows retries", async () => {
    server.enqueue({ error: { status: 429, message: "busy", retryAfterSeconds: 0 } }, { text: "second try" });
    const model = customModel(provider, "paddock-test");
    const message = await streamSimple(model, context("hi"), { apiKey: KEYLESS_API_KEY, maxRetries: 1 }).result();
    expect(message.content).toEqual([{ type: "text", text: "second try" }]);
    expect(server.requests).toHaveLength(2);
  });

  it("turns a dropped connection into stopReason error, keeping what arrived", async () => {
    server.enqueue({ text: "partial answer that never ends", chunkChars: 4, dropAfterChunks: 2 });
    const { message } = await run("hi");
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBeTruthy();
    expect(message.content).toEqual([{ type: "text", text: "partial " }]);
  });

  it("turns an abort mid-stream into stopReason aborted", async () => {
    server.enqueue({ text: "first chunk then silence", chunkChars: 6, hangAfterChunks: 1 });
    const controller = new AbortController();
    const { message } = await run("hi", {
      signal: controller.signal,
      onEvent: (e) => e.type === "text_delta" && controller.abort(),
    });
    expect(message.stopReason).toBe("aborted");
    expect(message.content).toEqual([{ type: "text", text: "first " }]);
  });
});
