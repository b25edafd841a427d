/**
 * The search across chats with real workers: what a worker journals becomes searchable in main (the index follows
 * the transcripts from the workers' status reports), survives a restart through the saved index, and an imported
 * chat is searchable and opens in a worker like any other.
 */
import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { openWebSocket, waitForIdle, waitForView } from "../../testkit/worker-harness";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { TempFolders } from "../../testkit/temp-folders";
import { messageText } from "../../testkit/message-text";

const temp = new TempFolders("paddock-search-core-");
let dir: string;
let server: OpenAITestServer;
let core: Core<never> | undefined;
const clients: SessionClient[] = [];

beforeEach(async () => {
  dir = temp.make();
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await core?.shutdown();
  core = undefined;
  await server.close();
  temp.removeAll();
});

async function start(): Promise<Core<never>> {
  core = await createLoopbackCore(dir, server);
  return core;
}

async function view(c: Core<never>, sessionId: string): Promise<SessionClient> {
  const client = new SessionClient(sessionId, async () => ({ transport: await openWebSocket(endpointUrl(await c.broker.attach(sessionId, "viewer"))) }));
  clients.push(client);
  await client.start();
  return client;
}

const until = async (check: () => Promise<boolean>, timeoutMs = 15_000) => {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("search across chats with real workers", () => {
  it("a worker's messages become searchable as they land, with the chat's title and the message's place", async () => {
    const c = await start();
    const chat = await c.service.createSession();
    const client = await view(c, chat.id);
    server.enqueue({ text: "Zeppelins float on hydrogen or helium." });
    await client.prompt("Tell me about airships");
    await waitForIdle(client);
    server.enqueue({ text: "The Hindenburg burned in 1937." });
    await client.prompt("What happened to the Hindenburg?");
    await waitForIdle(client);
    await until(async () => (await c.service.searchMessages("hindenburg", 10)).hits.length === 2);
    const { hits } = await c.service.searchMessages("hindenburg", 10);
    expect(hits.map((h) => [h.messageIndex, h.role]).sort()).toEqual([[2, "user"], [3, "assistant"]]);
    expect(hits[0].title).toBe("Tell me about airships");
    // The numbers are the chat's own: the messages the page shows at those places say the same.
    await waitForView(client, (v) => v.state.messages.length === 4);
    const messages = client.mirror.getView().state.messages;
    for (const hit of hits) expect(messageText(messages[hit.messageIndex]).toLowerCase()).toContain("hindenburg");
    expect((await c.service.searchMessages("zeppel", 10)).hits.map((h) => h.messageIndex)).toEqual([1]);
  });

  it("pages are told (the search-index app event) when a reply is in the index, and not for a rename", async () => {
    const c = await start();
    await c.search.ready();
    // What a page asking at each event finds (the sidebar's results ask then).
    const found: string[][] = [];
    c.service.onEvent((event) => {
      if (event.type === "search-index") void c.service.searchMessages("tusk", 10).then((r) => found.push(r.hits.map((h) => h.role)));
    });
    const chat = await c.service.createSession();
    const client = await view(c, chat.id);
    server.enqueue({ text: "Narwhals have a single long tusk." });
    await client.prompt("Tell me about narwhals");
    await waitForIdle(client);
    await until(async () => found.some((roles) => roles.includes("assistant")));
    await c.search.ready();
    await new Promise((r) => setTimeout(r, 400));
    const before = found.length;
    await c.service.renameSession(chat.id, "Sea unicorns");
    await new Promise((r) => setTimeout(r, 400));
    expect(found.length).toBe(before);
  });

  it("the index is saved on quit and answers at the next start; an imported chat is searchable and opens", async () => {
    let c = await start();
    const chat = await c.service.createSession();
    const client = await view(c, chat.id);
    server.enqueue({ text: "Quokkas live on Rottnest Island." });
    await client.prompt("Which animal smiles?");
    await waitForIdle(client);
    await until(async () => (await c.service.searchMessages("quokkas", 10)).hits.length === 1);
    const exported = await c.service.exportSession(chat.id, "json");
    client.close();
    clients.length = 0;
    await c.shutdown();
    expect(existsSync(c.files.searchIndexFile)).toBe(true);

    c = await start();
    await c.search.ready();
    expect((await c.service.searchMessages("rottnest", 10)).hits).toMatchObject([{ sessionId: chat.id, messageIndex: 1 }]);
    const imported = await c.service.importSession(exported.text);
    await until(async () => (await c.service.searchMessages("rottnest", 10)).hits.length === 2);
    const reopened = await view(c, imported.id);
    await waitForView(reopened, (v) => v.state.messages.length === 2);
    const state = reopened.mirror.getView().state;
    expect(messageText(state.messages[1])).toBe("Quokkas live on Rottnest Island.");
  });
});
