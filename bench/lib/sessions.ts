/**
 * The real broker and real worker processes (out/main/agent-worker.js under child_process.fork), with session
 * clients connected over WebSockets as the web host's pages are. Unlike the test harness, `connect` hands back the
 * client's transport, whose character counters the bytes-per-character figure reads.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import { SessionBroker } from "../../src/main/broker/session-broker";
import type { WorkerSettings } from "../../src/shared/protocol/control-protocol";
import type { AgentMessage } from "../../src/shared/agent/types";
import { SessionClient } from "../../src/renderer/store/session-client";
import type { WebSocketTransport } from "../../src/shared/transport/websocket-transport";
import { openWebSocket, testSettings } from "../../test/support/worker-harness";

export const WORKER_FILE = resolve("out/main/agent-worker.js");

export function benchSettings(baseUrl: string): WorkerSettings {
  return testSettings({ baseUrl }, { requestTimeoutMs: 120_000 });
}

export interface BenchSession {
  client: SessionClient;
  /** The client's current transport (counters: sentChars, receivedChars). */
  transport(): WebSocketTransport;
}

export interface BenchBroker {
  broker: SessionBroker;
  sessionsDir: string;
  connect(sessionId: string): Promise<BenchSession>;
  close(): Promise<void>;
}

/** Production settings: no integrity digests on batches (those are a test diagnostic that adds bytes). */
export function startBenchBroker(baseUrl: string, options: { keepSpare?: boolean } = {}): BenchBroker {
  if (!existsSync(WORKER_FILE)) throw new Error(`${WORKER_FILE} is missing: run \`npm run build\` first`);
  const dataDir = mkdtempSync(join(tmpdir(), "paddock-bench-"));
  const sessionsDir = join(dataDir, "sessions");
  const settings = benchSettings(baseUrl);
  const broker = new SessionBroker({
    launcher: new NodeWorkerLauncher(WORKER_FILE),
    sessionsDir,
    sessionTransport: "websocket",
    getApiKey: () => undefined,
    getWorkerSettings: () => settings,
    integrityCheck: false,
    keepSpare: options.keepSpare ?? false,
  });
  const clients: SessionClient[] = [];
  return {
    broker,
    sessionsDir,
    async connect(sessionId) {
      let current: WebSocketTransport | undefined;
      const client = new SessionClient(sessionId, async () => {
        const attachment = await broker.attach(sessionId, `bench-${sessionId}`);
        current = await openWebSocket(attachment.url!);
        return { transport: current };
      });
      clients.push(client);
      await client.start();
      return { client, transport: () => current! };
    },
    async close() {
      for (const c of clients) c.close();
      await broker.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Characters of text in the session's latest assistant message (streaming or finished). */
export function assistantTextLength(client: SessionClient): number {
  const state = client.mirror.getView().state;
  const message: AgentMessage | undefined = state.streamingMessage ?? state.messages[state.messages.length - 1];
  if (!message || message.role !== "assistant") return 0;
  let length = 0;
  for (const part of message.content) if (part.type === "text") length += part.text.length;
  return length;
}

/** Resolves once the run has ended and the last assistant message holds `chars` characters of text. */
export function waitForReply(client: SessionClient, chars: number, timeoutMs: number): Promise<void> {
  const done = () => {
    const state = client.mirror.getView().state;
    return !state.isStreaming && state.messages[state.messages.length - 1]?.role === "assistant" && assistantTextLength(client) >= chars;
  };
  return new Promise((resolve, reject) => {
    if (done()) return resolve();
    const timer = setTimeout(() => {
      off();
      const state = client.mirror.getView().state;
      reject(new Error(`bench: reply not complete after ${timeoutMs} ms (${assistantTextLength(client)}/${chars} chars, error: ${state.errorMessage ?? "none"})`));
    }, timeoutMs);
    const off = client.mirror.subscribe(() => {
      if (!done()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}
