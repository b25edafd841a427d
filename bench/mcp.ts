/**
 * MCP servers. (1) `callOverheadMs`: an `echo` call of the everything server made from a (stand-in) agent worker
 * through main and the MCP host, minus the same call from an SDK client in this one process: medians, 200 calls each
 * after a warm-up. (2) `hostIdleRssMb`: the MCP host process's resident memory with the everything server connected
 * and idle (its own process not counted): reported.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpSupervisor } from "../src/main/mcp/mcp-supervisor";
import { NodeWorkerLauncher } from "../src/main/broker/node-worker-launcher";
import { SessionBroker } from "../src/main/broker/session-broker";
import { EVERYTHING_BIN, everythingStdio } from "../testkit/mcp-everything";
import { MCP_HOST_FILE } from "../testkit/worker-harness";
import { median, metric, percentile, round, sleep, withTimeout, type Metric } from "./lib/metrics";

const WARM_UP = 30;
const SAMPLES = 200;

export async function benchMcp(): Promise<Record<string, Metric>> {
  const inProcess = await sdkEcho();
  const dataDir = mkdtempSync(join(tmpdir(), "paddock-bench-mcp-"));
  const mcp = new McpSupervisor({ launcher: new NodeWorkerLauncher(MCP_HOST_FILE), servers: () => [everythingStdio()] });
  const broker = new SessionBroker({
    launcher: new NodeWorkerLauncher(resolve("bench/lib/mcp-call-worker.ts"), ["--import", "tsx"]),
    sessionsDir: join(dataDir, "sessions"),
    sessionTransport: "websocket",
    getApiKey: () => undefined,
    resolveModel: () => {
      throw new Error("no models here");
    },
    getWorkerSettings: () => ({}) as never,
    keepSpare: false,
    mcp,
  });
  try {
    await mcp.reconfigure();
    await withTimeout(waitFor(() => mcp.currentTools().some((t) => t.name === "echo")), 30_000, "the everything server to be ready");
    const { worker } = await broker.attach("bench-mcp", "bench");
    const timeEcho = (count: number) => (worker.control as unknown as { timeEcho(id: string, n: number): Promise<number[]> }).timeEcho("everything", count);
    await timeEcho(WARM_UP);
    const viaHost = await withTimeout(timeEcho(SAMPLES), 120_000, "echo calls through the host");
    await sleep(3_000); // idle: nothing in flight, the server's start-up garbage collected
    const info = await mcp.info();
    const overhead = median(viaHost) - median(inProcess);
    return {
      callOverheadMs: metric(overhead, "<=", 5, "ms", {
        note: "median echo from a worker through main and the MCP host, minus the median from an SDK client in one process",
        detail: {
          viaHostMedianMs: round(median(viaHost)),
          viaHostP95Ms: round(percentile(viaHost, 95)),
          inProcessMedianMs: round(median(inProcess)),
          inProcessP95Ms: round(percentile(inProcess, 95)),
          samples: SAMPLES,
        },
      }),
      hostIdleRssMb: metric((info?.rssBytes ?? Number.NaN) / 1_048_576, "<=", 120, "MB", {
        note: "reported: the MCP host process with the everything server connected, idle (the server's own process not counted)",
      }),
    };
  } finally {
    await broker.dispose();
    await mcp.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The same echo, from an SDK client over stdio in this process. */
async function sdkEcho(): Promise<number[]> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_BIN, "stdio"], stderr: "ignore" }));
  try {
    for (let i = 0; i < WARM_UP; i++) await client.callTool({ name: "echo", arguments: { message: `warm ${i}` } });
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      await client.callTool({ name: "echo", arguments: { message: `ping ${i}` } });
      times.push(performance.now() - t0);
    }
    return times;
  } finally {
    await client.close();
  }
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await sleep(50);
}
