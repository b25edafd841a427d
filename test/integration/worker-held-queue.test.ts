/**
 * Queued messages after Stop, in a real worker: held in the chat (the strip's "Send now" and "Discard"), never
 * sent by themselves with a later prompt, journaled, and still held when the chat's worker is a new one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, waitForIdle as idle, waitForView, type Harness } from "../../testkit/worker-harness";
import { expectMirrorInSync } from "../../testkit/mirror-sync";
import { messageText } from "../../testkit/message-text";
import type { SessionClient } from "../../src/renderer/store/session-client";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const userTexts = (client: SessionClient) => client.mirror.getView().state.messages.filter((m) => m.role === "user").map((m) => messageText(m));
const heldTexts = (client: SessionClient) => client.mirror.getView().held.map((m) => messageText(m.message));
const journal = (id: string) => readFileSync(join(h.dataDir, "sessions", `${id}.jsonl`), "utf8").trim().split("\n").map((line) => JSON.parse(line));

/** A chat whose reply to "go" streams until stopped, with `queued` follow-ups queued meanwhile, then Stop. */
async function stoppedWithQueued(id: string, ...queued: string[]): Promise<SessionClient> {
  h.server.enqueue({ text: "a reply that goes on and on ".repeat(40), chunkChars: 4, hangAfterChunks: 8 });
  const client = await h.client(id);
  const run = client.prompt("go");
  await waitForView(client, (v) => v.state.streamingMessage !== undefined);
  for (const text of queued) await client.followUp(text);
  await client.abort();
  await run;
  await idle(client);
  return client;
}

describe("queued messages after Stop, in a real worker", () => {
  it("stay held, and the next prompt goes out alone", async () => {
    const client = await stoppedWithQueued("held-next", "queued before Stop");
    await waitForView(client, (v) => v.held.length === 1);
    expect(heldTexts(client)).toEqual(["queued before Stop"]);
    expect(client.mirror.getView().followUp).toEqual([]);

    const before = h.server.requests.length;
    await client.prompt("something unrelated");
    await idle(client);
    expect(h.server.requests.length - before).toBe(1);
    expect(userTexts(client)).toEqual(["go", "something unrelated"]);
    expect(heldTexts(client)).toEqual(["queued before Stop"]);
    const snapshot = await expectMirrorInSync(client);
    expect(snapshot.held?.map((m) => messageText(m.message))).toEqual(["queued before Stop"]);
  });

  it("Send now sends one; Discard drops one; both are journaled", async () => {
    const client = await stoppedWithQueued("held-send", "first held", "second held");
    await waitForView(client, (v) => v.held.length === 2);
    await client.discardHeld(0);
    expect(heldTexts(client)).toEqual(["second held"]);
    await client.sendHeld(0);
    await idle(client);
    expect(userTexts(client)).toEqual(["go", "second held"]);
    expect(client.mirror.getView().held).toEqual([]);
    await expect(client.discardHeld(0)).rejects.toThrow(/no held message at position 0/);

    const queues = journal("held-send").filter((r) => r.t === "queues");
    expect(queues.at(-1)).toEqual({ t: "queues", steering: [], followUp: [] });
    expect(queues.some((r) => r.held?.length === 2)).toBe(true);
  });

  it("are still held when the chat comes back in a new worker", async () => {
    const client = await stoppedWithQueued("held-restart", "survives a restart");
    await waitForView(client, (v) => v.held.length === 1);
    client.close();
    h.broker.detach("held-restart", "viewer-1"); // no viewer and idle: the worker stops
    await waitForStopped("held-restart");

    const again = await h.client("held-restart");
    expect(heldTexts(again)).toEqual(["survives a restart"]);
    await again.prompt("a new question");
    await idle(again);
    expect(userTexts(again)).toEqual(["go", "a new question"]);
    expect(heldTexts(again)).toEqual(["survives a restart"]);
  });
});

async function waitForStopped(id: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (h.broker.openSessionIds().includes(id)) {
    if (Date.now() > end) throw new Error(`the worker of ${id} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
