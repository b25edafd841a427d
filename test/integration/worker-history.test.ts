/**
 * Long chats open with their newest messages and load the rest behind them (`historyTail`), against a real worker.
 * The mirror must end up equal to the worker's whole transcript even when a reply streams, or the chat is reset,
 * while older pages are still on their way.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, waitForIdle, waitForView, type Harness } from "../../testkit/worker-harness";
import { longTranscript } from "../../testkit/transcripts";
import type { SessionClient } from "../../src/renderer/store/session-client";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

function writeLongChat(sessionId: string, messages: number): void {
  const dir = join(h.dataDir, "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${sessionId}.jsonl`), longTranscript(messages));
}

async function expectWholeTranscript(client: SessionClient): Promise<void> {
  const full = await client.call((api) => api.getSnapshot());
  const view = client.mirror.getView();
  expect(view.historyStart).toBe(0);
  expect(view.state.messages).toEqual(full.state.messages);
  expect(client.mirror.stats.digestMismatches).toBe(0);
  expect(client.mirror.stats.resyncs).toBe(0);
}

describe("a long chat in a real worker process", () => {
  it("opens with the newest messages, then loads every older one in order", async () => {
    writeLongChat("long", 5_000);
    const client = await h.client("long", undefined, { historyTail: 50 });
    const opened = client.mirror.getView();
    expect(opened.historyStart).toBe(4_950);
    expect(opened.state.messages).toHaveLength(50);
    expect(opened.state.messages.at(-1)).toMatchObject({ role: "assistant", timestamp: 4_999 });

    await waitForView(client, (v) => v.historyStart === 0);
    await expectWholeTranscript(client);
    expect(client.mirror.getView().state.messages.map((m) => m.timestamp)).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
  });

  it("keeps a reply streamed while the history loads, and checks digests again once it is complete", async () => {
    writeLongChat("busy", 4_000);
    const client = await h.client("busy", undefined, { historyTail: 20 });
    h.server.enqueue({ text: "A reply that streams while older messages load. ".repeat(30), chunkChars: 6, tokensPerSecond: 3000 });
    await client.prompt("Answer while the history loads.");
    await waitForView(client, (v) => v.historyStart === 0 && !v.state.isStreaming);
    await expectWholeTranscript(client);
    expect(client.mirror.getView().state.messages).toHaveLength(4_002);

    const checksBefore = client.mirror.stats.digestChecks;
    h.server.enqueue({ text: "And one more." });
    await client.prompt("Once more.");
    await waitForIdle(client);
    expect(client.mirror.stats.digestChecks).toBeGreaterThan(checksBefore);
    await expectWholeTranscript(client);
  });

  it("drops pages that arrive after a reset: the chat is then empty, as in the worker", async () => {
    writeLongChat("reset", 6_000);
    const client = await h.client("reset", undefined, { historyTail: 10 });
    await waitForView(client, (v) => v.historyStart > 0 && v.historyStart < 5_990); // a page is in; more are coming
    await client.call((api) => api.reset());
    await waitForView(client, (v) => v.state.messages.length === 0 && v.historyStart === 0);
    await new Promise((r) => setTimeout(r, 200)); // any page still on its way lands, and must be refused
    await expectWholeTranscript(client);
    expect(client.mirror.getView().state.messages).toEqual([]);
  });

  it("a Retry drops the failed reply by count: a chat still missing its older history keeps what it has", async () => {
    writeLongChat("retry", 3_000);
    // History that never loads (no paint ever comes), so the mirror holds only the newest 20 messages throughout.
    const client = await h.client("retry", undefined, { historyTail: 20, afterPaint: () => undefined });
    h.server.enqueue({ error: { status: 500, message: "upstream exploded" } });
    await client.prompt("fail once");
    await waitForIdle(client);
    expect(client.mirror.getView().state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
    h.server.enqueue({ text: "second time lucky" });
    await client.continue();
    const view = client.mirror.getView();
    expect(view.historyStart).toBe(2_980);
    const full = await client.call((api) => api.getSnapshot());
    expect(full.state.messages).toHaveLength(3_002);
    expect(view.state.messages).toEqual(full.state.messages.slice(2_980));
    expect(client.mirror.stats.resyncs).toBe(0);
  });

  it("serves no more than a page per request and answers a bad range with an error, not a crash", async () => {
    writeLongChat("pages", 100);
    const client = await h.client("pages");
    await expect(client.call((api) => api.getHistory(0, 10_000))).rejects.toThrow(/at most/);
    await expect(client.call((api) => api.getHistory(-1, 5))).rejects.toThrow();
    expect(await client.call((api) => api.getHistory(90, 200))).toHaveLength(10);
    expect((await client.call((api) => api.getSnapshot(30))).historyStart).toBe(70);
  });
});
