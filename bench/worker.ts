/**
 * Worker life-cycle benchmarks: cold start (spawn -> ping answered), warm hand-off (attach on the warm spare ->
 * resolved) and idle resident memory (as the worker reports it in `ping`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NodeWorkerLauncher } from "../src/main/broker/node-worker-launcher";
import { WorkerHandle } from "../src/main/broker/worker-handle";
import type { WorkerPool } from "../src/main/broker/worker-pool";
import type { SessionBroker } from "../src/main/broker/session-broker";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { BARE_MAIN } from "../testkit/bare-main";
import { startBenchBroker, WORKER_FILE } from "./lib/sessions";
import { median, metric, round, withTimeout, type Metric } from "./lib/metrics";

const COLD_STARTS = 7;
const HANDOFFS = 7;
const WORKSPACE_CHATS = 3;

export async function benchWorker(): Promise<Record<string, Metric>> {
  const cold: number[] = [];
  const spareRss: number[] = [];
  // As in the app, the compile cache in a folder of the user's own (where the runtime has one; a no-op before Node 22.1).
  const cacheDir = mkdtempSync(join(tmpdir(), "paddock-bench-cache-"));
  const launcher = new NodeWorkerLauncher(WORKER_FILE, [], cacheDir);
  for (let i = 0; i < COLD_STARTS; i++) {
    const t0 = performance.now();
    const handle = new WorkerHandle(launcher.launch(), BARE_MAIN);
    const pong = await withTimeout(handle.call((c) => c.ping()), 10_000, "cold start ping");
    cold.push(performance.now() - t0);
    spareRss.push(pong.rssBytes);
    await handle.stop(1000);
  }
  rmSync(cacheDir, { recursive: true, force: true });

  const server = await startOpenAIServer();
  // Chats named "workspace-*" work in a folder of their own, as most chats in the app do.
  const workspace = mkdtempSync(join(tmpdir(), "paddock-bench-workspace-"));
  writeFileSync(join(workspace, "notes.txt"), "hello\n");
  const bench = startBenchBroker(server.baseUrl, { keepSpare: true, workspaceOf: (id) => (id.startsWith("workspace-") ? workspace : undefined) });
  try {
    const handoffs: number[] = [];
    const sessionRss: number[] = [];
    for (let i = 0; i < HANDOFFS; i++) {
      await spareReady(bench.broker);
      const t0 = performance.now();
      const attachment = await withTimeout(bench.broker.attach(`handoff-${i}`, "bench"), 10_000, "warm hand-off");
      handoffs.push(performance.now() - t0);
      // Idle session worker: bound to an (empty) session, nobody streaming. Settle briefly so start-up garbage is not counted as "idle".
      await new Promise((r) => setTimeout(r, 300));
      sessionRss.push((await attachment.worker.call((c) => c.ping())).rssBytes);
      bench.broker.detach(`handoff-${i}`, "bench");
    }
    const workspaceRss = await workspaceChatsRss(bench.broker);
    const mb = (b: number) => b / (1024 * 1024);
    return {
      coldStartMs: metric(median(cold), "<=", 150, "ms", {
        note: `child_process.fork of out/main/agent-worker.js until its first ping is answered; median of ${COLD_STARTS} sequential starts.`,
        detail: { samples: cold.map((v) => round(v, 1)) },
      }),
      warmHandoffMs: metric(median(handoffs), "<=", 20, "ms", {
        note: `broker.attach(new session) with a ready warm spare until it resolves (init: transcript opened, WebSocket listener up); median of ${HANDOFFS}.`,
        detail: { samples: handoffs.map((v) => round(v, 1)) },
      }),
      idleRssMb: metric(median(sessionRss.map(mb)), "<=", 55, "MB", {
        note: `RSS the worker reports in ping: a worker bound to an empty session, idle for 300 ms after init; median. detail.spareMb: an unbound warm spare right after start. detail.workspaceMb: the same for a chat with a workspace (its tools loaded, the sandbox known from an earlier chat), median of ${WORKSPACE_CHATS}.`,
        detail: {
          samplesMb: sessionRss.map((b) => round(mb(b), 1)),
          spareMb: round(median(spareRss.map(mb)), 1),
          workspaceMb: round(median(workspaceRss.map(mb)), 1),
        },
      }),
    };
  } finally {
    await bench.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * Idle RSS of chats with a workspace. The first one finds out whether commands can be sandboxed (loading the sandbox
 * runtime, as only the first chat on a machine does); later ones are measured once main knows the answer.
 */
async function workspaceChatsRss(broker: SessionBroker): Promise<number[]> {
  await spareReady(broker);
  await withTimeout(broker.attach("workspace-probe", "bench"), 10_000, "first workspace chat");
  const knows = () => (broker as unknown as { sandbox?: unknown }).sandbox !== undefined;
  for (const t0 = performance.now(); !knows(); await new Promise((r) => setTimeout(r, 50))) {
    if (performance.now() - t0 > 10_000) throw new Error("bench: the first workspace chat never said whether commands can be sandboxed");
  }
  broker.detach("workspace-probe", "bench");
  const rss: number[] = [];
  for (let i = 0; i < WORKSPACE_CHATS; i++) {
    await spareReady(broker);
    const attachment = await withTimeout(broker.attach(`workspace-${i}`, "bench"), 10_000, "workspace chat");
    await new Promise((r) => setTimeout(r, 300));
    rss.push((await attachment.worker.call((c) => c.ping())).rssBytes);
    broker.detach(`workspace-${i}`, "bench");
  }
  return rss;
}

/** Waits for the broker's warm spare to answer its ping (the pool keeps it private; the bench reads it to start each hand-off from the same state). */
async function spareReady(broker: object): Promise<void> {
  const pool = (broker as unknown as { pool: WorkerPool }).pool;
  pool.refill();
  const spare = (pool as unknown as { spare?: { ready: Promise<WorkerHandle> } }).spare;
  if (!spare) throw new Error("bench: the broker has no warm spare");
  await withTimeout(spare.ready, 10_000, "warm spare");
}
