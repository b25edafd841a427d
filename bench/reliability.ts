/**
 * How much of a streaming reply a crash loses. A worker is killed with kill -9 at several points of a reply
 * streamed at 2,000 tokens/s; its transcript is then reloaded, and the characters the model server had written by
 * the kill but the reloaded (interrupted) reply lacks are converted to streaming time. That counts everything the
 * user would lose: the checkpoint interval, the write, and however far the worker was behind the server.
 */
import { join } from "node:path";
import { loadTranscript } from "../src/shared-node/session-files/transcript-store";
import { isInterruptedReply } from "../src/shared/agent/unfinished-reply";
import { messageText } from "../testkit/message-text";
import { metric, round, sleep, withTimeout, type Metric } from "./lib/metrics";
import { plainReply } from "./lib/reply";
import { startBenchBroker } from "./lib/sessions";
import { startOpenAIServer } from "../src/web-host/openai-test-server";

const TOKENS_PER_SECOND = 2000;
const CHARS_PER_MS = (TOKENS_PER_SECOND * 4) / 1000;
/** When to kill, after the server wrote the reply's first chunk: spread over several checkpoint intervals. */
const KILL_AFTER_MS = [250, 600, 950, 1300, 1750, 2400];
const REPLY_CHARS = 40_000; // 5 s at 2,000 tokens/s: longer than the latest kill

export async function benchReliability(): Promise<Record<string, Metric>> {
  const server = await startOpenAIServer();
  const bench = startBenchBroker(server.baseUrl);
  const text = plainReply(REPLY_CHARS);
  const samples: { killAfterMs: number; sentChars: number; savedChars: number; lossMs: number }[] = [];
  try {
    for (const [i, killAfterMs] of KILL_AFTER_MS.entries()) {
      const sessionId = `checkpoint-loss-${i}`;
      const { client } = await bench.connect(sessionId);
      const pid = (await bench.broker.attach(sessionId, "bench-probe")).worker.pid!;
      server.enqueue({ text, chunkChars: 8, tokensPerSecond: TOKENS_PER_SECOND });
      const promptedAt = performance.now();
      void client.prompt("stream").catch(() => {});
      // The server clears its writes when this request arrives; until then they are the previous reply's.
      await withTimeout(waitFor(() => (server.writes[0]?.writtenAt ?? 0) > promptedAt), 10_000, "first chunk written");
      const startedAt = server.writes[0].writtenAt;
      await sleep(Math.max(0, startedAt + killAfterMs - performance.now()));

      const exited = new Promise<void>((resolve) => {
        const off = bench.broker.onEvent((e) => {
          if (e.type !== "worker-exited" || e.sessionId !== sessionId) return;
          off();
          resolve();
        });
      });
      const killedAt = performance.now();
      process.kill(pid, "SIGKILL");
      const sentChars = server.writes.filter((w) => w.writtenAt <= killedAt).at(-1)?.endOffset ?? 0;
      await withTimeout(exited, 10_000, "worker exit");
      client.close();

      const loaded = await loadTranscript(join(bench.sessionsDir, `${sessionId}.jsonl`));
      const reply = loaded.messages.at(-1);
      const saved = reply && isInterruptedReply(reply) ? messageText(reply) : "";
      if (!text.startsWith(saved)) throw new Error("bench: the saved reply is not a prefix of the streamed one");
      samples.push({ killAfterMs, sentChars, savedChars: saved.length, lossMs: Math.max(0, sentChars - saved.length) / CHARS_PER_MS });
    }
  } finally {
    await bench.close();
    await server.close();
  }
  const worst = Math.max(...samples.map((s) => s.lossMs));
  return {
    checkpointLossMs: metric(worst, "<=", 1000, "ms", {
      note: `kill -9 of a worker ${KILL_AFTER_MS.join(", ")} ms into a reply streamed at ${TOKENS_PER_SECOND} tokens/s; per kill, (characters the model server had written by the kill - characters of the interrupted reply in the reloaded transcript) / ${CHARS_PER_MS} characters per ms; the worst kill.`,
      detail: { samples: samples.map((s) => ({ ...s, lossMs: round(s.lossMs, 1) })) },
    }),
  };
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(2);
}
