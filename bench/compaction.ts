/**
 * What keeping the context inside the window costs:
 * - `checkPerRequestMs`: the compactor's check before every model request (transformContext: the transcript as the
 *   model sees it, then its size) in a 10,000-message chat on a 128k window that needs no compaction. It runs on
 *   every request of every run, so it must stay far below a frame. Target: under 1 ms.
 * - `checkAfterCompactionMs`: the same once the chat was compacted in the middle of the current run (the loop's list
 *   lacks the marker, which is put back in place, then the view is built from the kept messages). Target: under 2 ms.
 * - `meterMs`: the page's context meter for the same chat (memoized on the messages: once per finished message).
 *   Target: under 1 ms.
 * - `compactingRequestMs`: a real worker on a 2,000-token window, the prompt that passes the threshold: until the
 *   model server has the compacted request, the summarising round trip to the loopback model included (its answer
 *   is instant, so this is Paddock's own share). Target: under 500 ms.
 * Medians; the in-process figures over 200 calls each.
 */
import { Agent } from "../src/agent-worker/agent/agent";
import { ContextCompactor } from "../src/agent-worker/host/compaction/context-compactor";
import type { AgentMessage, StreamFn } from "../src/shared/agent/types";
import type { CompactionMessage } from "../src/shared/agent/compaction";
import { zeroUsage } from "../src/shared/agent/state";
import { customModel } from "../src/shared/providers/custom-provider";
import { transcriptTokens } from "../src/renderer/components/common/context-meter-figures";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { startBroker, waitForView } from "../testkit/worker-harness";
import { isSummaryRequest, summarisingFallback, tokensOf } from "../testkit/compaction";
import { benchSettings } from "./lib/sessions";
import { median, metric, round, withTimeout, type Metric } from "./lib/metrics";

const CALLS = 200;
const MESSAGES = 10_000;

function longChat(): AgentMessage[] {
  const model = customModel({ id: "b", name: "B", baseUrl: "http://127.0.0.1:9/v1", models: ["m"] }, "m");
  const messages: AgentMessage[] = [];
  for (let i = 0; i < MESSAGES / 2; i++) {
    messages.push({ role: "user", content: [{ type: "text", text: `question ${i} `.repeat(8) }], timestamp: i });
    messages.push({
      role: "assistant",
      content: [{ type: "text", text: `answer ${i} `.repeat(30) }],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: { ...zeroUsage(), input: 40_000, output: 80, totalTokens: 40_080 },
      stopReason: "stop",
      timestamp: i,
    });
  }
  return messages;
}

/** The median time of `CALLS` awaited calls of `fn`, in ms. */
async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

async function checkCosts(): Promise<{ plain: number; compacted: number; meter: number }> {
  const model = { ...customModel({ id: "b", name: "B", baseUrl: "http://127.0.0.1:9/v1", models: ["m"] }, "m"), contextWindow: 128_000 };
  const chat = longChat();
  const never: StreamFn = () => {
    throw new Error("the bench makes no request");
  };
  const agent = new Agent({ initialState: { model, messages: chat } });
  const compactor = new ContextCompactor(
    {
      messages: () => agent.data.messages,
      model: () => model,
      thinkingLevel: () => "off",
      apiKey: async () => undefined,
      convertToLlm: () => [],
      append: async (marker) => agent.appendMessage(marker),
      notify: () => {},
    },
    never,
  );
  const loop = chat.slice();
  const plain = await timed(() => compactor.transformContext(loop));
  // A compaction made earlier in this run: put it in place the way the compactor does, through its private list.
  const marker: CompactionMessage = {
    role: "compaction", summary: "## Goal\nbench", firstKeptIndex: MESSAGES - 100, summarisedMessages: MESSAGES - 100, summarisedTokens: 1,
    tokensBefore: 120_000, tokensAfter: 20_000, reason: "threshold", timestamp: 0,
  };
  agent.appendMessage(marker);
  (compactor as unknown as { runMarkers: { after: AgentMessage; marker: CompactionMessage }[] }).runMarkers.push({ after: loop[loop.length - 1], marker });
  loop.push({ role: "user", content: [{ type: "text", text: "next" }], timestamp: 0 });
  const compacted = await timed(() => compactor.transformContext(loop));
  const messages = agent.data.messages;
  const meter = await timed(() => transcriptTokens(messages, 0));
  return { plain, compacted, meter };
}

async function compactingRequest(): Promise<number[]> {
  const server = await startOpenAIServer();
  server.setFallback(summarisingFallback("## Goal\nbench"));
  const settings = benchSettings(server.baseUrl);
  settings.customProviders[0] = { ...settings.customProviders[0], contextWindow: 2_000 };
  const rig = startBroker(settings, { integrityCheck: false });
  const runs: number[] = [];
  try {
    for (let run = 0; run < 3; run++) {
      const { client } = await rig.connect(`compact-${run}`, `bench-${run}`);
      const ask = async (text: string) => {
        await client.prompt(text);
        await waitForView(client, (v) => !v.state.isStreaming, 30_000);
      };
      await ask(tokensOf(300, "A"));
      await ask(tokensOf(300, "B"));
      const before = server.requests.length;
      const t0 = performance.now();
      const done = client.prompt(tokensOf(300, "C"));
      await withTimeout(
        new Promise<void>((resolve) => {
          const check = () => (server.requests.slice(before).some((r) => !isSummaryRequest(r.body)) ? resolve() : setTimeout(check, 1));
          check();
        }),
        30_000,
        "the compacted request",
      );
      runs.push(performance.now() - t0);
      if (!server.requests.slice(before).some((r) => isSummaryRequest(r.body))) throw new Error("the bench's chat did not compact");
      await done;
      await waitForView(client, (v) => !v.state.isStreaming, 30_000);
      client.close();
    }
  } finally {
    await rig.close();
    await server.close();
  }
  return runs;
}

export async function benchCompaction(): Promise<Record<string, Metric>> {
  const { plain, compacted, meter } = await checkCosts();
  const requests = await compactingRequest();
  return {
    checkPerRequestMs: metric(plain, "<=", 1, "ms", { note: `transformContext before a model request, ${MESSAGES.toLocaleString("en-US")} messages, nothing to compact (median of ${CALLS})` }),
    checkAfterCompactionMs: metric(compacted, "<=", 2, "ms", { note: `the same, compacted earlier in the run: marker put back, view from the kept messages (median of ${CALLS})` }),
    meterMs: metric(meter, "<=", 1, "ms", { note: `the page's context meter over ${MESSAGES.toLocaleString("en-US")} messages (median of ${CALLS})` }),
    compactingRequestMs: metric(median(requests), "<=", 500, "ms", {
      note: "2,000-token window: the prompt that passes the threshold, until the model has the compacted request (summary from the loopback model included; median of 3)",
      detail: { runsMs: requests.map((v) => round(v, 1)) },
    }),
  };
}
