/**
 * Memory over a long day, in Chromium over the browser host with real workers: a user switching round-robin between
 * ten working chats (one exchange each visit) and leaving chats while a call is pending (Retry, which resolves only
 * when its run ends). Measured after garbage collection through the DevTools protocol (testkit/page-memory.ts), always
 * on the same empty chat so what the open chat shows does not count: the heap stays flat, no listener is left on
 * `window` or `document`, the page's JS event listeners do not grow, and no closed chat's WebSocket stays alive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, CDPSession, Page } from "playwright-core";
import type { OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat } from "../../testkit/chat-page";
import { exchange, openFromSidebar, pageMemory, total, type PageMemory } from "../../testkit/page-memory";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("memory");
  ({ browser, server, host } = rig);
});

afterAll(() => rig?.close());

const CHATS = 10;
const ROUNDS = 4;
/** The events socket, the open chat's, and one a just-closed chat's React fiber may still hold until the next render. */
const SOCKETS_AT_MOST = 3;

async function newChats(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await host.call<{ id: string }>("createSession")).id);
  return ids;
}

/** Measured on the empty chat `park`, after GC. */
async function measureAt(page: Page, cdp: CDPSession, park: string): Promise<PageMemory> {
  await openFromSidebar(page, park);
  await page.waitForTimeout(300); // closed sockets finish their closing handshake
  return pageMemory(cdp);
}

describe("memory over a long day", () => {
  it("switching round-robin between ten working chats keeps the heap, listeners and sockets flat", async () => {
    const [park, ...chats] = await newChats(CHATS + 1);
    const { page, problems } = await openChat(browser, host, park);
    const cdp = await page.context().newCDPSession(page);
    const after: PageMemory[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, id] of chats.entries()) {
        await openFromSidebar(page, id);
        const token = `soak-${round}-${i}`;
        await exchange(page, `Visit ${round} to chat ${i} (${token}): tell me about memory. `.repeat(4), token);
      }
      after.push(await measureAt(page, cdp, park));
    }
    const first = after[0]!;
    const last = after.at(-1)!;
    const turns = (ROUNDS - 1) * CHATS;
    console.log(`memory e2e: after round 1 ${JSON.stringify(first)}; after round ${ROUNDS} ${JSON.stringify(last)}`);
    expect(last.windowListeners).toEqual(first.windowListeners);
    expect(last.documentListeners).toEqual(first.documentListeners);
    expect(total(last.windowListeners) + total(last.documentListeners)).toBeLessThan(20);
    expect(last.jsEventListeners - first.jsEventListeners).toBeLessThanOrEqual(5);
    expect(last.liveWebSockets).toBeLessThanOrEqual(SOCKETS_AT_MOST);
    // 1 MB per 100 turns is the bench's target (soak.pageHeapGrowthMbPer100Turns); a little slack for GC noise.
    expect((last.heapBytes - first.heapBytes) / 1e6).toBeLessThan((turns / 100) * 1 + 0.5);
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("chats left while Retry's call is pending leave no connection behind", async () => {
    const [park, ...chats] = await newChats(5);
    const { page, problems } = await openChat(browser, host, park);
    const cdp = await page.context().newCDPSession(page);
    const before = await measureAt(page, cdp, park); // after a click: Playwright's own listeners are on the window
    for (const id of chats) {
      await openFromSidebar(page, id);
      // The reply fails; Retry's reply streams and then waits, so the call is still pending when the user leaves.
      server.enqueue({ error: { status: 400, message: "bad request" } }, { text: "Retried and streaming. ".repeat(20), chunkChars: 8, tokensPerSecond: 400, hangAfterChunks: 10 });
      const composer = page.getByTestId("composer");
      await composer.fill("fail first");
      await composer.press("Enter");
      await page.getByTestId("retry-button").click();
      await page.getByTestId("stop-button").waitFor();
    }
    const after = await measureAt(page, cdp, park);
    expect(after.liveWebSockets).toBeLessThanOrEqual(SOCKETS_AT_MOST);
    expect(after.windowListeners).toEqual(before.windowListeners);
    expect(after.documentListeners).toEqual(before.documentListeners);
    expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
    await page.close();
  }, 120_000);
});
