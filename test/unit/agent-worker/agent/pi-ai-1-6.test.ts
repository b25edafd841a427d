/**
 * What changed under us with pi-ai 1.6.0 (issue 22, section 1), each handled where Paddock meets it: the renamed
 * subpaths, system messages, the "pending" and "deferred" stop reasons, thinking level "max", the new usage fields,
 * and the new error and validation texts, which keep the words the user (and the model) knew.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAssistantMessageEventStream, getSupportedThinkingLevels, type AssistantMessage } from "@earendil-works/pi-ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { streamSimple } from "../../../../src/agent-worker/agent/stream-simple";
import { validateToolArguments } from "../../../../src/agent-worker/agent/tool-validation";
import { withStallTimeout } from "../../../../src/agent-worker/host/provider/stall-timeout";
import { loadTranscript } from "../../../../src/shared-node/session-files/transcript-store";
import { catalogModels } from "../../../../src/main/broker/model-catalog";
import { parseChatExport } from "../../../../src/main/broker/chat-import";
import { zeroUsage } from "../../../../src/shared/agent/state";
import { THINKING_LEVELS } from "../../../../src/shared/agent/types";
import { DEFERRED_REPLY_ERROR, isInterruptedReply, settledReply } from "../../../../src/shared/agent/unfinished-reply";
import { plainProviderText, withoutNetworkDetail } from "../../../../src/shared/error-text";
import { explainFailure } from "../../../../src/renderer/components/common/explainFailure";

const reply = (stopReason: AssistantMessage["stopReason"], text = "half an ans"): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "openai-completions",
  provider: "p",
  model: "m",
  usage: zeroUsage(),
  stopReason,
  timestamp: 1,
});

describe("pi-ai 1.6.0's renamed subpaths", () => {
  it("each API module the worker preloads is an api/* entry with pi's stream functions", async () => {
    for (const api of ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai", "mistral-conversations"]) {
      const module = (await import(`@earendil-works/pi-ai/api/${api}`)) as { stream?: unknown; streamSimple?: unknown };
      expect(typeof module.streamSimple, api).toBe("function");
      expect(typeof module.stream, api).toBe("function");
    }
  });

  it("a model of an API pi-ai does not have ends as an error reply, never a throw", async () => {
    const stream = streamSimple({ ...reply("stop"), id: "m", name: "m", api: "no-such-api", baseUrl: "http://127.0.0.1:9", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1, maxTokens: 1 }, { messages: [] });
    const message = await stream.result();
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("No API provider registered for api: no-such-api");
  });
});

describe('stop reasons "pending" and "deferred"', () => {
  it("a pending reply is an interrupted one, a deferred reply an error that says why; others stay as they are", () => {
    expect(isInterruptedReply(settledReply(reply("pending")))).toBe(true);
    expect(settledReply(reply("deferred"))).toMatchObject({ stopReason: "error", errorMessage: DEFERRED_REPLY_ERROR });
    const done = reply("stop");
    expect(settledReply(done)).toBe(done);
  });

  it("a provider's deferred answer ends the worker's stream as an error event and result", async () => {
    const inner = createAssistantMessageEventStream();
    const deferred = reply("deferred", "");
    inner.push({ type: "start", partial: reply("pending", "") });
    inner.push({ type: "done", reason: "deferred", message: deferred });
    inner.end(deferred);
    const stream = withStallTimeout(() => inner, undefined, 5_000);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(["start", "error"]);
    expect(await stream.result()).toMatchObject({ stopReason: "error", errorMessage: DEFERRED_REPLY_ERROR });
  });

  it("the transcript loader hands stored pending and deferred replies back finished", async () => {
    const dir = await mkdtemp(join(tmpdir(), "paddock-pi16-"));
    try {
      const file = join(dir, "t.jsonl");
      const lines = [{ role: "user", content: "hi", timestamp: 0 }, reply("pending"), { role: "user", content: "again", timestamp: 2 }, reply("deferred")];
      await writeFile(file, lines.map((message) => `${JSON.stringify({ t: "message", message })}\n`).join(""));
      const loaded = await loadTranscript(file);
      expect(loaded.messages.map((m) => (m.role === "assistant" ? m.stopReason : m.role))).toEqual(["user", "error", "user", "error"]);
      expect(isInterruptedReply(loaded.messages[1])).toBe(true);
      expect(loaded.messages[3]).toMatchObject({ errorMessage: DEFERRED_REPLY_ERROR });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the chat export schema takes pi-ai 1.6.0's messages", () => {
  it("accepts the new usage fields, the new stop reasons and system messages", () => {
    const usage = { ...zeroUsage(), cacheWrite1h: 10, reasoning: 5, cost: { ...zeroUsage().cost, totalFromProvider: true } };
    const chat = parseChatExport(
      JSON.stringify({
        format: "paddock-chat",
        version: 1,
        title: "New pi",
        messages: [{ role: "system", content: "Be brief.", timestamp: 0 }, { role: "user", content: "hi", timestamp: 1 }, { ...reply("deferred"), usage }],
      }),
    );
    expect(chat.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(() =>
      parseChatExport(JSON.stringify({ format: "paddock-chat", version: 1, title: "x", messages: [{ ...reply("stop"), usage: { ...usage, reasoning: "lots" } }] })),
    ).toThrow(/reasoning/);
  });
});

describe('thinking level "max"', () => {
  it("is a level settings and the picker know, offered for the models pi-ai says support it", () => {
    expect(THINKING_LEVELS.at(-1)).toBe("max");
    const anthropic = catalogModels("anthropic");
    expect(anthropic.some((m) => getSupportedThinkingLevels(m).includes("max"))).toBe(true);
    expect(anthropic.some((m) => m.reasoning && !getSupportedThinkingLevels(m).includes("max"))).toBe(true);
  });
});

describe("pi-ai 1.6.0's error and validation texts, in the words the user and the model knew", () => {
  it('a 429 whose text carries its JSON body reads "429 <message>" again, and as rate limiting', () => {
    const text = plainProviderText('429: {"message":"Slow down","type":"rate_limit_error","code":null,"param":null}');
    expect(text).toBe("429 Slow down");
    expect(plainProviderText('400: {"error":{"message":"Bad model","type":"invalid_request_error"}}')).toBe("400 Bad model");
    expect(plainProviderText("429: not json")).toBe("429: not json");
    expect(plainProviderText("Something else")).toBe("Something else");
    expect(explainFailure(text).title).toBe("The provider is rate-limiting requests.");
  });

  it('"Connection error.: <detail>" becomes the plain "Connection error." the worker adds the cause to', () => {
    expect(withoutNetworkDetail("Connection error.: connect ECONNREFUSED 127.0.0.1:9")).toBe("Connection error.");
    expect(withoutNetworkDetail("429 Slow down")).toBe("429 Slow down");
  });

  it("a tool call missing an argument fails in pi-agent-core 0.73.1's words, not pi-schema's \"path: missing\"", () => {
    const tool = { name: "echo", parameters: Type.Object({ text: Type.String() }) };
    expect(() => validateToolArguments(tool, { name: "echo", arguments: { wrong: 1 } })).toThrow(
      'Validation failed for tool "echo":\n  - text: must have required properties text\n\nReceived arguments:\n{\n  "wrong": 1\n}',
    );
    expect(validateToolArguments(tool, { name: "echo", arguments: { text: 5 } })).toEqual({ text: "5" });
  });
});
