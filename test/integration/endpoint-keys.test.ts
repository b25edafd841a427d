/**
 * A custom endpoint's key reaches only the server it was saved for, through the whole path: Settings, main's key
 * store, the worker asking main for the key before each request, and the request itself (two loopback test servers
 * on different ports are two origins).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { KEYLESS_API_KEY } from "../../src/shared/providers/custom-provider";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { askInNewChat, createTestCore } from "../../testkit/test-core";
import { waitForIdle } from "../../testkit/worker-harness";

let dir: string;
let serverA: OpenAITestServer;
let serverB: OpenAITestServer;
let core: Core<never>;
const clients: SessionClient[] = [];

const lab = (server: OpenAITestServer) => ({ id: "lab", name: "Lab", baseUrl: server.baseUrl, models: ["test-model"] });
/** The key the server was sent with its last request ("Bearer <key>"). */
const lastKey = (server: OpenAITestServer) => String(server.requests.at(-1)?.headers.authorization ?? "").replace(/^Bearer /, "");

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-endpoint-keys-"));
  [serverA, serverB] = await Promise.all([startOpenAIServer({ models: ["test-model"] }), startOpenAIServer({ models: ["test-model"] })]);
  core = await createTestCore({
    dataDir: dir,
    prepareSettings: (settings) => settings.update({ customProviders: [lab(serverA)], defaultModel: { provider: "custom:lab", id: "test-model" } }),
  });
});
afterEach(async () => {
  for (const c of clients) c.close();
  clients.length = 0;
  await core.shutdown();
  await Promise.all([serverA.close(), serverB.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A new chat, viewed and asked one question. */
const ask = (question: string): Promise<SessionClient> => askInNewChat(core, question, clients);

describe("custom endpoint keys end to end", () => {
  it("the key goes to the address it was saved for; after the URL moves, neither a new chat nor an old one sends a key elsewhere (the old one follows it)", async () => {
    await core.service.setApiKey("custom:lab", "sk-for-a");
    const old = await ask("hello A");
    expect(lastKey(serverA)).toBe("sk-for-a");

    // The endpoint moves to B: B never sees A's key.
    await core.service.updateSettings({ customProviders: [lab(serverB)] });
    await ask("hello B");
    expect(serverB.requests).toHaveLength(1);
    expect(lastKey(serverB)).toBe(KEYLESS_API_KEY);
    const status = (await core.service.providerStatus()).find((p) => p.provider === "custom:lab");
    expect(status).toMatchObject({ keySource: "none", keySavedFor: new URL(serverA.baseUrl).origin });

    // A key entered for B goes to B, and never to A. The older chat follows the endpoint to B (a changed endpoint
    // applies to open chats at once), so A hears nothing more, not even without a key.
    await core.service.setApiKey("custom:lab", "sk-for-b");
    await ask("hello B again");
    expect(lastKey(serverB)).toBe("sk-for-b");
    await old.prompt("now talking to B");
    await waitForIdle(old);
    expect(serverA.requests).toHaveLength(1);
    expect(serverB.requests).toHaveLength(3);
    expect(lastKey(serverB)).toBe("sk-for-b");
  }, 30_000);

  it("removing the endpoint removes its key: the same id re-added, even at the same address, starts without one", async () => {
    await core.service.setApiKey("custom:lab", "sk-for-a");
    await core.service.updateSettings({ customProviders: [], defaultModel: null });
    expect(core.secrets.has("custom:lab")).toBe(false);
    await core.service.updateSettings({ customProviders: [lab(serverA)], defaultModel: { provider: "custom:lab", id: "test-model" } });
    await ask("who is there?");
    expect(lastKey(serverA)).toBe(KEYLESS_API_KEY);
  }, 30_000);
});
