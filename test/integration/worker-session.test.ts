/**
 * Real worker processes (the built worker under child_process.fork) against the loopback OpenAI-compatible server.
 * Every session runs with integrity checks on: each batch carries the worker's state digest and the mirror checks
 * its own against it, so "no digest mismatch" means the mirror equalled the worker after every batch.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openWebSocket, startHarness, waitForIdle as idle, waitForView, type Harness } from "../../testkit/worker-harness";
import { expectMirrorInSync } from "../../testkit/mirror-sync";
import { messageText } from "../../testkit/message-text";
import { HostUnreachableError, SessionClient } from "../../src/renderer/store/session-client";
import { endpointUrl } from "../../src/main/broker/session-broker";
import type { WebSocketTransport } from "../../src/shared/transport/websocket-transport";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function expectInSync(client: SessionClient): Promise<void> {
  const snapshot = await expectMirrorInSync(client);
  const view = client.mirror.getView();
  expect(view.steering).toEqual(snapshot.steering);
  expect(view.followUp).toEqual(snapshot.followUp);
  expect(view.state.isStreaming).toBe(snapshot.state.isStreaming);
  expect(view.state.errorMessage).toBe(snapshot.state.errorMessage);
}

const roles = (client: SessionClient) => client.mirror.getView().state.messages.map((m) => m.role);

describe("a session in a real worker process", () => {
  it("streams a plain reply into the mirror", async () => {
    const text = "Hello from the loopback model. ".repeat(40);
    h.server.enqueue({ text, chunkChars: 5, tokensPerSecond: 4000 });
    const client = await h.client("plain");
    await client.prompt("hi");
    await idle(client);
    expect(roles(client)).toEqual(["user", "assistant"]);
    expect(messageText(client.mirror.getView().state.messages[1])).toBe(text);
    expect(client.mirror.stats.digestChecks).toBeGreaterThan(3);
    await expectInSync(client);
  });

  it("runs parallel tool calls, including an unknown tool, and keeps results in the assistant's order", async () => {
    h.server.enqueue(
      {
        toolCalls: [
          { id: "c1", name: "wait", arguments: { seconds: 0.3 } },
          { id: "c2", name: "calculate", arguments: { expression: "6 * 7" } },
          { id: "c3", name: "no_such_tool", arguments: {} },
        ],
      },
      { text: "All done." },
    );
    const client = await h.client("tools");
    await client.prompt("use tools");
    await idle(client);
    const messages = client.mirror.getView().state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult", "assistant"]);
    const results = messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => m.toolCallId)).toEqual(["c1", "c2", "c3"]);
    expect(results.map((m) => m.isError)).toEqual([false, false, true]);
    expect(messageText({ role: "user", content: results[1].content, timestamp: 0 })).toContain("42");
    const runs = client.mirror.getView().toolRuns;
    expect(Object.values(runs).map((r) => r.status).sort()).toEqual(["done", "done", "error"]);
    await expectInSync(client);
  });

  it("injects a steering message after the running tool, before the next model call", async () => {
    h.server.enqueue({ toolCalls: [{ id: "w", name: "wait", arguments: { seconds: 0.8 } }] }, { text: "steered reply" });
    const client = await h.client("steer");
    const run = client.prompt("start");
    await waitForView(client, (v) => v.state.pendingToolCalls.has("w"));
    await client.steer("change of plan");
    await waitForView(client, (v) => v.steering.length === 1);
    await run;
    await idle(client);
    expect(roles(client)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
    expect(messageText(client.mirror.getView().state.messages[3])).toBe("change of plan");
    expect(client.mirror.getView().steering).toEqual([]);
    await expectInSync(client);
  });

  it("runs follow-ups only once the agent would stop, one at a time", async () => {
    h.server.enqueue({ text: "first", tokensPerSecond: 50, chunkChars: 2 }, { text: "second" }, { text: "third" });
    const client = await h.client("follow");
    const run = client.prompt("go");
    await waitForView(client, (v) => v.state.isStreaming);
    await client.followUp("and then A");
    await client.followUp("and then B");
    await run;
    await idle(client);
    const texts = client.mirror.getView().state.messages.map((m) => messageText(m));
    expect(texts).toEqual(["go", "first", "and then A", "second", "and then B", "third"]);
    await expectInSync(client);
  });

  it("removes one queued follow-up: the others keep their order, and the journal holds the queue once", async () => {
    h.server.enqueue({ text: "first", tokensPerSecond: 20, chunkChars: 2 }, { text: "second" }, { text: "third" });
    const client = await h.client("remove");
    const run = client.prompt("go");
    await waitForView(client, (v) => v.state.isStreaming);
    for (const text of ["A", "B", "C"]) await client.followUp(text);
    await client.removeQueued("followUp", 1);
    expect(client.mirror.getView().followUp.map((m) => messageText(m))).toEqual(["A", "C"]);
    const journal = readFileSync(join(h.dataDir, "sessions", "remove.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const queueRecords = journal.filter((r) => r.t === "queues");
    expect(queueRecords).toHaveLength(4); // three enqueues and one removal, not a clear plus re-enqueues
    expect(queueRecords.at(-1).followUp.map((m: any) => messageText(m))).toEqual(["A", "C"]);
    await expect(client.removeQueued("followUp", 5)).rejects.toThrow(/no queued followUp message at position 5/);
    await run;
    await idle(client);
    expect(client.mirror.getView().state.messages.map((m) => messageText(m))).toEqual(["go", "first", "A", "second", "C", "third"]);
    await expectInSync(client);
  });

  it("aborts mid-stream: the partial reply stays with stopReason aborted, and the session is reusable", async () => {
    h.server.enqueue({ text: "a long answer that never ends ".repeat(20), chunkChars: 4, hangAfterChunks: 10 }, { text: "fresh" });
    const client = await h.client("abort-stream");
    const run = client.prompt("talk");
    await waitForView(client, (v) => messageText((v.state.streamingMessage ?? { role: "user", content: "", timestamp: 0 }) as never).length > 20);
    await client.abort();
    await run;
    await idle(client);
    const last = client.mirror.getView().state.messages.at(-1)!;
    expect(last.role === "assistant" && last.stopReason).toBe("aborted");
    await client.prompt("again");
    await idle(client);
    expect(messageText(client.mirror.getView().state.messages.at(-1)!)).toBe("fresh");
    await expectInSync(client);
  });

  it("aborts mid-tool: the tool stops and its error result is kept", async () => {
    h.server.enqueue({ toolCalls: [{ id: "long", name: "wait", arguments: { seconds: 60 } }] });
    const client = await h.client("abort-tool");
    const run = client.prompt("wait a minute");
    await waitForView(client, (v) => v.state.pendingToolCalls.has("long"));
    await client.abort();
    await run;
    await idle(client);
    const messages = client.mirror.getView().state.messages;
    const result = messages.find((m) => m.role === "toolResult");
    expect(result && result.role === "toolResult" && result.isError).toBe(true);
    expect(client.mirror.getView().state.pendingToolCalls.size).toBe(0);
    await expectInSync(client);
  });

  it("shows a provider error, then continue() retries from the transcript", async () => {
    h.server.enqueue({ error: { status: 500, message: "upstream exploded" } }, { text: "recovered" });
    const client = await h.client("error");
    await client.prompt("hello");
    await idle(client);
    const view = client.mirror.getView();
    expect(view.state.errorMessage).toMatch(/500|upstream exploded/);
    const failed = view.state.messages.at(-1)!;
    expect(failed.role === "assistant" && failed.stopReason).toBe("error");
    // Retry: the failed reply is dropped and the model answers the same user message again.
    await client.continue();
    await idle(client);
    expect(messageText(client.mirror.getView().state.messages.at(-1)!)).toBe("recovered");
    expect(client.mirror.getView().state.errorMessage).toBeUndefined();
    expect(roles(client)).toEqual(["user", "assistant"]);
    await expectInSync(client);
  });

  it("applies changed queue and tool settings to a live session", async () => {
    const client = await h.client("settings-live");
    Object.assign(h.settings, { steeringMode: "all", followUpMode: "all", toolExecution: "sequential" });
    await h.broker.broadcastSettings(h.settings);
    const snapshot = await client.call((api) => api.getSnapshot());
    expect([snapshot.steeringMode, snapshot.followUpMode, snapshot.toolExecution]).toEqual(["all", "all", "sequential"]);
  });

  it("switches model through main, which resolves it; an unknown one is refused with a reason and changes nothing", async () => {
    const client = await h.client("models");
    await client.setModel({ provider: "custom:loopback", id: "other-model" });
    await client.prompt("which model?");
    await idle(client);
    expect(h.server.requests.at(-1)!.body.model).toBe("other-model");
    await expect(client.setModel({ provider: "custom:nowhere", id: "x" })).rejects.toThrow(/Unknown custom provider "nowhere"/);
    await expect(client.setModel({ provider: "openai", id: "no-such-model" })).rejects.toThrow(/OpenAI no longer offers the model "no-such-model"\. The closest current model is /);
    expect(client.mirror.getView().state.model.id).toBe("other-model");
    // A new worker picks the chat's own model back up (journaled), resolved by main again.
    const closed = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "session-closed" && resolve()));
    client.close();
    h.broker.detach("models", "viewer-1");
    await closed;
    const reopened = await h.client("models", "window-2");
    expect(reopened.mirror.getView().state.model.id).toBe("other-model");
  });
});

describe("a page's connection when the host comes and goes", () => {
  it("a chat opened while the host is away waits for it (offline), then connects by itself", async () => {
    let failures = 2;
    const client = new SessionClient("host-away", async () => {
      if (failures-- > 0) throw new HostUnreachableError();
      return { transport: await openWebSocket(endpointUrl(await h.broker.attach("host-away", "page-1"))) };
    });
    const seen: string[] = [];
    client.mirror.subscribe(() => seen.push(client.mirror.getView().connection));
    await client.start();
    expect(client.mirror.getView().connection).toBe("offline");
    await waitForView(client, (v) => v.connection === "ready");
    expect(seen).toContain("offline");
    client.close();
  });

  it("a connection that arrives after the chat was left is let go at once", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let transport: WebSocketTransport | undefined;
    const client = new SessionClient("left", async () => {
      await held;
      transport = await openWebSocket(endpointUrl(await h.broker.attach("left", "page-1")));
      return { transport };
    });
    const started = client.start();
    client.close();
    release();
    await started;
    expect(transport?.closed).toBe(true);
    expect(client.mirror.getView().connection).toBe("closed");
  });
});
