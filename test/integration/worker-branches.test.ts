/**
 * Message actions and branches in real worker processes, with integrity checks on: Edit and Regenerate keep the old
 * version, switching shows it again as one small event, Delete removes an exchange; a new worker replays the
 * transcript to the same active path and versions; every batch's digest matches the mirror's.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ask, startHarness, waitForIdle as idle, waitForView, type Harness } from "../../testkit/worker-harness";
import { expectMirrorInSync } from "../../testkit/mirror-sync";
import { messageText } from "../../testkit/message-text";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { branchAt } from "../../src/shared/agent/branches";
import { longTranscript } from "../../testkit/transcripts";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const texts = (client: SessionClient) => client.mirror.getView().state.messages.map(messageText);
const versions = (client: SessionClient, at: number) => branchAt(client.mirror.getView().state.branches, at);

async function expectInSync(client: SessionClient): Promise<void> {
  const snapshot = await expectMirrorInSync(client);
  expect(client.mirror.getView().state.branches).toEqual(snapshot.state.branches);
}

async function reopen(client: SessionClient, sessionId: string, viewer: string): Promise<SessionClient> {
  const closed = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "session-closed" && resolve()));
  client.close();
  h.broker.detach(sessionId, viewer);
  await closed;
  return h.client(sessionId, `${viewer}-again`);
}

describe("branches in a real worker", () => {
  it("edit gets a new reply, regenerate another, switching flips versions; a new worker comes back to the same path", async () => {
    const client = await h.client("edit", "w1");
    await ask(client, "first");
    await ask(client, "second");
    expect(texts(client)).toEqual(["first", "first", "second", "second"]);

    await client.editMessage(2, "second, edited");
    await idle(client);
    expect(texts(client)).toEqual(["first", "first", "second, edited", "second, edited"]);
    expect(versions(client, 2)).toEqual({ active: 1, count: 2 });

    h.server.enqueue({ text: "another answer" });
    await client.regenerate();
    await idle(client);
    expect(texts(client)).toEqual(["first", "first", "second, edited", "another answer"]);
    expect(versions(client, 3)).toEqual({ active: 1, count: 2 });

    // The model was sent the edited path only.
    const userTexts = (h.server.requests.at(-1)!.body.messages as { role: string; content: string | { text?: string }[] }[])
      .filter((m) => m.role === "user")
      .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join("")));
    expect(userTexts).toEqual(["first", "second, edited"]);

    const batchesBefore = client.mirror.stats.batches;
    await client.switchBranch(2, 0);
    await waitForView(client, (v) => v.state.messages.length === 4 && messageText(v.state.messages[2]) === "second");
    expect(texts(client)).toEqual(["first", "first", "second", "second"]);
    expect(client.mirror.stats.batches - batchesBefore).toBe(1);
    await expectInSync(client);

    const file = readFileSync(join(h.dataDir, "sessions", "edit.jsonl"), "utf8").trim().split("\n");
    expect(file.filter((l) => JSON.parse(l).t === "branch")).toHaveLength(2);
    expect(file.at(-1)).toBe(JSON.stringify({ t: "switch", at: 2, version: 0 }));

    const again = await reopen(client, "edit", "w1");
    expect(texts(again)).toEqual(["first", "first", "second", "second"]);
    expect(again.mirror.getView().state.branches).toEqual(client.mirror.getView().state.branches);
    // The nested versions (the regenerated reply) came back with their version.
    await again.switchBranch(2, 1);
    await waitForView(again, (v) => messageText(v.state.messages[2]) === "second, edited");
    expect(texts(again)).toEqual(["first", "first", "second, edited", "another answer"]);
    expect(versions(again, 3)).toEqual({ active: 1, count: 2 });
    await expectInSync(again);
  });

  it("delete removes a message with its reply; actions refuse while a run is active, and bad indexes with a reason", async () => {
    const client = await h.client("delete");
    await ask(client, "one");
    await ask(client, "two");
    await ask(client, "three");
    await client.deleteMessage(2);
    await waitForView(client, (v) => v.state.messages.length === 4);
    expect(texts(client)).toEqual(["one", "one", "three", "three"]);

    await expect(client.editMessage(1, "x")).rejects.toThrow(/not a message of yours/);
    await expect(client.switchBranch(0, 1)).rejects.toThrow(/no other versions/);
    await expect(client.deleteMessage(9)).rejects.toThrow(/no message 9/);

    h.server.enqueue({ text: "slow ".repeat(200), tokensPerSecond: 20 });
    const running = client.prompt("four");
    await waitForView(client, (v) => v.state.isStreaming);
    await expect(client.regenerate()).rejects.toThrow(/agent is working/);
    await expect(client.editMessage(0, "y")).rejects.toThrow(/agent is working/);
    await expect(client.deleteMessage(0)).rejects.toThrow(/agent is working/);
    await client.abort();
    await running;
    await idle(client);
    await expectInSync(client);

    const again = await reopen(client, "delete", "viewer-1");
    expect(texts(again).slice(0, 4)).toEqual(["one", "one", "three", "three"]);
  });

  it("a long chat still missing its older history: a branch in what it holds applies; one before it resyncs to the same state", async () => {
    mkdirSync(join(h.dataDir, "sessions"), { recursive: true });
    writeFileSync(join(h.dataDir, "sessions", "long.jsonl"), longTranscript(3_000));
    // History that never loads, so the mirror holds only the newest 20 messages throughout.
    const client = await h.client("long", undefined, { historyTail: 20, afterPaint: () => undefined });
    h.server.enqueue({ text: "a regenerated answer" });
    await client.regenerate();
    await idle(client);
    let view = client.mirror.getView();
    expect(view.historyStart).toBe(2_980);
    expect(messageText(view.state.messages.at(-1)!)).toBe("a regenerated answer");
    expect(versions(client, 2_999)).toEqual({ active: 1, count: 2 });
    expect(client.mirror.stats.resyncs).toBe(0);

    // Deleting an exchange far above what the mirror holds cannot be applied there: it resyncs, and agrees.
    await client.deleteMessage(10);
    await waitForView(client, (v) => v.connection === "ready" && v.historyStart + v.state.messages.length === 2_998);
    expect(client.mirror.stats.resyncs).toBe(1);
    view = client.mirror.getView();
    const full = await client.call((api) => api.getSnapshot());
    expect(full.state.messages).toHaveLength(2_998);
    expect(view.state.messages).toEqual(full.state.messages.slice(view.historyStart));
    expect(view.state.branches).toEqual(full.state.branches);
    expect(versions(client, 2_997)).toEqual({ active: 1, count: 2 });
  });
});
