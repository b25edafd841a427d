/**
 * A run that meets a rate limit, a server error or a dropped connection asks again by itself (issue 25), through
 * the core both hosts assemble, real workers and the loopback server: a 429 with Retry-After: 1 then an answer is
 * one reply after one retry; 503s beyond the limit are one error; Stop during the wait ends the run as stopped.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import type { AppEvent } from "../../src/shared/protocol/app-api";
import type { RetryWait } from "../../src/shared/protocol/retry-wait";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { loadTranscript } from "../../src/shared-node/session-files/transcript-store";
import { openWebSocket, waitForView } from "../../testkit/worker-harness";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { messageText } from "../../testkit/message-text";
import type { WorkerStatus } from "../../src/shared/protocol/control-protocol";

let dir: string;
let server: OpenAITestServer;
let core: Core<never>;
const events: AppEvent[] = [];
/** What the workers told main, in order. */
const statuses: WorkerStatus[] = [];
const clients: SessionClient[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-retries-"));
  server = await startOpenAIServer({ models: ["test-model"] });
  core = await createLoopbackCore(dir, server);
  core.service.onEvent((e) => events.push(e));
  core.broker.onEvent((e) => {
    if (e.type === "status") statuses.push(e.status);
  });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await core?.shutdown();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A new chat, viewed as a page views it, and the waits its mirror was shown. */
async function chat(): Promise<{ id: string; client: SessionClient; waits: RetryWait[] }> {
  const { id } = await core.service.createSession();
  const client = new SessionClient(id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(id, "page"))) }));
  clients.push(client);
  await client.start();
  const waits: RetryWait[] = [];
  client.mirror.subscribe(() => {
    const wait = client.mirror.getView().retry;
    if (wait && waits.at(-1) !== wait) waits.push(wait);
  });
  return { id, client, waits };
}

/** The run and its retries are over: nothing streams and no retry waits to start (a page shows the chat at work till then). */
const settled = (client: SessionClient, timeoutMs = 15_000) => waitForView(client, (v) => !v.state.isStreaming && v.retry === undefined, timeoutMs);
const roles = (client: SessionClient) => client.mirror.getView().state.messages.map((m) => `${m.role}${m.role === "assistant" ? `:${m.stopReason}` : ""}`);
/** What main was told of the chat, consecutive repeats merged: "running", then how the run ended. */
/** What main heard of the chat (its status reports arrive on the control channel, apart from the page's events: polled for). */
const told = (id: string) =>
  statuses
    .filter((s) => s.sessionId === id)
    .map((s) => (s.running ? "running" : s.lastRun))
    .filter((s, i, all) => s !== undefined && s !== all[i - 1]);
const transcript = (id: string) => loadTranscript(join(dir, "sessions", `${id}.jsonl`));

describe("automatic retries, through real workers", () => {
  it("a 429 with Retry-After: 1, then an answer: the run succeeds after one retry, with one reply", async () => {
    const { id, client, waits } = await chat();
    const before = server.requests.length;
    server.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 1 } }, { text: "Here is the answer." });
    const started = Date.now();
    await client.prompt("hello");
    await waitForView(client, (v) => v.retry !== undefined);
    expect(client.mirror.getView().state.isStreaming).toBe(true);
    await settled(client);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(waits).toEqual([expect.objectContaining({ reason: "rate-limit", status: 429, attempt: 1, attempts: 3, delayMs: 1_000, error: "429 Slow down. Retry after 1 s." })]);
    expect(client.mirror.getView().retry).toBeUndefined();
    expect(roles(client)).toEqual(["user", "assistant:stop"]);
    expect(messageText(client.mirror.getView().state.messages[1])).toBe("Here is the answer.");
    expect(client.mirror.getView().state.errorMessage).toBeUndefined();
    // The retry asked with the same context: the user's message, no failed reply.
    expect(server.requests.length - before).toBe(2);
    expect(server.requests.at(-1)?.body.messages.map((m: { role: string }) => m.role)).toEqual(["user"]);
    // The transcript agrees, and main heard of one finished run, never of a failed one.
    expect((await transcript(id)).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(events.some((e) => e.type === "attention" && e.sessionId === id && e.reason === "failed")).toBe(false);
    // Main heard of the chat working until the answer, never of it ending in between.
    await expect.poll(() => told(id)).toEqual(["running", "done"]);
  });

  it("503 more times than the limit: one error, after the limit's retries", async () => {
    await core.service.updateSettings({ abort: { retryAttempts: 2 } });
    try {
      const { id, client, waits } = await chat();
      const before = server.requests.length;
      const busy = { error: { status: 503, message: "Service Unavailable", retryAfterSeconds: 0.2 } };
      server.enqueue(busy, busy, busy); // a fourth request would get the echo: it must not be made
      await client.prompt("hello");
      await settled(client);
      expect(server.requests.length - before).toBe(3);
      expect(waits.map((w) => [w.reason, w.status, w.attempt, w.attempts])).toEqual([["server", 503, 1, 2], ["server", 503, 2, 2]]);
      expect(roles(client)).toEqual(["user", "assistant:error"]);
      expect(client.mirror.getView().state.messages[1]).toMatchObject({ errorMessage: "503 Service Unavailable. Retry after 0.2 s. Paddock retried 2 times." });
      expect((await transcript(id)).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      await expect.poll(() => told(id)).toEqual(["running", "failed"]);
    } finally {
      await core.service.updateSettings({ abort: { retryAttempts: 3 } });
    }
  });

  it("a worker killed during the wait leaves the failure in the chat, with Retry, and no wait", async () => {
    const { id, client } = await chat();
    server.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 30 } });
    await client.prompt("hello");
    await waitForView(client, (v) => v.retry !== undefined);
    const { worker } = await core.broker.attach(id, "probe");
    process.kill(worker.pid!, "SIGKILL");
    // The respawned worker's snapshot: the transcript as journaled, no run.
    await waitForView(client, (v) => v.connection === "ready" && !v.state.isStreaming && v.state.messages.length === 2, 15_000);
    const view = client.mirror.getView();
    expect(view.retry).toBeUndefined();
    expect(view.state.isStreaming).toBe(false);
    expect(roles(client)).toEqual(["user", "assistant:error"]);
    expect(view.state.messages[1]).toMatchObject({ errorMessage: "429 Slow down. Retry after 30 s." });
    core.broker.detach(id, "probe");
  });

  it("Stop during the wait ends the run as stopped, at once, without asking again", async () => {
    const { id, client } = await chat();
    const before = server.requests.length;
    server.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 30 } });
    await client.prompt("hello");
    await waitForView(client, (v) => v.retry !== undefined);
    const stoppedAt = Date.now();
    await client.abort();
    await settled(client, 5_000);
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
    expect(client.mirror.getView().retry).toBeUndefined();
    expect(roles(client)).toEqual(["user", "assistant:aborted"]);
    expect(server.requests.length - before).toBe(1);
    expect((await transcript(id)).messages.map((m) => (m.role === "assistant" ? m.stopReason : m.role))).toEqual(["user", "aborted"]);
    await expect.poll(() => told(id)).toEqual(["running", "aborted"]);
  });
});
