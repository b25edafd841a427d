/**
 * Runs nobody watches. (1) The host's CPU while 8 chats stream at 2,000 tokens/s with no viewer: the real web host
 * process (`src/web-host/main.ts`, the same core as Electron's main), one page's events socket open as a sidebar
 * would hold it, CPU read from /proc. (2) Opening a chat whose long reply is mid-stream: from the App's openSession
 * to the first frame painted with the streaming reply, in the bench page over a real worker.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { SessionClient } from "../src/renderer/store/session-client";
import { endpointUrl } from "../src/main/broker/session-broker";
import { WEB_HOST_TOKEN_HEADER } from "../src/shared/protocol/ids";
import type { AppEvent } from "../src/shared/protocol/app-api";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { openWebSocket } from "../testkit/worker-harness";
import { startWebHostProcess } from "../testkit/web-host-process";
import { startBenchPage } from "./lib/bench-page";
import { startProfile } from "./lib/page-profile";
import { assistantTextLength, startBenchBroker } from "./lib/sessions";
import { processCpuMs } from "./lib/process-cpu";
import { median, metric, round, sleep, withTimeout, type Metric } from "./lib/metrics";
import { markdownReply, plainReply } from "./lib/reply";

const RUNS = 8;
const RUN_CHARS = 40_000; // 5 s at 2,000 tokens/s
const TOKENS_PER_SECOND = 2000;
const REATTACH_REPLY_CHARS = 100_000;
const REATTACH_SAMPLES = 3;

export async function benchBackground(): Promise<Record<string, Metric>> {
  return { ...(await hostCpuWithoutViewers()), ...(await reattachMidStream()) };
}

async function hostCpuWithoutViewers(): Promise<Record<string, Metric>> {
  if (process.platform !== "linux") throw new Error("bench: background.mainCpuPercent8Runs reads /proc (Linux only)");
  const server = await startOpenAIServer();
  const text = plainReply(RUN_CHARS);
  server.setFallback(() => ({ text, chunkChars: 8, tokensPerSecond: TOKENS_PER_SECOND }));
  const dataDir = mkdtempSync(join(tmpdir(), "paddock-bench-bg-"));
  const host = await startWebHostProcess(["--data-dir", dataDir, "--loopback-url", server.baseUrl]);
  let events: WebSocket | undefined;
  try {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${host.origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", [WEB_HOST_TOKEN_HEADER]: host.token },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`bench: ${path}: HTTP ${response.status}`);
      return response.json();
    };
    // A page's sidebar, as the host sees it: one events socket, told of every change.
    events = new WebSocket(`${host.origin.replace("http", "ws")}/api/events?token=${host.token}`, { origin: host.origin });
    await new Promise((ok, fail) => events!.once("open", ok).once("error", fail));
    const attention: string[] = [];
    events.on("message", (data) => {
      const event = JSON.parse(String(data)) as AppEvent;
      if (event.type === "attention") attention.push(event.sessionId);
    });

    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) ids.push((await host.call<{ id: string }>("createSession")).id);
    // Each run is started by a page that then goes away: prompt, wait for the first streamed text, detach.
    await Promise.all(
      ids.map(async (id) => {
        const viewerId = `bench-${id.slice(0, 8)}`;
        const { url } = await host.attach(id, viewerId);
        const client = new SessionClient(id, async () => ({ transport: await openWebSocket(url) }));
        await client.start();
        void client.prompt("stream in the background").catch(() => {});
        await withTimeout(waitFor(() => assistantTextLength(client) > 0 || client.mirror.getView().state.streamingMessage !== undefined), 20_000, "run started");
        client.close();
        await post(`/api/session/${id}/detach`, { viewerId });
      }),
    );
    const cpu0 = processCpuMs(host.pid);
    const wall0 = performance.now();
    await withTimeout(waitFor(() => new Set(attention).size === RUNS), 60_000, "8 background runs finishing");
    const cpuMs = processCpuMs(host.pid) - cpu0;
    const wallMs = performance.now() - wall0;
    const sessions = await host.call<{ id: string; messageCount: number; unread?: string }[]>("listSessions");
    const finished = sessions.filter((s) => ids.includes(s.id) && s.messageCount === 2 && s.unread === "done").length;
    if (finished !== RUNS) throw new Error(`bench: ${finished} of ${RUNS} background runs finished unread`);
    return {
      mainCpuPercent8Runs: metric((cpuMs / wallMs) * 100, "<=", 5, "% of one core", {
        note: `The web host process (the core Electron's main also runs: broker, app service, session index, events) with no page viewing any chat: /proc utime+stime over wall time while ${RUNS} chats each stream a ${RUN_CHARS / 1000}k-character reply at ${TOKENS_PER_SECOND} tokens/s, from the moment their pages detached until the last run ended; one page's events socket open.`,
        detail: { cpuMs: round(cpuMs, 1), wallMs: round(wallMs, 1), clockTickMs: 10 },
      }),
    };
  } finally {
    events?.close();
    await host.stop();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface OpenMarks {
  openedAt: number;
  connectedAt: number;
  snapshotLoadedAt: number;
  firstMessagePaintAt: number;
}

/**
 * Opening a chat whose long reply streams with nobody watching: started by a client that then left, it is opened
 * (a) from the sidebar of a page already up, as a user switching back to it does (the target), and (b) by loading a
 * page on it (detail: that adds the page's own cold start).
 */
async function reattachMidStream(): Promise<Record<string, Metric>> {
  const server = await startOpenAIServer();
  const bench = startBenchBroker(server.baseUrl);
  const pages = await startBenchPage();
  const switched: ReturnType<typeof sample>[] = [];
  const loaded: ReturnType<typeof sample>[] = [];
  try {
    const homeUrl = endpointUrl(await bench.broker.attach("home", "bench-page"));
    for (let i = 0; i < REATTACH_SAMPLES * 2; i++) {
      const fromSidebar = i % 2 === 0;
      const sessionId = `reattach-${i}`;
      const { client } = await bench.connect(sessionId);
      server.enqueue({ text: markdownReply(REATTACH_REPLY_CHARS), chunkChars: 8, tokensPerSecond: TOKENS_PER_SECOND });
      void client.prompt("a long reply, half of which streams unwatched").catch(() => {});
      await withTimeout(waitFor(() => assistantTextLength(client) >= 20_000), 30_000, "first part of the reply");
      client.close();
      bench.broker.detach(sessionId, `bench-${sessionId}`);
      const url = endpointUrl(await bench.broker.attach(sessionId, "bench-page"));
      const page = await pages.browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on("pageerror", (e) => console.error(`bench page error: ${e.message}`));
      const profiler = process.env.BENCH_PROFILE === "reattach" ? await startProfile(page) : undefined;
      if (fromSidebar) {
        await page.goto(pages.url(homeUrl, "home", { other: sessionId, otherWs: url, paint: "message-assistant" }));
        await page.getByTestId("composer").waitFor({ timeout: 30_000 });
        await sleep(1_000); // the page settles, as one a user has had open for a while
        await page.locator(`[data-session-id="${sessionId}"] .session-open`).click();
      } else {
        await page.goto(pages.url(url, sessionId, { paint: "message-assistant" }));
      }
      const marks = await withTimeout(
        page.waitForFunction(() => {
          const m = (window as any).__bench.marks;
          return m.firstMessagePaintAt !== undefined ? m : undefined;
        }, null, { timeout: 30_000, polling: 100 }).then((h) => h.jsonValue() as Promise<OpenMarks>),
        35_000,
        "first paint of the streaming reply",
      );
      await profiler?.stopAndPrint();
      const streamedAtOpen = (await page.evaluate(() => {
        const state = (window as any).__bench.client().mirror.getView().state;
        return state.isStreaming && state.streamingMessage ? state.streamingMessage.content.map((c: any) => c.text ?? "").join("").length : -1;
      })) as number;
      if (streamedAtOpen < 20_000) throw new Error(`bench: the reopened chat did not show the streaming reply (${streamedAtOpen} characters)`);
      (fromSidebar ? switched : loaded).push(sample(marks, streamedAtOpen));
      await page.close();
      bench.broker.detach(sessionId, "bench-page");
    }
  } finally {
    await pages.close();
    await bench.close();
    await server.close();
  }
  const ms = (samples: ReturnType<typeof sample>[]) => median(samples.map((s) => s.firstPaintMs));
  return {
    reattachFirstPaintMs: metric(ms(switched), "<=", 200, "ms", {
      note: `A chat whose ${REATTACH_REPLY_CHARS / 1000}k-character markdown reply streams at ${TOKENS_PER_SECOND} tokens/s with no viewer is opened from the sidebar of a bench page that is already up (the real App over a SessionClient): from openSession (connect, snapshot with the streaming message, render) to the first frame painted with the streaming reply's row; median of ${REATTACH_SAMPLES}, each opened once 20k characters or more had streamed. detail.pageLoad: the same, opened by loading a fresh page on the chat (its cold start included).`,
      detail: { samples: switched, pageLoad: { medianMs: round(ms(loaded), 1), samples: loaded } },
    }),
  };
}

function sample(marks: OpenMarks, streamedCharsAtOpen: number) {
  return {
    firstPaintMs: round(marks.firstMessagePaintAt - marks.openedAt, 1),
    connectedMs: round(marks.connectedAt - marks.openedAt, 1),
    snapshotLoadedMs: round(marks.snapshotLoadedAt - marks.openedAt, 1),
    streamedCharsAtOpen,
  };
}


async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await sleep(20);
}
