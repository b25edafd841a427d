/**
 * The core both hosts assemble (`createCore`), with real workers: what main pushes to pages as chats change (activity,
 * unread, attention), and the data layout both hosts share.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import type { AppEvent } from "../../src/shared/protocol/app-api";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { openWebSocket, waitForIdle, waitForView } from "../../testkit/worker-harness";
import { createLoopbackCore } from "../../testkit/loopback-core";

let dir: string;
let server: OpenAITestServer;
let core: Core<never> | undefined;
const clients: SessionClient[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-core-"));
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterEach(async () => {
  for (const c of clients) c.close();
  clients.length = 0;
  await core?.shutdown();
  core = undefined;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<{ core: Core<never>; events: AppEvent[] }> {
  const started: Core<never> = await createLoopbackCore(dir, server);
  core = started;
  const events: AppEvent[] = [];
  started.service.onEvent((e) => events.push(e));
  return { core: started, events };
}

/** A page viewing the chat as `viewerId`, connected over the worker's WebSocket as the browser host's pages are. */
async function view(c: Core<never>, sessionId: string, viewerId: string): Promise<SessionClient> {
  const client = new SessionClient(sessionId, async () => {
    // As both hosts do: a deleted chat is not attached to.
    if (!c.index.isLive(sessionId)) throw new Error("No such chat");
    return { transport: await openWebSocket(endpointUrl(await c.broker.attach(sessionId, viewerId))) };
  });
  clients.push(client);
  await client.start();
  return client;
}

const until = async (check: () => boolean, timeoutMs = 15_000) => {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("what main pushes as chats change", () => {
  it("a run that finishes while nobody watches: working, then unread with an attention event; opening the chat reads it", async () => {
    const { core: c, events } = await start();
    const chat = await c.service.createSession();
    const client = await view(c, chat.id, "window-1");
    server.enqueue({ text: "done in the background ".repeat(40), chunkChars: 8, tokensPerSecond: 800 });
    void client.prompt("work while I look elsewhere").catch(() => {});
    await until(() => events.some((e) => e.type === "session" && e.session.id === chat.id && e.session.activity === "running"));
    client.close();
    c.broker.detach(chat.id, "window-1"); // the user switched to another chat

    await until(() => events.some((e) => e.type === "attention"));
    expect(events.find((e) => e.type === "attention")).toEqual({ type: "attention", sessionId: chat.id, title: "work while I look elsewhere", reason: "done" });
    const last = events.filter((e) => e.type === "session").at(-1);
    expect(last).toMatchObject({ session: { id: chat.id, unread: "done", messageCount: 2 } });
    expect(last && "session" in last ? last.session.activity : "x").toBeUndefined();
    expect((await c.service.listSessions())[0]).toMatchObject({ unread: "done" });

    await view(c, chat.id, "window-1");
    await until(() => !(c.index.get(chat.id)?.unread));
    expect(events.at(-1)).toMatchObject({ type: "session", session: { id: chat.id } });
    expect((events.at(-1) as Extract<AppEvent, { type: "session" }>).session.unread).toBeUndefined();
  });

  it("a run that fails unwatched leaves the chat unread as failed; one watched to the end stays read", async () => {
    const { core: c, events } = await start();
    const watched = await c.service.createSession();
    const client = await view(c, watched.id, "window-1");
    await client.prompt("answer while I watch");
    await waitForIdle(client);
    await until(() => events.some((e) => e.type === "attention" && e.sessionId === watched.id));
    expect(c.index.get(watched.id)?.unread).toBeUndefined();

    // A dropped stream that is not retried (by default it would be, and succeed): the run fails.
    await c.service.updateSettings({ abort: { retryAttempts: 0 } });
    const unwatched = await c.service.createSession();
    const second = await view(c, unwatched.id, "window-2");
    server.enqueue({ text: "partial ", chunkChars: 4, tokensPerSecond: 100, dropAfterChunks: 2 });
    void second.prompt("this will fail").catch(() => {});
    await waitForView(second, (v) => v.state.isStreaming);
    second.close();
    c.broker.detach(unwatched.id, "window-2");
    await until(() => c.index.get(unwatched.id)?.unread === "failed");
    expect(events.filter((e) => e.type === "attention").map((e) => e.type === "attention" && e.reason)).toEqual(["done", "failed"]);
  });

  it("deleting a chat tells every page; the undo brings it back", async () => {
    const { core: c, events } = await start();
    const chat = await c.service.createSession();
    await c.service.deleteSession(chat.id);
    expect(events.at(-1)).toEqual({ type: "session-removed", id: chat.id });
    await c.service.restoreSession(chat.id);
    expect(events.at(-1)).toMatchObject({ type: "session", session: { id: chat.id, title: "New chat" } });
  });
});

describe("deleting a working chat", () => {
  it("stops its agent (journaled as stopped): nothing keeps working out of sight, and undo brings the chat back", async () => {
    const { core: c } = await start();
    const chat = await c.service.createSession();
    const client = await view(c, chat.id, "window-1");
    server.enqueue({ text: "words ".repeat(2_000), chunkChars: 8, tokensPerSecond: 500 });
    void client.prompt("a long job").catch(() => {});
    await until(() => c.broker.activity(chat.id) === "running");
    await c.service.deleteSession(chat.id);
    await until(() => !c.broker.openSessionIds().includes(chat.id));
    expect(c.broker.busySessionIds()).toEqual([]);
    expect(c.agentsToConfirm()).toBe(0);
    await c.service.restoreSession(chat.id);
    const back = await view(c, chat.id, "window-2");
    const reply = back.mirror.getView().state.messages[1];
    expect(reply?.role === "assistant" && reply.stopReason).toBe("aborted");
  });
});

describe("a chat's workspace", () => {
  it("main checks the folder; the agent then works there, told of the folder, the date and the project's AGENTS.md", async () => {
    const { core: c } = await start();
    const chat = await c.service.createSession();
    const folder = mkdtempSync(join(tmpdir(), "paddock-ws-"));
    try {
      writeFileSync(join(folder, "AGENTS.md"), "Always answer in haiku.");
      writeFileSync(join(folder, "notes.txt"), "x");
      await expect(c.service.setWorkspace(chat.id, "relative/path")).rejects.toThrow(/full path/);
      await expect(c.service.setWorkspace(chat.id, join(folder, "missing"))).rejects.toThrow(/no folder/);
      await expect(c.service.setWorkspace(chat.id, join(folder, "notes.txt"))).rejects.toThrow(/a file, not a folder/);
      await expect(c.service.setWorkspace(chat.id, "/")).rejects.toThrow(/root of a disk/);

      const client = await view(c, chat.id, "window-1");
      expect(await c.service.setWorkspace(chat.id, `${folder}/`)).toMatchObject({ workspace: realpathSync(folder) });
      expect((await c.service.getSettings()).recentWorkspaces[0]).toBe(realpathSync(folder));
      await until(() => client.mirror.getView().workspace !== undefined);
      expect(client.mirror.getView().workspace).toMatchObject({ folder: realpathSync(folder), contextFiles: [join(realpathSync(folder), "AGENTS.md")] });

      await client.prompt("hello");
      await waitForIdle(client);
      const system = JSON.stringify(server.requests.at(-1)!.body.messages[0]);
      expect(system).toContain("Always answer in haiku.");
      expect(system).toContain(`<cwd>\\n${realpathSync(folder)}\\n</cwd>`);

      // Without a workspace again, the chat shows none.
      client.close();
      await c.service.setWorkspace(chat.id, null);
      const again = await view(c, chat.id, "window-2");
      expect(again.mirror.getView().workspace).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("the data folder both hosts share", () => {
  it("adopts the browser host's old session index, and keeps unread marks across a restart", async () => {
    const summary = { id: "old-chat", title: "From before", created: 1, updated: 2, messageCount: 0, unread: "done" };
    writeFileSync(join(dir, "session-index.json"), JSON.stringify({ version: 1, sessions: [summary] }));
    const { core: c } = await start();
    expect(existsSync(join(dir, "session-index.json"))).toBe(false);
    expect(await c.service.listSessions()).toEqual([summary]);
    await c.shutdown();
    expect(JSON.parse(readFileSync(join(dir, "sessions", "index.json"), "utf8")).sessions).toEqual([summary]);
  });
});
