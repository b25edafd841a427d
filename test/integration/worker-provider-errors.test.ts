/**
 * Provider failures as a real worker words them (the loopback server answering 429 with Retry-After, dropping a
 * stream, never answering; an endpoint at a closed port), and what the error banner makes of each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForIdle as idle, type Harness } from "../../testkit/worker-harness";
import { explainFailure } from "../../src/renderer/components/common/explainFailure";
import type { SessionClient } from "../../src/renderer/store/session-client";
import type { ScriptedTurn } from "../../src/web-host/openai-test-server";
import { closedPort } from "../../testkit/closed-port";

let h: Harness;
let chats = 0;
let gonePort: number;
beforeAll(async () => {
  // 1 s: the worker's request timeout (Settings allow 5 s at least; the worker takes what main gives it).
  h = await startHarness({ settings: { requestTimeoutMs: 1_000 } });
  gonePort = await closedPort();
  h.settings.customProviders.push({ id: "gone", name: "Gone", baseUrl: `http://127.0.0.1:${gonePort}/v1`, models: ["m"] });
});
afterAll(async () => {
  await h.close();
});

/** The failed reply's error text when the model fails as `turn` says, in a fresh chat. */
async function failure(turn: ScriptedTurn | undefined, prepare?: (client: SessionClient) => Promise<void>): Promise<string> {
  const client = await h.client(`errors-${++chats}`);
  await prepare?.(client);
  if (turn) h.server.enqueue(turn);
  await client.prompt("hello");
  await idle(client);
  const last = client.mirror.getView().state.messages.at(-1);
  expect(last?.role === "assistant" && last.stopReason).toBe("error");
  return client.mirror.getView().state.errorMessage ?? "";
}

describe("provider failures in words, through a real worker", () => {
  it("a 429 with Retry-After: 20 says how long to wait", async () => {
    const text = await failure({ error: { status: 429, message: "Slow down", retryAfterSeconds: 20 } });
    expect(text).toBe("429 Slow down. Retry after 20 s.");
    expect(explainFailure(text)).toEqual({ title: "The provider is rate-limiting requests.", hint: "It asks you to wait 20 seconds, then Retry." });
  });

  it("an endpoint nobody listens at could not be reached, and the text says where", async () => {
    const text = await failure(undefined, (client) => client.setModel({ provider: "custom:gone", id: "m" }));
    expect(text).toBe(`Connection error. (ECONNREFUSED at http://127.0.0.1:${gonePort})`);
    expect(explainFailure(text).title).toBe("Paddock could not reach the provider.");
  });

  it("a stream that drops says so, and that Retry asks again", async () => {
    const text = await failure({ text: "the start of an answer that breaks off", chunkChars: 4, dropAfterChunks: 3 });
    expect(explainFailure(text)).toMatchObject({ title: "The connection dropped in the middle of the reply.", hint: expect.stringMatching(/^Retry asks again/) });
  });

  it("a provider that never answers times out once, after the request timeout", async () => {
    const text = await failure({ hangBeforeHeaders: true });
    expect(text).toBe("Request timed out: no response within 1 s.");
    expect(explainFailure(text)).toMatchObject({ title: "The request timed out after 1 s: the provider did not answer.", detail: "" });
  });

  it("a reply that stops arriving times out as stalled", async () => {
    const text = await failure({ text: "words, then silence", chunkChars: 3, hangAfterChunks: 2 });
    expect(text).toBe("Request timed out: the provider sent nothing for 1 s.");
  });
});
