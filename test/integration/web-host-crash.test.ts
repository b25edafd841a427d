/**
 * The web host killed with SIGKILL mid-reply: it cleans up nothing, so its workers must notice on their own. They
 * save the streaming reply and exit (no orphans), and a new host on the same data folder shows the reply as
 * interrupted.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import { openWebSocket, waitForView, WORKER_FILE } from "../../testkit/worker-harness";
import { messageText } from "../../testkit/message-text";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { isInterruptedReply } from "../../src/shared/agent/unfinished-reply";
import { childPids, isAlive } from "../../testkit/processes";

const LONG_REPLY = Array.from({ length: 6_000 }, (_, i) => `w${i}`).join(" ");

let server: OpenAITestServer;
let dataDir: string;
const clients: SessionClient[] = [];
const hosts: WebHostProcess[] = [];

beforeAll(async () => {
  // Owned here, not by the host: the model keeps streaming after the host dies, as a real provider would.
  server = await startOpenAIServer({ models: ["test-model"] });
  dataDir = mkdtempSync(join(tmpdir(), "paddock-host-crash-"));
});
afterAll(async () => {
  for (const client of clients) client.close();
  for (const host of hosts) await host.kill();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startHost(): Promise<WebHostProcess> {
  const host = await startWebHostProcess(["--data-dir", dataDir, "--loopback-url", server.baseUrl]);
  hosts.push(host);
  return host;
}

async function connect(host: WebHostProcess, sessionId: string, viewerId: string): Promise<SessionClient> {
  const client = new SessionClient(sessionId, async () => {
    const { url, restartedReason } = await host.attach(sessionId, viewerId);
    return { transport: await openWebSocket(url), restartedReason };
  });
  clients.push(client);
  await client.start();
  return client;
}

describe("the web host killed with SIGKILL mid-reply", () => {
  it("leaves no worker behind, and a new host shows the reply as interrupted", async () => {
    const host = await startHost();
    const { id: sessionId } = await host.call<{ id: string }>("createSession");
    const client = await connect(host, sessionId, "viewer-1");
    server.enqueue({ text: LONG_REPLY, chunkChars: 8, tokensPerSecond: 2000 });
    void client.prompt("tell me a long story").catch(() => {});
    await waitForView(client, (v) => v.state.streamingMessage !== undefined && messageText(v.state.streamingMessage).length > 4_000);

    const workers = [...new Set([...(host.workers.get(sessionId) ?? []), ...childPids(host.pid)])];
    expect(workers.length).toBeGreaterThan(0);
    const receivedAtKill = messageText(client.mirror.getView().state.streamingMessage!).length;
    await host.kill();
    client.close();

    // Each worker saves and exits within ORPHAN_EXIT_MS (1.5 s); give it 3.
    await expect.poll(() => workers.filter(isAlive), { timeout: 3_000, interval: 100 }).toEqual([]);

    const next = await startHost();
    const viewer = await connect(next, sessionId, "viewer-2");
    const messages = viewer.mirror.getView().state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(isInterruptedReply(messages[1])).toBe(true);
    const text = messageText(messages[1]);
    expect(LONG_REPLY.startsWith(text)).toBe(true);
    // The worker's last act was a checkpoint: the reply goes at least as far as the page had seen it.
    expect(text.length).toBeGreaterThanOrEqual(receivedAtKill);
  }, 60_000);
});

describe("a worker whose parent dies while it is still starting", () => {
  it("exits by itself: the disconnect it could not hear yet is noticed once it listens", async () => {
    // The parent forks a worker and exits at once, before the worker has loaded enough to listen for 'disconnect'.
    const script = `const { fork } = require("node:child_process");
      const child = fork(process.argv[1], [], { serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"] });
      process.stdout.write(String(child.pid)); process.exit(0);`;
    const pids = [0, 1, 2].map(() => Number(execFileSync(process.execPath, ["-e", script, WORKER_FILE], { encoding: "utf8" })));
    await new Promise((r) => setTimeout(r, 3_000));
    expect(pids.filter((pid) => isAlive(pid))).toEqual([]);
  });
});

