/**
 * The error banner's words for each kind of provider failure: first from the texts themselves, then from the error
 * text pi-ai really produces, each failure served by the loopback server (or a closed port) and streamed through
 * pi-ai's OpenAI-compatible provider as the worker calls it (stall guard and request notes included).
 */
import { streamSimple } from "../../../../../src/agent-worker/agent/stream-simple";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customModel, KEYLESS_API_KEY } from "../../../../../src/shared/providers/custom-provider";
import { explainFailure } from "../../../../../src/renderer/components/common/explainFailure";
import { INTERRUPTED_REPLY_ERROR } from "../../../../../src/shared/agent/unfinished-reply";
import { withStallTimeout } from "../../../../../src/agent-worker/host/provider/stall-timeout";
import { providerCall } from "../../../../../src/agent-worker/host/provider/provider-call";
import { startOpenAIServer, type OpenAITestServer, type ScriptedTurn } from "../../../../../src/web-host/openai-test-server";
import { closedPort } from "../../../../../testkit/closed-port";

describe("explainFailure, text by text", () => {
  it("a never-reached endpoint says it could not be reached and what to check", () => {
    const refused = explainFailure("Connection error. (ECONNREFUSED at http://127.0.0.1:9)");
    expect(refused.title).toBe("Paddock could not reach the provider.");
    expect(refused.hint).toMatch(/server is running.*address in Settings/);
    expect(refused.detail).toBeUndefined(); // the address stays visible beside the headline

    expect(explainFailure("Connection error. (ENOTFOUND at https://llm.example)").hint).toMatch(/host name was not found.*network/);
    expect(explainFailure("Connection error.")).toMatchObject({
      title: "Paddock could not reach the provider.",
      hint: expect.stringMatching(/address.*server is running.*network/),
    });
    expect(explainFailure("fetch failed").title).toBe("Paddock could not reach the provider.");
  });

  it("a dropped stream says the connection dropped mid-reply and what Retry does", () => {
    for (const text of ["terminated", "read ECONNRESET", "socket hang up", "Provider finish_reason: network_error"]) {
      expect(explainFailure(text), text).toEqual({
        title: "The connection dropped in the middle of the reply.",
        hint: "Retry asks again from your message. If it keeps happening, check your network or the server.",
      });
    }
  });

  it("a 429 says how long to wait when the provider said so, in our note or its own words", () => {
    expect(explainFailure("429 Slow down. Retry after 20 s.")).toEqual({
      title: "The provider is rate-limiting requests.",
      hint: "It asks you to wait 20 seconds, then Retry.",
    });
    expect(explainFailure("429 Rate limit reached for gpt-4o. Please try again in 1.5s.").hint).toBe("It asks you to wait 2 seconds, then Retry.");
    expect(explainFailure("429 Too many requests. Retry after 300 s.").hint).toBe("It asks you to wait about 5 minutes, then Retry.");
    expect(explainFailure("429 Slow down").hint).toBe("Wait a moment, then Retry. If it keeps happening, check your plan's limits.");
  });

  it("a used-up quota is not a rate limit: waiting would not help", () => {
    expect(explainFailure("429 You exceeded your current quota, please check your plan and billing details.").title)
      .toBe("The provider says the account's quota is used up.");
  });

  it("a timeout says after how long, once, and what to try", () => {
    const noAnswer = explainFailure("Request timed out: no response within 30 s.");
    expect(noAnswer.title).toBe("The request timed out after 30 s: the provider did not answer.");
    expect(noAnswer.detail).toBe(""); // the text would only say the headline again
    expect(noAnswer.hint).toMatch(/Settings → Request timeout/);

    const stalled = explainFailure("Request timed out: the provider sent nothing for 5 s.");
    expect(stalled.title).toBe("The request timed out: the provider sent nothing for 5 s.");
    expect(stalled.detail).toBe("");
    expect(stalled.hint).toMatch(/^Retry asks again.*Request timeout/);

    expect(explainFailure("Request timed out.")).toMatchObject({ title: "The request timed out.", detail: "" });
  });

  it("keeps its other headlines", () => {
    expect(explainFailure("401 Incorrect API key provided").title).toBe("The provider rejected the API key.");
    expect(explainFailure("503 Overloaded. Retry after 20 s.").hint).toBe("This is usually temporary: it asks you to wait 20 seconds, then Retry.");
    expect(explainFailure(INTERRUPTED_REPLY_ERROR)).toEqual({
      title: "The reply was interrupted.",
      detail: "Paddock stopped before it finished.",
      hint: "Retry asks again from your message.",
    });
    expect(explainFailure("Something odd happened")).toEqual({ title: "The last reply failed." });
  });
});

describe("explainFailure on pi-ai's real error texts, as the worker makes the call", () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** The errorMessage of a reply from `baseUrl` that fails as `turn` makes it fail. */
  async function failureText(turn: ScriptedTurn | undefined, idleMs = 5_000, baseUrl = server.baseUrl): Promise<string> {
    if (turn) server.enqueue(turn);
    const model = customModel({ id: "local", name: "Local", baseUrl, models: ["m"] }, "m");
    const call = providerCall();
    const stream = withStallTimeout(
      (signal) => call.run(() => streamSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: KEYLESS_API_KEY, maxRetries: 0, signal, timeoutMs: idleMs })),
      undefined,
      idleMs,
      call.explain,
    );
    for await (const _ of stream) { /* drain */ }
    const message = await stream.result();
    expect(message.stopReason).toBe("error");
    return message.errorMessage ?? "";
  }

  it.each([
    [{ error: { status: 401, message: "Incorrect API key provided" } }, "The provider rejected the API key."],
    [{ error: { status: 429, message: "Slow down" } }, "The provider is rate-limiting requests."],
    [{ error: { status: 500, message: "boom" } }, "The provider had a server error."],
    [{ error: { status: 503, message: "Overloaded" } }, "The provider had a server error."],
    [{ text: "partial answer that never ends", chunkChars: 4, dropAfterChunks: 2 }, "The connection dropped in the middle of the reply."],
  ] as [ScriptedTurn, string][])("%j reads as %s", async (turn, title) => {
    const text = await failureText(turn);
    expect(explainFailure(text).title, text).toBe(title);
    expect(explainFailure(text).hint).toBeTruthy();
  });

  it("a 429 with Retry-After: 20 carries the wait into the text, and the banner says it", async () => {
    const text = await failureText({ error: { status: 429, message: "Slow down", retryAfterSeconds: 20 } });
    expect(text).toBe("429 Slow down. Retry after 20 s.");
    expect(explainFailure(text).hint).toBe("It asks you to wait 20 seconds, then Retry.");
  });

  it("a closed port reads as never reached, naming the reason and the address", async () => {
    const port = await closedPort();
    const text = await failureText(undefined, 5_000, `http://127.0.0.1:${port}/v1`);
    expect(text).toBe(`Connection error. (ECONNREFUSED at http://127.0.0.1:${port})`);
    expect(explainFailure(text).hint).toMatch(/Nothing answered at its address/);
  });

  it("a port fetch refuses to use (9, the discard port) says so", async () => {
    const text = await failureText(undefined, 5_000, "http://127.0.0.1:9/v1");
    expect(text).toBe("Connection error. (bad port at http://127.0.0.1:9)");
    expect(explainFailure(text).hint).toMatch(/run the server on another port/);
  });

  it("a provider that never answers times out once, with its seconds", async () => {
    const text = await failureText({ hangBeforeHeaders: true }, 300);
    expect(text).toBe("Request timed out: no response within 0.3 s.");
    expect(explainFailure(text).title).toBe("The request timed out after 0.3 s: the provider did not answer.");
  });

  it("a reply that stops arriving times out as stalled", async () => {
    const text = await failureText({ text: "never finishes", chunkChars: 2, hangAfterChunks: 1 }, 300);
    expect(text).toBe("Request timed out: the provider sent nothing for 0.3 s.");
    expect(explainFailure(text).title).toBe("The request timed out: the provider sent nothing for 0.3 s.");
  });
});
