/**
 * A worker lives as long as its work, not as long as a window watches it: real workers, the real broker, a loopback
 * model. Detaching never aborts; re-attaching mid-run catches up with the streaming reply; an idle worker without
 * viewers stops after the grace period; quitting aborts runs and journals them as stopped.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitForView, type Harness, nextEvent } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { messageText } from "../../testkit/message-text";
import { loadTranscript } from "../../src/shared-node/session-files/transcript-store";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { isAlive, workerChildren } from "../../testkit/processes";

const harnesses = harnessPerTest();

const REPLY = Array.from({ length: 1_500 }, (_, i) => `word${i}`).join(" "); // ~13k characters
/** About two seconds of streaming at 2,000 tokens/s. */
const slowReply = () => ({ text: REPLY, chunkChars: 8, tokensPerSecond: 1500 });


/** Resolves with the first broker event that matches. */
const transcript = (harness: Harness, id: string) => loadTranscript(join(harness.dataDir, "sessions", `${id}.jsonl`));
const workerPid = async (harness: Harness, id: string) => {
  const pid = (await harness.broker.attach(id, "probe")).worker.pid!;
  harness.broker.detach(id, "probe");
  return pid;
};

describe("a worker's life follows the work, not the viewers", () => {
  it("the only viewer leaves mid-run: the run completes and the whole reply is in the transcript", async () => {
    const h = await harnesses.start({ idleGraceMs: 0 });
    const client = await h.client("alone", "window-1");
    h.server.enqueue(slowReply());
    void client.prompt("keep going without me").catch(() => {});
    await waitForView(client, (v) => (v.state.streamingMessage ? messageText(v.state.streamingMessage).length > 200 : false));
    const pid = await workerPid(h, "alone");
    const ended = nextEvent(h, (e) => e.type === "activity" && e.sessionId === "alone" && e.activity === "idle");
    const closed = nextEvent(h, (e) => e.type === "session-closed" && e.sessionId === "alone");
    client.close();
    h.broker.detach("alone", "window-1");
    expect(h.broker.activity("alone")).toBe("running");

    expect(await ended).toMatchObject({ outcome: "done" });
    await closed; // idle, nobody watching, grace 0: stopped after the run, not before
    expect(isAlive(pid)).toBe(false);
    const loaded = await transcript(h, "alone");
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messageText(loaded.messages[1])).toBe(REPLY);
    expect((loaded.messages[1] as AssistantMessage).stopReason).toBe("stop");
  });

  it("a viewer arriving mid-run gets the streaming message and follows it to the end, digests checked", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    const first = await h.client("catch-up", "window-1");
    h.server.enqueue(slowReply());
    void first.prompt("stream for two").catch(() => {});
    await waitForView(first, (v) => (v.state.streamingMessage ? messageText(v.state.streamingMessage).length > 500 : false));
    first.close();
    h.broker.detach("catch-up", "window-1");

    const late = await h.client("catch-up", "window-2");
    const atAttach = late.mirror.getView().state;
    expect(atAttach.isStreaming).toBe(true);
    expect(messageText(atAttach.streamingMessage!).length).toBeGreaterThan(500);
    expect(REPLY.startsWith(messageText(atAttach.streamingMessage!))).toBe(true);
    await waitForView(late, (v) => !v.state.isStreaming && v.state.messages.length === 2);
    expect(messageText(late.mirror.getView().state.messages[1])).toBe(REPLY);
    expect(late.mirror.stats.digestChecks).toBeGreaterThan(0);
    expect(late.mirror.stats.digestMismatches).toBe(0);
  });

  it("stops an idle worker without viewers after the grace period, and a viewer returning within it keeps it", async () => {
    const h = await harnesses.start({ idleGraceMs: 700 });
    const client = await h.client("grace", "window-1");
    const pid = await workerPid(h, "grace");
    client.close();
    h.broker.detach("grace", "window-1");
    await new Promise((r) => setTimeout(r, 300));
    const back = await h.client("grace", "window-2"); // within the grace period: the same worker
    expect(await workerPid(h, "grace")).toBe(pid);
    back.close();
    const t0 = Date.now();
    h.broker.detach("grace", "window-2");
    await nextEvent(h, (e) => e.type === "session-closed" && e.sessionId === "grace");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(650);
    expect(isAlive(pid)).toBe(false);
    expect(h.broker.openSessionIds()).not.toContain("grace");

    // Opening the chat again starts a new worker on the same transcript.
    const again = await h.client("grace", "window-3");
    expect(await workerPid(h, "grace")).not.toBe(pid);
    expect(again.mirror.getView().connection).toBe("ready");
  });

  it("a run with follow-ups queued keeps its worker until the last one is answered", async () => {
    const h = await harnesses.start({ idleGraceMs: 0 });
    const client = await h.client("queued", "window-1");
    h.server.enqueue(slowReply(), { text: "first follow-up answered" }, { text: "second follow-up answered" });
    void client.prompt("start").catch(() => {});
    await waitForView(client, (v) => v.state.streamingMessage !== undefined);
    await client.followUp("then this");
    await client.followUp("and this");
    const pid = await workerPid(h, "queued");
    const closed = nextEvent(h, (e) => e.type === "session-closed" && e.sessionId === "queued");
    client.close();
    h.broker.detach("queued", "window-1");
    await closed;
    expect(isAlive(pid)).toBe(false);
    const loaded = await transcript(h, "queued");
    expect(loaded.messages.map(messageText).slice(2)).toEqual(["then this", "first follow-up answered", "and this", "second follow-up answered"]);
    expect(loaded.followUp).toEqual([]);
  });

  it("quitting with runs in progress aborts them and journals each reply as stopped", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    const a = await h.client("quit-a", "window-1");
    const b = await h.client("quit-b", "window-2");
    h.server.setFallback(() => slowReply());
    void a.prompt("run a").catch(() => {});
    void b.prompt("run b").catch(() => {});
    await waitForView(a, (v) => (v.state.streamingMessage ? messageText(v.state.streamingMessage).length > 100 : false));
    await waitForView(b, (v) => (v.state.streamingMessage ? messageText(v.state.streamingMessage).length > 100 : false));
    expect(h.broker.busySessionIds().sort()).toEqual(["quit-a", "quit-b"]);
    const pids = [await workerPid(h, "quit-a"), await workerPid(h, "quit-b")];

    const t0 = Date.now();
    await h.broker.dispose();
    expect(Date.now() - t0).toBeLessThan(5_000);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    for (const id of ["quit-a", "quit-b"]) {
      const loaded = await transcript(h, id);
      expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      const reply = loaded.messages[1] as AssistantMessage;
      expect(reply.stopReason).toBe("aborted");
      expect(messageText(reply).length).toBeGreaterThan(100);
      expect(REPLY.startsWith(messageText(reply))).toBe(true);
    }
  });

  it("a worker that dies with no viewer is not respawned until the chat is opened again", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    const client = await h.client("dead", "window-1");
    h.server.enqueue(slowReply());
    void client.prompt("run").catch(() => {});
    // Past the first checkpoint, so the reply comes back as interrupted.
    await waitForView(client, (v) => (v.state.streamingMessage ? messageText(v.state.streamingMessage).length > 4_000 : false));
    const pid = await workerPid(h, "dead");
    client.close();
    h.broker.detach("dead", "window-1");
    const failed = nextEvent(h, (e) => e.type === "activity" && e.sessionId === "dead");
    const closed = nextEvent(h, (e) => e.type === "session-closed" && e.sessionId === "dead");
    process.kill(pid, "SIGKILL");
    expect(await failed).toMatchObject({ activity: "idle", outcome: "failed" });
    await closed;
    expect(h.broker.openSessionIds()).not.toContain("dead");
    const reopened = await h.client("dead", "window-2");
    expect(reopened.mirror.getView().state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("workers that have work, or will not start", () => {
  it("an idle stop a busy worker refuses leaves it working (main's view lags behind the worker's)", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    const client = await h.client("refuse", "window-1");
    h.server.enqueue(slowReply());
    void client.prompt("keep going").catch(() => {});
    await waitForView(client, (v) => v.state.streamingMessage !== undefined);
    const { worker } = await h.broker.attach("refuse", "probe");
    expect(await worker.stopIfIdle()).toBe("running");
    expect(isAlive(worker.pid!)).toBe(true);
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 2);
    expect(messageText(client.mirror.getView().state.messages[1])).toBe(REPLY);
    expect(await worker.stopIfIdle()).toBe("stopped");
    expect(isAlive(worker.pid!)).toBe(false);
  });

  it("closing a session (a deleted chat) stops its run now, journaled as stopped", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    const client = await h.client("deleted", "window-1");
    h.server.enqueue(slowReply());
    void client.prompt("about to be deleted").catch(() => {});
    await waitForView(client, (v) => (v.state.streamingMessage ? messageText(v.state.streamingMessage).length > 100 : false));
    const pid = await workerPid(h, "deleted");
    await h.broker.close("deleted");
    expect(isAlive(pid)).toBe(false);
    expect(h.broker.busySessionIds()).toEqual([]);
    expect(((await transcript(h, "deleted")).messages[1] as AssistantMessage).stopReason).toBe("aborted");
  });

  it("a worker that cannot open its transcript is killed, and the next attach tries again", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    const before = workerChildren().length;
    mkdirSync(join(h.dataDir, "sessions", "unreadable.jsonl"), { recursive: true }); // a folder where the file goes
    await expect(h.broker.attach("unreadable", "window-1")).rejects.toThrow();
    await expect.poll(() => workerChildren().length, { timeout: 3_000 }).toBe(before);
    rmSync(join(h.dataDir, "sessions", "unreadable.jsonl"), { recursive: true });
    const client = await h.client("unreadable", "window-1");
    expect(client.mirror.getView().connection).toBe("ready");
  });

  it("a worker that dies while watched and whose replacement cannot start leaves the chat to be opened afresh", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    await h.client("respawn", "window-1");
    const pid = await workerPid(h, "respawn");
    const file = join(h.dataDir, "sessions", "respawn.jsonl");
    rmSync(file, { force: true });
    mkdirSync(file); // the replacement cannot open it
    const closedOrFailed = nextEvent(h, (e) => e.type === "worker-exited");
    process.kill(pid, "SIGKILL");
    await closedOrFailed;
    await expect.poll(() => h.broker.openSessionIds().includes("respawn"), { timeout: 5_000 }).toBe(false);
    rmSync(file, { recursive: true });
    const again = await h.client("respawn", "window-2");
    expect(again.mirror.getView().connection).toBe("ready");
  });

  it("ignores Ctrl+C (SIGINT): the terminal sends it to the whole process group, and only the parent ends a worker", async () => {
    const h = await harnesses.start({ idleGraceMs: 60_000 });
    await h.client("sigint", "window-1");
    const pid = await workerPid(h, "sigint");
    process.kill(pid, "SIGINT");
    await new Promise((r) => setTimeout(r, 500));
    expect(isAlive(pid)).toBe(true);
  });
});
