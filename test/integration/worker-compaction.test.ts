/**
 * Context that never overflows, in real worker processes: the loopback model as a custom endpoint with a 2,000-token
 * window (threshold 1,500, about 800 tokens kept), whose default answer echoes the prompt and which answers
 * summarising requests with a short summary. Integrity checks are on: the mirror equals the worker after every
 * batch, markers included.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ask, startHarness, waitForIdle as idle, waitForView, type Harness } from "../../testkit/worker-harness";
import { expectMirrorInSync } from "../../testkit/mirror-sync";
import { isSummaryRequest, summarisingFallback, tokensOf } from "../../testkit/compaction";
import { messageText } from "../../testkit/message-text";
import type { SessionClient } from "../../src/renderer/store/session-client";
import type { CompactionMessage } from "../../src/shared/agent/compaction";
import { loadTranscript } from "../../src/shared-node/session-files/transcript-store";

const SUMMARY = "## Goal\nEarlier turns A and B, summarised.";
const OVERFLOW = { error: { status: 400, message: "This model's maximum context length is 2000 tokens. However, you requested 2600 tokens." } };

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  // Main resolves models from this list when a worker asks: the loopback endpoint, with a small window.
  h.settings.customProviders[0] = { ...h.settings.customProviders[0], contextWindow: 2_000 };
  h.server.setFallback(summarisingFallback(SUMMARY));
});
afterEach(async () => {
  await h.close();
});

const roles = (client: SessionClient) => client.mirror.getView().state.messages.map((m) => m.role);
const markers = (client: SessionClient) => client.mirror.getView().state.messages.filter((m): m is CompactionMessage => m.role === "compaction");
/** The texts of a chat-completions request's messages. */
const sent = (body: any): string[] =>
  (body.messages as { content: unknown }[]).map((m) => (typeof m.content === "string" ? m.content : (m.content as { text?: string }[]).map((p) => p.text ?? "").join("")));
const modelRequests = () => h.server.requests.filter((r) => !isSummaryRequest(r.body));
const summaryRequests = () => h.server.requests.filter((r) => isSummaryRequest(r.body));

/** Three turns of ~300 tokens each way: the third passes the threshold and compacts the first two. */
async function fillAndCompact(client: SessionClient): Promise<CompactionMessage> {
  await ask(client, tokensOf(300, "A"));
  await ask(client, tokensOf(300, "B"));
  expect(summaryRequests()).toHaveLength(0);
  await ask(client, tokensOf(300, "C"));
  expect(summaryRequests()).toHaveLength(1);
  return markers(client)[0];
}

describe("compaction in a real worker, 2,000-token window", () => {
  it("compacts automatically past the threshold: older turns summarised, the model sent the summary and the rest", async () => {
    const client = await h.client("auto");
    const marker = await fillAndCompact(client);
    expect(roles(client)).toEqual(["user", "assistant", "user", "assistant", "user", "compaction", "assistant"]);
    expect(marker).toMatchObject({ summary: SUMMARY, firstKeptIndex: 2, summarisedMessages: 2, reason: "threshold" });
    expect(marker.tokensBefore).toBeGreaterThan(1_500);
    expect(marker.tokensAfter).toBeLessThan(1_500);
    // The summarising request had the first two turns as text, and nothing newer.
    const summaryText = sent(summaryRequests()[0].body)[1];
    expect(summaryText).toContain(`[User]: ${tokensOf(300, "A")}`);
    expect(summaryText).not.toContain(tokensOf(300, "B"));
    // The model: the summary, then turn B and the prompt C; nothing of turn A.
    const request = sent(modelRequests().at(-1)!.body);
    expect(request[0]).toContain(SUMMARY);
    expect(request.slice(1)).toEqual([tokensOf(300, "B"), tokensOf(300, "B"), tokensOf(300, "C")]);
    // The transcript keeps every message, and the marker as a record of its own.
    const file = readFileSync(join(h.dataDir, "sessions", "auto.jsonl"), "utf8");
    expect(file.split("\n").filter((l) => l.includes('"t":"compaction"'))).toHaveLength(1);
    expect((await loadTranscript(join(h.dataDir, "sessions", "auto.jsonl"))).messages).toEqual(client.mirror.getView().state.messages);
    await expectMirrorInSync(client);
  });

  it("after a restart, sends the same compacted context", async () => {
    const client = await h.client("restart");
    await fillAndCompact(client);
    const pid = (await h.broker.attach("restart", "probe")).worker.pid!;
    const restarted = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "worker-restarted" && resolve()));
    process.kill(pid, "SIGKILL");
    await restarted;
    await waitForView(client, (v) => v.connection === "ready");
    await ask(client, "after the restart");
    const request = sent(modelRequests().at(-1)!.body);
    expect(request[0]).toContain(SUMMARY);
    expect(request.some((t) => t.includes(tokensOf(300, "A")))).toBe(false);
    expect(request.slice(-2)).toEqual([tokensOf(300, "C"), "after the restart"]);
    await expectMirrorInSync(client);
  });

  it("compacts when asked, between runs, and refuses while a run is active", async () => {
    const client = await h.client("manual");
    await ask(client, "first question");
    await ask(client, "second question");
    await client.compact();
    expect(markers(client)).toEqual([expect.objectContaining({ reason: "manual", firstKeptIndex: 2, summarisedMessages: 2 })]);
    await expect(client.compact()).rejects.toThrow(/Already compacted/);
    await ask(client, "third question");
    expect(sent(modelRequests().at(-1)!.body)).toEqual([expect.stringContaining(SUMMARY), "second question", "second question", "third question"]);

    h.server.enqueue({ text: "slow ".repeat(200), tokensPerSecond: 100 });
    const running = client.prompt("a slow one");
    await waitForView(client, (v) => v.state.streamingMessage !== undefined);
    await expect(client.compact()).rejects.toThrow(/The agent is working/);
    await client.abort();
    await running;
    await idle(client);
    await expectMirrorInSync(client);
  });

  it("a provider's overflow error compacts and retries once, and the reply arrives", async () => {
    const client = await h.client("overflow");
    await ask(client, "first question");
    await ask(client, "second question");
    const before = h.server.requests.length;
    h.server.enqueue(OVERFLOW);
    await ask(client, "third question");
    expect(h.server.requests.slice(before).map((r) => (isSummaryRequest(r.body) ? "summary" : "model"))).toEqual(["model", "summary", "model"]);
    expect(roles(client)).toEqual(["user", "assistant", "user", "assistant", "user", "compaction", "assistant"]);
    expect(markers(client)[0]).toMatchObject({ reason: "overflow" });
    const last = client.mirror.getView().state.messages.at(-1)!;
    expect(last).toMatchObject({ role: "assistant", stopReason: "stop" });
    expect(messageText(last)).toBe("third question");
    expect(client.mirror.getView().state.errorMessage).toBeUndefined();
    await expectMirrorInSync(client);
  });

  it("a second overflow fails the reply with a clear message", async () => {
    const client = await h.client("overflow-twice");
    await ask(client, "first question");
    await ask(client, "second question");
    h.server.enqueue(OVERFLOW, { text: SUMMARY }, OVERFLOW);
    await ask(client, "third question");
    const last = client.mirror.getView().state.messages.at(-1)!;
    expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(client.mirror.getView().state.errorMessage).toMatch(
      /^Context overflow: the conversation is too long for this model's context window \(2,000 tokens\) even after summarising earlier messages \(the provider said: 400 This model's maximum context length is 2000 tokens/,
    );
    await expectMirrorInSync(client);
  });

  it("keeps queued steering and follow-up messages through a compaction", async () => {
    const client = await h.client("queues");
    await ask(client, tokensOf(300, "A"));
    await ask(client, tokensOf(300, "B"));
    // The summary takes two seconds: time to queue both kinds while it is written.
    h.server.setFallback(summarisingFallback({ text: SUMMARY, chunkChars: 4, tokensPerSecond: 6 }));
    const run = client.prompt(tokensOf(300, "C"));
    await expect.poll(() => summaryRequests().length, { timeout: 10_000, interval: 20 }).toBe(1);
    await client.steer("a steering message");
    await client.followUp("a follow-up message");
    await waitForView(client, (v) => v.steering.length === 1 && v.followUp.length === 1 && markers(client).length === 0);
    await run;
    await idle(client);
    const messages = client.mirror.getView().state.messages;
    const texts = messages.map((m) => (m.role === "compaction" ? "[compaction]" : messageText(m)));
    // After the marker: the reply to C (an echo), then each queued message and its reply, in order.
    expect(texts.slice(texts.indexOf("[compaction]"))).toEqual([
      "[compaction]",
      tokensOf(300, "C"),
      "a steering message",
      "a steering message",
      "a follow-up message",
      "a follow-up message",
    ]);
    expect(client.mirror.getView().steering).toEqual([]);
    expect(client.mirror.getView().followUp).toEqual([]);
    // Each went to the model, after the summary.
    const steered = modelRequests().find((r) => sent(r.body).at(-1) === "a steering message")!;
    expect(sent(steered.body)[0]).toContain(SUMMARY);
    expect(modelRequests().some((r) => sent(r.body).at(-1) === "a follow-up message")).toBe(true);
    const loaded = await loadTranscript(join(h.dataDir, "sessions", "queues.jsonl"));
    expect(loaded.steering).toEqual([]);
    expect(loaded.followUp).toEqual([]);
    expect(loaded.messages).toEqual(messages);
    await expectMirrorInSync(client);
  });
});
