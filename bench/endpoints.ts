/**
 * "Test connection" (issue 13, endpoints): how long main's probe takes to answer, in this process, against loopback
 * servers (main/broker/endpoint-probe.ts; the page adds one app call on top).
 * - `endpoints.probeOkMs`: an OpenAI-compatible server listing 500 models (the most settings hold). Median of 20.
 * - `endpoints.probeOllamaMs`: an Ollama with only its own list: the OpenAI one answers 404 first. Median of 20.
 * - `endpoints.probeRefusedMs`: a port where nothing listens. Median of 20. Said at once, not after the timeout.
 * - `endpoints.probeSilentMs`: a server that takes the connection and never answers: the whole probe gives up at its
 *   5 s limit (PROBE_TIMEOUT_MS), so the user waits no longer than that. One run.
 */
import { createServer, type Socket } from "node:net";
import { probeEndpoint } from "../src/main/broker/endpoint-probe";
import { PROBE_TIMEOUT_MS } from "../src/shared/protocol/endpoint-probe";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { median, metric, withTimeout, type Metric } from "./lib/metrics";

const RUNS = 20;
const none = { source: "none" as const };

async function timed(baseUrl: string, expected: string, runs = RUNS): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const result = await withTimeout(probeEndpoint(baseUrl, none), PROBE_TIMEOUT_MS + 2_000, `probe ${baseUrl}`);
    times.push(performance.now() - t0);
    if (result.kind !== expected) throw new Error(`bench: probe of ${baseUrl} answered ${result.kind}, expected ${expected}: ${result.message}`);
  }
  return times;
}

export async function benchEndpoints(): Promise<Record<string, Metric>> {
  const models = Array.from({ length: 500 }, (_, i) => `model-${i}`);
  const openai = await startOpenAIServer({ models });
  const ollama = await startOpenAIServer({ models: models.slice(0, 20), modelLists: ["ollama"] });
  const closed = await startOpenAIServer();
  await closed.close();
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  try {
    const ok = await timed(openai.baseUrl, "ok");
    const fallback = await timed(ollama.baseUrl, "ok");
    const refused = await timed(closed.baseUrl, "unreachable");
    const [hang] = await timed(`http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`, "timeout", 1);
    return {
      probeOkMs: metric(median(ok), "<=", 50, "ms", { note: `median of ${RUNS} probes of a loopback server listing 500 models`, detail: { max: Math.max(...ok) } }),
      probeOllamaMs: metric(median(fallback), "<=", 50, "ms", { note: `median of ${RUNS}: /v1/models answers 404, then /api/tags`, detail: { max: Math.max(...fallback) } }),
      probeRefusedMs: metric(median(refused), "<=", 50, "ms", { note: `median of ${RUNS} probes of a closed loopback port`, detail: { max: Math.max(...refused) } }),
      probeSilentMs: metric(hang, "<=", PROBE_TIMEOUT_MS + 500, "ms", { note: "one probe of a server that never answers: gives up at the probe's limit" }),
    };
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await openai.close();
    await ollama.close();
  }
}
