/** The stall guard around provider streams, against pi-ai's real OpenAI-compatible provider and the loopback server. */
import { streamSimple } from "../../../../../src/agent-worker/agent/stream-simple";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withStallTimeout } from "../../../../../src/agent-worker/host/provider/stall-timeout";
import { customModel, KEYLESS_API_KEY } from "../../../../../src/shared/providers/custom-provider";
import { startOpenAIServer, type OpenAITestServer, type ScriptedTurn } from "../../../../../src/web-host/openai-test-server";

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

function guarded(turn: ScriptedTurn, idleMs: number, signal?: AbortSignal) {
  server.enqueue(turn);
  const model = customModel({ id: "local", name: "Local", baseUrl: server.baseUrl, models: ["m"] }, "m");
  return withStallTimeout(
    (s) => streamSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: KEYLESS_API_KEY, maxRetries: 0, signal: s }),
    signal,
    idleMs,
  );
}

describe("withStallTimeout", () => {
  it("ends a reply that stops arriving as a timeout error, keeping the text that came", async () => {
    // 1.5 s: long enough that a loaded machine's slow first answer is not taken for "no response" at all.
    const stream = guarded({ text: "first words and then silence", chunkChars: 6, hangAfterChunks: 2 }, 1_500);
    const message = await stream.result();
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe("Request timed out: the provider sent nothing for 1.5 s.");
    expect(message.content).toEqual([{ type: "text", text: "first words " }]);
  });

  it("lets a slow but steady reply finish: the clock restarts with every event", async () => {
    // One chunk per ~90 ms for ~1.6 s in all: longer than the 1 s guard, each gap far shorter.
    const text = "steady ".repeat(18);
    const message = await guarded({ text, chunkChars: 7, tokensPerSecond: 20 }, 1_000).result();
    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([{ type: "text", text }]);
  });

  it("still reports the user's own abort as aborted", async () => {
    const controller = new AbortController();
    const stream = guarded({ text: "talking until stopped", chunkChars: 4, hangAfterChunks: 1 }, 5_000, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const message = await stream.result();
    expect(message.stopReason).toBe("aborted");
  });
});

describe("withStallTimeout, read event by event as the agent loop reads it", () => {
  it("hands every event on and ends a stalled reply with the timeout error, in the events and in result()", async () => {
    const stream = guarded({ text: "first words and then silence", chunkChars: 6, hangAfterChunks: 2 }, 1_500);
    const types: string[] = [];
    let last: unknown;
    for await (const event of stream) {
      types.push(event.type);
      last = event;
    }
    expect(types.at(-1)).toBe("error");
    expect(last).toMatchObject({ type: "error", reason: "error", error: { stopReason: "error", errorMessage: "Request timed out: the provider sent nothing for 1.5 s." } });
    expect((await stream.result()).errorMessage).toBe("Request timed out: the provider sent nothing for 1.5 s.");
  });
});
