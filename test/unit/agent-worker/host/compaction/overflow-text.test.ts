/**
 * Overflow errors as they really arrive: the loopback server's 400, through pi-ai's OpenAI-compatible provider, is
 * what pi-ai calls a context overflow (so the worker compacts and retries); other errors are not. And the text the
 * worker gives a reply that overflowed again reads as what it is.
 */
import { isContextOverflow } from "@earendil-works/pi-ai";
import { streamSimple } from "../../../../../src/agent-worker/agent/stream-simple";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customModel, KEYLESS_API_KEY } from "../../../../../src/shared/providers/custom-provider";
import { startOpenAIServer, type OpenAITestServer, type ScriptedTurn } from "../../../../../src/web-host/openai-test-server";
import { overflowFailure } from "../../../../../src/agent-worker/host/compaction/context-compactor";
import { explainFailure } from "../../../../../src/renderer/components/common/explainFailure";

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

async function failedReply(turn: ScriptedTurn) {
  server.enqueue(turn);
  const model = customModel({ id: "local", name: "Local", baseUrl: server.baseUrl, models: ["m"], contextWindow: 2_000 }, "m");
  const stream = streamSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: KEYLESS_API_KEY, maxRetries: 0 });
  for await (const _ of stream) { /* drain */ }
  return { reply: await stream.result(), model };
}

describe("context overflow errors", () => {
  it.each([
    "This model's maximum context length is 2000 tokens. However, you requested 2600 tokens.",
    "the request exceeds the available context size, try increasing it",
    "Your input exceeds the context window of this model",
  ])("the provider's %j counts as an overflow", async (message) => {
    const { reply, model } = await failedReply({ error: { status: 400, message } });
    expect(reply.stopReason).toBe("error");
    expect(isContextOverflow(reply, model.contextWindow)).toBe(true);
  });

  it("a rate limit or a server error does not", async () => {
    for (const error of [{ status: 429, message: "Too many tokens, slow down: rate limit" }, { status: 500, message: "boom" }]) {
      const { reply, model } = await failedReply({ error });
      expect(isContextOverflow(reply, model.contextWindow)).toBe(false);
    }
  });

  it("the worker's own text, when compacting did not help, says so and what to do", () => {
    const text = overflowFailure(2_000, "even after summarising earlier messages (the provider said: 400 too long)");
    expect(text).toBe(
      "Context overflow: the conversation is too long for this model's context window (2,000 tokens) even after summarising earlier messages (the provider said: 400 too long). Pick a model with a larger context window, or start a new chat.",
    );
    expect(explainFailure(text).title).toBe("The chat no longer fits this model's context window.");
  });
});
