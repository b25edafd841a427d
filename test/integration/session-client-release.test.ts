/**
 * A page that leaves a chat while one of its calls is still pending (Retry resolves only when its run ends) lets the
 * chat's connection go: after GC the closed SessionClient and its WebSocket are gone, over the real web host and
 * worker. They stayed for the life of the page while Comlink's finalisation registry held the unreleased proxy.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import { openWebSocket } from "../../testkit/worker-harness";
import { SessionClient } from "../../src/renderer/store/session-client";
import type { WebSocketTransport } from "../../src/shared/transport/websocket-transport";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let server: OpenAITestServer;
let host: WebHostProcess;
let dataDir: string;

beforeAll(async () => {
  server = await startOpenAIServer({ models: ["test-model"] });
  dataDir = mkdtempSync(join(tmpdir(), "paddock-client-release-"));
  host = await startWebHostProcess(["--data-dir", dataDir, "--loopback-url", server.baseUrl]);
});
afterAll(async () => {
  await host?.stop();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const until = async (check: () => boolean, what: string) => {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > 15_000) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Opens a chat, has its reply fail, presses Retry (whose reply streams and then waits), and leaves: closed. */
async function leaveWhileRetrying(viewerId: string): Promise<{ client: WeakRef<SessionClient>; socket: WeakRef<WebSocketTransport> }> {
  const { id } = await host.call<{ id: string }>("createSession");
  let transport: WebSocketTransport | undefined;
  const client = new SessionClient(id, async () => {
    const { url } = await host.attach(id, viewerId);
    transport = await openWebSocket(url);
    return { transport };
  });
  await client.start();
  server.enqueue({ error: { status: 400, message: "bad request" } }, { text: "Retried and streaming. ".repeat(20), chunkChars: 8, tokensPerSecond: 400, hangAfterChunks: 10 });
  await client.prompt("fail first");
  await until(() => client.mirror.getView().state.messages.at(-1)?.role === "assistant" && !client.mirror.getView().state.isStreaming, "the failed reply");
  // Only the outcome is kept: a kept Error would hold the client through its stack's frames.
  let outcome = "pending";
  client.continue().then(() => (outcome = "resolved"), (error: Error) => (outcome = error.message));
  await until(() => client.mirror.getView().state.streamingMessage !== undefined, "Retry's reply streaming");
  client.close();
  await until(() => outcome !== "pending", "Retry's call to end");
  expect(outcome).toMatch(/connection was lost/);
  return { client: new WeakRef(client), socket: new WeakRef(transport!) };
}

describe("a chat left while a call is pending", () => {
  it("is let go: its closed client and socket are collected", async () => {
    const left: Awaited<ReturnType<typeof leaveWhileRetrying>>[] = [];
    for (let i = 0; i < 3; i++) left.push(await leaveWhileRetrying(`viewer-${i}`));
    const alive = () => left.filter((l) => l.client.deref() !== undefined || l.socket.deref() !== undefined).length;
    for (let i = 0; i < 20 && alive() > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      gc();
    }
    expect({ clients: left.filter((l) => l.client.deref()).length, sockets: left.filter((l) => l.socket.deref()).length }).toEqual({ clients: 0, sockets: 0 });
  }, 60_000);
});
