/**
 * Renderer benchmarks in Debian's Chromium (playwright-core): the real App fed by a real SessionMirror connected to a
 * real worker (bench/renderer-page). Streaming: a 100k-character markdown reply with code blocks at 2000 tokens/s,
 * measured with requestAnimationFrame deltas and a 'longtask' PerformanceObserver. Opening: a 10,000-message
 * session, time from openSession to the first painted message row.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startBenchPage } from "./lib/bench-page";
import { printTimeline, startProfile } from "./lib/page-profile";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { longTranscript } from "../testkit/transcripts";
import { endpointUrl } from "../src/main/broker/session-broker";
import { startBenchBroker } from "./lib/sessions";
import { metric, percentile, round, sleep, withTimeout, type Metric } from "./lib/metrics";
import { markdownReply } from "./lib/reply";

const REPLY_CHARS = 100_000;
const BIG_SESSION_MESSAGES = 10_000;

export async function benchRenderer(): Promise<Record<string, Metric>> {
  const pages = await startBenchPage();
  const browser = pages.browser;
  const server = await startOpenAIServer();
  const bench = startBenchBroker(server.baseUrl);
  try {
    /** Opens a page on the session; `profile` starts a CPU profile ("open") or a trace ("opentrace") before it loads. */
    const open = async (sessionId: string, profile?: string): Promise<Page & { profiler?: { stopAndPrint(): Promise<void> } }> => {
      const url = endpointUrl(await bench.broker.attach(sessionId, "bench-page"));
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on("pageerror", (e) => console.error(`bench page error: ${e.message}`));
      const profiler = profile === "open" ? await startProfile(page) : undefined;
      if (profile === "opentrace") await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"] });
      await page.goto(pages.url(url, sessionId));
      // Opening the big chat is timed inside the page; Playwright stays off its main thread meanwhile (its injected
      // scripts and polling would land in the measured window), and asks afterwards.
      if (sessionId === "big") await sleep(3_000);
      else await page.getByTestId("composer").waitFor({ timeout: 30_000 });
      return Object.assign(page, { profiler });
    };

    // --- streaming ---------------------------------------------------------------------------------------------
    const page = await open("stream");
    await page.waitForFunction(() => (window as any).__bench.client()?.mirror.getView().connection === "ready", null, { timeout: 30_000 });
    const isolated = await page.evaluate(() => crossOriginIsolated);
    await page.evaluate(() => (window as any).__bench.startFrames());
    await sleep(1000);
    const idle = (await page.evaluate(() => (window as any).__bench.stopFrames())) as FrameRecord;
    server.enqueue({ text: markdownReply(REPLY_CHARS), chunkChars: 8, tokensPerSecond: 2000 });
    await page.evaluate(() => (window as any).__bench.startFrames());
    const profiler = process.env.BENCH_PROFILE === "1" ? await startProfile(page) : process.env.BENCH_PROFILE === "trace" ? await startTrace(browser, page) : undefined;
    await page.evaluate(() => void (window as any).__bench.client().prompt("Stream the long markdown reply."));
    await page.waitForFunction(
      (chars) => {
        const state = (window as any).__bench.client().mirror.getView().state;
        const last = state.messages[state.messages.length - 1];
        return !state.isStreaming && last?.role === "assistant" && last.content.some((c: any) => c.type === "text" && c.text.length >= chars);
      },
      REPLY_CHARS,
      { timeout: 90_000, polling: 250 },
    );
    const streamed = (await page.evaluate(() => (window as any).__bench.stopFrames())) as FrameRecord;
    if (profiler) await profiler.stopAndPrint();
    await page.close();
    bench.broker.detach("stream", "bench-page");

    // --- opening a 10,000-message session -------------------------------------------------------------------------
    mkdirSync(bench.sessionsDir, { recursive: true });
    writeFileSync(join(bench.sessionsDir, "big.jsonl"), longTranscript(BIG_SESSION_MESSAGES));
    const attachStart = performance.now();
    await bench.broker.attach("big", "warm-load"); // the worker loads the transcript; timed separately below
    const attachMs = performance.now() - attachStart;
    const bigPage = await open("big", process.env.BENCH_PROFILE);
    const marks = await withTimeout(
      bigPage.waitForFunction(() => {
        const m = (window as any).__bench.marks;
        return m.firstMessagePaintAt !== undefined && m.historyLoadedAt !== undefined ? m : undefined;
      }, null, { timeout: 30_000 }).then((h) => h.jsonValue() as Promise<{ openedAt: number; connectedAt: number; snapshotLoadedAt: number; firstMessagePaintAt: number; historyLoadedAt: number }>),
      35_000,
      "first paint of the 10k session",
    );
    await bigPage.profiler?.stopAndPrint();
    if (process.env.BENCH_PROFILE === "opentrace") printTimeline(await browser.stopTracing(), marks);
    const openLongTasks = ((await bigPage.evaluate(() => (window as any).__bench.allLongTasks)) as [number, number][])
      .filter(([start]) => start >= marks.openedAt && start <= marks.historyLoadedAt + 100)
      .map(([, duration]) => round(duration, 1));
    // Scrolling back through it: 240 px (about three rows) per frame for 4 s, every row rendered as it comes in.
    await bigPage.evaluate(() => (window as any).__bench.startFrames());
    const scrolledPx = (await bigPage.evaluate(() => (window as any).__bench.scrollUp(240, 4_000))) as number;
    const scrolled = (await bigPage.evaluate(() => (window as any).__bench.stopFrames())) as FrameRecord;
    const rows = await bigPage.locator('[data-testid^="message-"]').count();
    await bigPage.close();

    const longOver50 = streamed.longTasks.filter((d) => d > 50);
    return {
      p95FrameMs: metric(percentile(streamed.deltas, 95), "<=", 16.7, "ms", {
        note: "requestAnimationFrame deltas while a 100k-character markdown reply with code blocks streams at 2000 tokens/s (8-character chunks) from a real worker into the real App (SessionClient + SessionMirror over WebSocket), headless Chromium --disable-gpu, 1280x800.",
        detail: {
          frames: streamed.deltas.length,
          p50: round(percentile(streamed.deltas, 50)),
          p99: round(percentile(streamed.deltas, 99)),
          max: round(Math.max(...streamed.deltas)),
          idleBaselineP95: round(percentile(idle.deltas, 95)),
          streamSeconds: round(streamed.deltas.reduce((a, b) => a + b, 0) / 1000, 2),
          framesOver17ms: streamed.deltas.filter((d) => d > 17).length,
          preciseClock: isolated,
        },
      }),
      longTasksOver50ms: metric(longOver50.length, "=", 0, "count", {
        note: "PerformanceObserver 'longtask' entries during the same stream.",
        detail: { longTasks: streamed.longTasks.length, durationsMs: streamed.longTasks.map((d) => round(d, 1)) },
      }),
      scroll10kP95FrameMs: metric(percentile(scrolled.deltas, 95), "<=", 16.7, "ms", {
        note: "requestAnimationFrame deltas while the opened 10,000-message chat scrolls up 240 px per frame for 4 s (rows mount, lex their markdown and highlight code as they enter). Not a target of the issue; it checks 'scrolls smoothly'.",
        detail: {
          frames: scrolled.deltas.length,
          scrolledPx: Math.round(scrolledPx),
          p50: round(percentile(scrolled.deltas, 50)),
          max: round(Math.max(...scrolled.deltas)),
          framesOver17ms: scrolled.deltas.filter((d) => d > 17).length,
          longTasks: scrolled.longTasks.map((d) => round(d, 1)),
        },
      }),
      open10kFirstPaintMs: metric(marks.firstMessagePaintAt - marks.openedAt, "<=", 300, "ms", {
        note: "From the App calling openSession (WebSocket connect, snapshot of the newest 100 of 10,000 messages, mirror load, virtualized list render) to the first frame painted with a message row, in a freshly loaded page. The other 9,900 messages load behind it in pages (detail.wholeHistoryLoadedMs). The worker had already loaded the transcript (detail.workerLoadMs).",
        detail: {
          connectedMs: round(marks.connectedAt - marks.openedAt, 1),

          snapshotLoadedMs: round(marks.snapshotLoadedAt - marks.openedAt, 1),
          fromNavigationStartMs: round(marks.firstMessagePaintAt, 1),
          wholeHistoryLoadedMs: round(marks.historyLoadedAt - marks.openedAt, 1),
          longTasksUntilHistoryLoadedMs: openLongTasks,
          workerLoadMs: round(attachMs, 1),
          renderedRows: rows,
        },
      }),
    };
  } finally {
    await pages.close();
    await bench.close();
    await server.close();
  }
}

interface FrameRecord {
  deltas: number[];
  longTasks: number[];
}


/** BENCH_PROFILE=trace: a Chromium trace while streaming, printed as total time per trace event (style, layout, paint...). */
async function startTrace(browser: import("playwright-core").Browser, page: Page): Promise<{ stopAndPrint(): Promise<void> }> {
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
  return {
    async stopAndPrint() {
      const buffer = await browser.stopTracing();
      const events = (JSON.parse(buffer.toString()) as { traceEvents: { name: string; ph: string; dur?: number; tid: number }[] }).traceEvents;
      const totals = new Map<string, number>();
      for (const e of events) if (e.ph === "X" && e.dur) totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
      console.log("\nrenderer trace (total ms per event, all threads):");
      for (const [name, ms] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${ms.toFixed(0).padStart(7)}  ${name}`);
    },
  };
}

