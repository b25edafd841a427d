/**
 * The error banner's headline for each kind of provider failure, from the error text pi-ai really produces: each
 * failure is served by the loopback server and streamed through pi-ai's OpenAI-compatible provider.
 */
import { streamSimple } from "@mariozechner/pi-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customModel, KEYLESS_API_KEY } from "../../../src/shared/providers/custom-provider";
import { explainFailure } from "../../../src/renderer/components/common/explainFailure";
import { INTERRUPTED_REPLY_ERROR } from "../../../src/shared/agent/unfinished-reply";
import { withStallTimeout } from "../../../src/agent-worker/host/stall-timeout";
import { startOpenAIServer, type OpenAITestServer, type ScriptedTurn } from "../../../src/web-host/openai-test-server";

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(async () => {
  await server.close();
});

/** The errorMessage of a reply that fails as `turn` makes it fail, called as the worker calls providers. */
async function failureText(turn: ScriptedTurn, idleMs = 5_000): Promise<string> {
  server.enqueue(turn);
  const model = customModel({ id: "local", name: "Local", baseUrl: server.baseUrl, models: ["m"] }, "m");
  const stream = withStallTimeout(
    (signal) => streamSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: KEYLESS_API_KEY, maxRetries: 0, signal }),
    undefined,
    idleMs,
  );
  for await (const _ of stream) { /* drain */ }
  const message = await stream.result();
  expect(message.stopReason).toBe("error");
  return message.errorMessage ?? "";
}

describe("explainFailure on pi-ai's real error texts", () => {
  it.each([
    [{ error: { status: 401, message: "Incorrect API key provided" } }, "The provider rejected the API key."],
    [{ error: { status: 429, message: "Slow down" } }, "The provider is rate-limiting requests."],
    [{ error: { status: 500, message: "boom" } }, "The provider had a server error."],
    [{ error: { status: 503, message: "Overloaded" } }, "The provider had a server error."],
    [{ text: "partial answer that never ends", chunkChars: 4, dropAfterChunks: 2 }, "The connection to the provider was lost."],
  ] as [ScriptedTurn, string][])("%j reads as %s", async (turn, title) => {
    const text = await failureText(turn);
    expect(explainFailure(text).title, text).toBe(title);
    expect(explainFailure(text).hint).toBeTruthy();
  });

  it("a request that outlives its timeout reads as a timeout", async () => {
    const text = await failureText({ text: "never finishes", chunkChars: 2, hangAfterChunks: 1 }, 300);
    expect(explainFailure(text).title, text).toBe("The request timed out.");
  });

  it("an unknown endpoint port reads as a lost connection", async () => {
    const model = customModel({ id: "gone", name: "Gone", baseUrl: "http://127.0.0.1:9/v1", models: ["m"] }, "m");
    const stream = streamSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: KEYLESS_API_KEY, maxRetries: 0 });
    for await (const _ of stream) { /* drain */ }
    const text = (await stream.result()).errorMessage ?? "";
    expect(explainFailure(text).title, text).toBe("The connection to the provider was lost.");
  });

  it("explains Paddock's own interrupted reply, with what Retry and Continue do", () => {
    expect(explainFailure(INTERRUPTED_REPLY_ERROR)).toEqual({
      title: "The reply was interrupted.",
      detail: "Paddock stopped before it finished.",
      hint: "Retry asks again from your message.",
    });
  });

  it("keeps a generic headline for text it does not recognise", () => {
    expect(explainFailure("Something odd happened")).toEqual({ title: "The last reply failed." });
  });
});
