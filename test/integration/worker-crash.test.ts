/**
 * A worker killed with SIGKILL is noticed, respawned, and restores the transcript and the queued messages from
 * disk; the client reconnects on its own and tells the user why.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, waitForView, type Harness } from "../../testkit/worker-harness";
import { messageText } from "../../testkit/message-text";
import type { BrokerEvent } from "../../src/main/broker/session-broker";
import { isInterruptedReply } from "../../src/shared/agent/unfinished-reply";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function workerPid(sessionId: string): Promise<number> {
  const attachment = await h.broker.attach(sessionId, "probe");
  return attachment.worker.pid!;
}

describe("a worker killed with kill -9", () => {
  it("mid-stream: the respawned worker holds every completed message and queued message", async () => {
    h.server.enqueue({ text: "a reply that will be cut short ".repeat(50), chunkChars: 3, tokensPerSecond: 200 });
    const events: BrokerEvent[] = [];
    h.broker.onEvent((e) => events.push(e));
    const client = await h.client("crash-stream");
    void client.prompt("tell me a story").catch(() => {});
    await waitForView(client, (v) => v.state.streamingMessage?.role === "assistant" && messageText(v.state.streamingMessage).length > 10);
    await client.followUp("queued before the crash");
    const pid = await workerPid("crash-stream");
    const exited = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "worker-exited" && resolve()));
    process.kill(pid, "SIGKILL");
    await exited;
    const journalBefore = readFileSync(join(h.dataDir, "sessions", "crash-stream.jsonl"), "utf8");

    await waitForView(client, (v) => v.notices.some((n) => n.kind === "worker-restarted") && v.connection === "ready");
    const view = client.mirror.getView();
    expect(view.notices.find((n) => n.kind === "worker-restarted")!.text).toMatch(/SIGKILL/);
    expect(view.state.isStreaming).toBe(false);
    // The reply is back as far as it was checkpointed (worker-checkpoints.test.ts measures how far), if at all.
    expect(view.state.messages.map((m) => messageText(m))[0]).toBe("tell me a story");
    expect(view.state.messages.slice(1).every((m) => isInterruptedReply(m))).toBe(true);
    expect(view.followUp.map((m) => messageText(m))).toEqual(["queued before the crash"]);
    expect(events.some((e) => e.type === "worker-exited" && e.reason.includes("SIGKILL"))).toBe(true);
    expect(await workerPid("crash-stream")).not.toBe(pid);
    // The restarted worker put the queue back from the journal without writing it again.
    expect(readFileSync(join(h.dataDir, "sessions", "crash-stream.jsonl"), "utf8")).toBe(journalBefore);
  });

  it("mid-tool: completed messages and the steering queue survive, and the session carries on", async () => {
    h.server.enqueue({ toolCalls: [{ id: "t1", name: "wait", arguments: { seconds: 60 } }] });
    const client = await h.client("crash-tool");
    void client.prompt("wait for it").catch(() => {});
    await waitForView(client, (v) => v.state.pendingToolCalls.has("t1"));
    await client.steer("steer that must survive");
    const pid = await workerPid("crash-tool");
    process.kill(pid, "SIGKILL");

    await waitForView(client, (v) => v.notices.some((n) => n.kind === "worker-restarted") && v.connection === "ready");
    const view = client.mirror.getView();
    expect(view.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(view.steering.map((m) => messageText(m))).toEqual(["steer that must survive"]);

    // The queued steering message drives the next turn.
    h.server.enqueue({ text: "back in business" });
    await client.continue();
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 4);
    expect(client.mirror.getView().state.messages.map((m) => messageText(m)).slice(2)).toEqual(["steer that must survive", "back in business"]);
  });

  it("tells every window viewing the session why its worker restarted", async () => {
    const first = await h.client("crash-two", "window-1");
    const second = await h.client("crash-two", "window-2");
    process.kill(await workerPid("crash-two"), "SIGKILL");
    for (const client of [first, second]) {
      await waitForView(client, (v) => v.connection === "ready" && v.notices.some((n) => n.kind === "worker-restarted"));
      expect(client.mirror.getView().notices.filter((n) => n.kind === "worker-restarted")).toHaveLength(1);
    }
  });
});
