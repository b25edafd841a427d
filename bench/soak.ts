/**
 * A long day in one page, shortened: the real App in Chromium over the web host with real workers and the loopback
 * model, a user switching round-robin between ten working chats from the sidebar and having one exchange (a
 * markdown reply with a code block) on each visit. After each round the page is measured after GC on the same empty
 * chat (testkit/page-memory.ts), so what the open chat shows does not count. The figure is the heap's growth per
 * 100 turns from the end of the warm-up (code loaded, and the markdown caches full: they are bounded, at 200k
 * characters of lexed text, which 20 replies fill) to the last round; detail: the growth from the first round (the
 * caches filling included), the page's JS event listeners, those on window and document, and live WebSockets.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "../testkit/launch-chromium";
import { exchange, openFromSidebar, pageMemory, total, type PageMemory } from "../testkit/page-memory";
import { startWebHostProcess, type WebHostProcess } from "../testkit/web-host-process";
import { startOpenAIServer, turnDirective } from "../src/web-host/openai-test-server";
import { metric, round, sleep, withTimeout, type Metric } from "./lib/metrics";
import { markdownReply } from "./lib/reply";

const CHATS = 10;
const WARM_UP_ROUNDS = 3;
const MAX_ROUNDS = 12;
/** Rounds after the warm-up and two more stop starting once this much time has gone (the group stays under ~90 s). */
const BUDGET_MS = 55_000;
const REPLY_CHARS = 10_000;

export async function benchSoak(): Promise<Record<string, Metric>> {
  const server = await startOpenAIServer();
  const dataDir = mkdtempSync(join(tmpdir(), "paddock-bench-soak-"));
  let host: WebHostProcess | undefined;
  let browser: Browser | undefined;
  try {
    host = await startWebHostProcess(["--data-dir", dataDir, "--loopback-url", server.baseUrl]);
    browser = await launchChromium();
    const ids: string[] = [];
    for (let i = 0; i <= CHATS; i++) ids.push((await host.call<{ id: string }>("createSession")).id);
    const [park, ...chats] = ids as [string, ...string[]];
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(host.pageUrl(park));
    await page.locator(`[data-testid=composer][placeholder="Message Paddock…"]`).waitFor({ timeout: 30_000 });
    const cdp = await page.context().newCDPSession(page);
    const reply = markdownReply(REPLY_CHARS);
    const rounds: { turns: number; memory: PageMemory; visitMs: number }[] = [];
    const started = performance.now();
    let turns = 0;
    for (let r = 1; r <= MAX_ROUNDS && (r <= WARM_UP_ROUNDS + 2 || performance.now() - started < BUDGET_MS); r++) {
      const t0 = performance.now();
      for (const [i, id] of chats.entries()) {
        await openFromSidebar(page, id);
        const token = `soak-${r}-${i}`;
        await exchange(page, `Round ${r}, chat ${i}: ${token} ${turnDirective({ text: `${reply}\n\n${token}`, chunkChars: 1_000 })}`, token, 45_000);
        turns++;
      }
      const visitMs = (performance.now() - t0) / CHATS;
      await openFromSidebar(page, park);
      await sleep(300); // the last closed socket finishes its closing handshake
      rounds.push({ turns, memory: await withTimeout(pageMemory(cdp), 30_000, "page memory"), visitMs });
    }
    if (errors.length > 0) throw new Error(`bench: soak page errors: ${errors.slice(0, 3).join("; ")}`);
    const warm = rounds[WARM_UP_ROUNDS - 1]!;
    const first = rounds[0]!;
    const last = rounds.at(-1)!;
    const perHundred = (from: (typeof rounds)[number]) => ((last.memory.heapBytes - from.memory.heapBytes) / 1e6 / (last.turns - from.turns)) * 100;
    const growthMbPer100 = perHundred(warm);
    const listeners = (m: PageMemory) => ({
      js: m.jsEventListeners,
      windowAndDocument: total(m.windowListeners) + total(m.documentListeners),
      liveWebSockets: m.liveWebSockets,
      nodes: m.nodes,
    });
    return {
      pageHeapGrowthMbPer100Turns: metric(growthMbPer100, "<=", 1, "MB per 100 turns", {
        note: `The real App in Chromium over the web host (real workers, loopback model): ${CHATS} chats switched round-robin from the sidebar, one exchange per visit (a ${REPLY_CHARS}-character markdown reply); the page's JS heap after GC (CDP HeapProfiler.collectGarbage, Runtime.getHeapUsage), measured on the same empty chat after each round, from the end of round ${WARM_UP_ROUNDS} (warm-up: the bounded markdown caches full) to the end of round ${rounds.length} (${last.turns - warm.turns} turns). detail.fromFirstRoundMbPer100Turns: from the end of round 1, the caches filling included. detail.listeners: DOM counters' JS event listeners, those on window and document, live WebSockets, at the end of the warm-up and of the last round.`,
        detail: {
          fromFirstRoundMbPer100Turns: round(perHundred(first), 3),
          heapMbAfterRound: rounds.map((x) => round(x.memory.heapBytes / 1e6, 2)),
          listeners: { warm: listeners(warm.memory), last: listeners(last.memory) },
          jsEventListenersGrowth: last.memory.jsEventListeners - warm.memory.jsEventListeners,
          medianVisitMs: round(rounds.map((x) => x.visitMs).sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!, 0),
          turns: last.turns,
        },
      }),
    };
  } finally {
    await browser?.close();
    await host?.stop();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
