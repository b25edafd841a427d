/**
 * Broker CPU while 8 sessions stream: the broker runs in a child process with its workers; the 8 mirrors and the
 * loopback model server run here, so the child's process.cpuUsage() delta over wall time is the broker's alone.
 */
import { fork, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { SessionClient } from "../src/renderer/store/session-client";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { openWebSocket } from "../testkit/worker-harness";
import { waitForReply } from "./lib/sessions";
import { metric, round, withTimeout, type Metric } from "./lib/metrics";
import { plainReply } from "./lib/reply";

const SESSIONS = 8;
const REPLY_CHARS = 40_000;
const TOKENS_PER_SECOND = 2000;

export async function benchBroker(): Promise<Record<string, Metric>> {
  const server = await startOpenAIServer();
  const text = plainReply(REPLY_CHARS);
  server.setFallback(() => ({ text, chunkChars: 8, tokensPerSecond: TOKENS_PER_SECOND }));
  const child = fork(resolve("bench/broker-child.ts"), [server.baseUrl], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const clients: SessionClient[] = [];
  try {
    await reply(child, (m) => m.type === "ready");
    const ids = Array.from({ length: SESSIONS }, (_, i) => `cpu-${i}`);
    child.send({ type: "attach", sessionIds: ids });
    const { urls } = await reply(child, (m) => m.type === "attached");
    for (let i = 0; i < SESSIONS; i++) {
      const url = (urls as string[])[i];
      const client = new SessionClient(ids[i], async () => ({ transport: await openWebSocket(url) }));
      await client.start();
      clients.push(client);
    }
    child.send({ type: "cpu-start" });
    await reply(child, (m) => m.type === "cpu-started");
    await withTimeout(Promise.all(clients.map((c) => Promise.all([c.prompt("stream"), waitForReply(c, REPLY_CHARS, 60_000)]))), 60_000, "8 sessions streaming");
    child.send({ type: "cpu-stop" });
    const { cpuMs, wallMs } = await reply(child, (m) => m.type === "cpu");
    const percent = ((cpuMs as number) / (wallMs as number)) * 100;
    return {
      mainCpuPercent8Sessions: metric(percent, "<=", 10, "% of one core", {
        note: `Broker in its own process (with its 8 worker children; mirrors and model server in the bench process): process.cpuUsage() (user + system) over wall time while 8 sessions each stream a ${REPLY_CHARS / 1000}k-character reply at ${TOKENS_PER_SECOND} tokens/s.`,
        detail: { cpuMs: round(cpuMs as number, 1), wallMs: round(wallMs as number, 1) },
      }),
    };
  } finally {
    for (const c of clients) c.close();
    child.send({ type: "close" });
    await withTimeout(new Promise((ok) => child.once("exit", ok)), 10_000, "broker child exit").catch(() => child.kill("SIGKILL"));
    await server.close();
  }
}

function reply(child: ChildProcess, match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return withTimeout(
    new Promise((ok) => {
      const on = (m: Record<string, unknown>) => {
        if (!match(m)) return;
        child.off("message", on);
        ok(m);
      };
      child.on("message", on);
    }),
    30_000,
    "broker child reply",
  );
}
