/**
 * Session-channel benchmarks: bytes per character, cross-process throughput against an in-process listener, and
 * emit -> mirror latency at 2000 tokens/s. One broker, one real worker, clients over WebSockets in this process.
 */
import { streamSimple } from "../src/agent-worker/agent/stream-simple";
import { Agent } from "../src/agent-worker/agent/agent";
import { customModel, KEYLESS_API_KEY } from "../src/shared/providers/custom-provider";
import { assistantTextLength, benchSettings, startBenchBroker, waitForReply } from "./lib/sessions";
import { median, metric, percentile, round, withTimeout, type Metric } from "./lib/metrics";
import { plainReply } from "./lib/reply";
import { startOpenAIServer, type OpenAITestServer } from "../src/web-host/openai-test-server";

const REPLY_CHARS = 100_000;
const CHUNK_CHARS = 8;
const PACED_TOKENS_PER_SECOND = 2000;
const UNPACED = 1e9;
const THROUGHPUT_ROUNDS = 3;

export async function benchIpc(): Promise<Record<string, Metric>> {
  const server = await startOpenAIServer();
  const bench = startBenchBroker(server.baseUrl);
  try {
    const text = plainReply(REPLY_CHARS);
    const session = await bench.connect("ipc");
    const { client } = session;

    // --- paced run: bytes per character and emit -> mirror latency ------------------------------------------------
    server.enqueue({ text, chunkChars: CHUNK_CHARS, tokensPerSecond: PACED_TOKENS_PER_SECOND });
    const sent0 = session.transport().sentChars;
    const received0 = session.transport().receivedChars;
    const batches0 = client.mirror.stats.batches;
    const latencies: number[] = [];
    let next = 0;
    const off = client.mirror.subscribe(() => {
      const now = performance.now();
      const length = assistantTextLength(client);
      while (next < server.writes.length && server.writes[next].endOffset <= length) latencies.push(now - server.writes[next++].writtenAt);
    });
    const reply = waitForReply(client, REPLY_CHARS, 60_000);
    await withTimeout(Promise.all([client.prompt("stream the paced reply"), reply]), 60_000, "paced reply");
    off();
    const wireChars = session.transport().sentChars - sent0 + (session.transport().receivedChars - received0);
    const batches = client.mirror.stats.batches - batches0;

    // --- contrast: pi's whole partial per update, measured in-process on the same stream --------------------------
    const partialBytes = await wholePartialBytes(server, text);

    // --- throughput: same unpaced stream, cross-process mirror vs in-process listener ----------------------------
    const ratios: number[] = [];
    const cross: number[] = [];
    const local: number[] = [];
    let updates = 0;
    const agent = inProcessAgent(server.baseUrl);
    agent.subscribe((event) => {
      if (event.type === "message_update") updates++;
    });
    for (let round = 0; round <= THROUGHPUT_ROUNDS; round++) {
      updates = 0;
      server.enqueue({ text, chunkChars: CHUNK_CHARS, tokensPerSecond: UNPACED });
      let t0 = performance.now();
      await withTimeout(agent.prompt("stream it"), 60_000, "in-process reply");
      const localMs = performance.now() - t0;
      const events = updates;
      server.enqueue({ text, chunkChars: CHUNK_CHARS, tokensPerSecond: UNPACED });
      t0 = performance.now();
      const done = waitForReply(client, REPLY_CHARS, 60_000);
      await withTimeout(Promise.all([client.prompt("stream it"), done]), 60_000, "cross-process reply");
      const crossMs = performance.now() - t0;
      if (round === 0) continue; // warm-up: JIT, sockets, first transcript write
      local.push((events / localMs) * 1000);
      cross.push((events / crossMs) * 1000);
      ratios.push(localMs / crossMs);
    }

    const bytesPerChar = wireChars / REPLY_CHARS;
    return {
      bytesPerChar: metric(bytesPerChar, "<=", 2, "bytes/char", {
        note: "Session-transport characters (sent + received; the reply is ASCII, so characters are bytes) from prompt to run end, over the reply's characters; 100k-character reply streamed at 2000 tokens/s, 8 characters per model chunk, production settings (no integrity digests).",
        detail: {
          wireBytes: wireChars,
          batches,
          wholePartialPerUpdateBytesPerChar: round(partialBytes.perUpdate / REPLY_CHARS, 1),
          wholePartialPerUpdateTotalMB: round(partialBytes.perUpdate / 1e6, 1),
          messageUpdateEvents: partialBytes.updates,
        },
      }),
      throughputRatio: metric(median(ratios), ">=", 0.8, "ratio", {
        note: "Same unpaced 100k-character stream (12,500 model chunks): source events per second reaching the mirror in this process from the worker process, over events per second reaching a listener on an Agent in this process. Median of 3 alternating rounds after one warm-up.",
        detail: { ratios: ratios.map((r) => round(r)), crossProcessEventsPerSec: cross.map((v) => Math.round(v)), inProcessEventsPerSec: local.map((v) => Math.round(v)) },
      }),
      p99LatencyMs: metric(percentile(latencies, 99), "<=", 10, "ms", {
        note: "From the loopback model server writing a chunk (in this process) to this process's mirror first containing it: includes the model hop (HTTP/SSE into the worker, pi-ai parsing), the worker's batching, the WebSocket and the mirror's reducer. 2000 tokens/s, 8-character chunks.",
        detail: {
          samples: latencies.length,
          p50: round(percentile(latencies, 50)),
          p90: round(percentile(latencies, 90)),
          p99: round(percentile(latencies, 99)),
          max: round(Math.max(...latencies)),
        },
      }),
    };
  } finally {
    await bench.close();
    await server.close();
  }
}

function inProcessAgent(baseUrl: string): Agent {
  const provider = benchSettings(baseUrl).customProviders[0];
  return new Agent({
    initialState: { model: customModel(provider, "test-model") },
    getApiKey: () => KEYLESS_API_KEY,
    streamFn: (model, context, options) => streamSimple(model, context, { ...options, maxRetries: 0 }),
  });
}

/** Sum of JSON.stringify(message_update) sizes for the same stream: what forwarding pi's events as-is would cost. */
async function wholePartialBytes(server: OpenAITestServer, text: string): Promise<{ perUpdate: number; updates: number }> {
  const agent = inProcessAgent(server.baseUrl);
  let perUpdate = 0;
  let updates = 0;
  agent.subscribe((event) => {
    if (event.type !== "message_update") return;
    updates++;
    perUpdate += JSON.stringify(event).length;
  });
  server.enqueue({ text, chunkChars: CHUNK_CHARS, tokensPerSecond: UNPACED });
  await withTimeout(agent.prompt("stream it"), 120_000, "in-process reply (whole partial sizes)");
  return { perUpdate, updates };
}
