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
import { openChat, shot } from "../../testkit/chat-page";
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
/** Rounds of one exchange per chat; the first WARM_UP fill the page's bounded markdown caches (40 replies of 6k). */
const ROUNDS = 6;
const WARM_UP = 4;
const REPLY = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\nSome **bold** and \`code\` on memory, *a long day* of chats.\n\n- one item\n- another with [a link](https://example.org)\n\n\`\`\`ts\nconst part${i} = ${i};\n\`\`\`\n\n`).join("");
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
        server.enqueue({ text: `${REPLY}\n\n${token}`, chunkChars: 1_000 });
        await exchange(page, `Visit ${round} to chat ${i} (${token}): tell me about memory.`, token, 45_000).catch(async (error: unknown) => {
          await shot(page, `memory-stuck-${token}`);
          throw error;
        });
      }
      after.push(await measureAt(page, cdp, park));
    }
    const first = after[WARM_UP - 1]!;
    const last = after.at(-1)!;
    const turns = (ROUNDS - WARM_UP) * CHATS;
    console.log(`memory e2e: heap MB after each round ${after.map((m) => (m.heapBytes / 1e6).toFixed(2)).join(", ")}; after round ${ROUNDS} ${JSON.stringify(last)}`);
    expect(last.windowListeners).toEqual(first.windowListeners);
    expect(last.documentListeners).toEqual(first.documentListeners);
    // The page's own (shortcuts, focus, sidebar, resize): a few dozen at most, none per chat (equal above).
    expect(total(last.windowListeners) + total(last.documentListeners)).toBeLessThan(30);
    expect(last.jsEventListeners - first.jsEventListeners).toBeLessThanOrEqual(5);
    expect(last.liveWebSockets).toBeLessThanOrEqual(SOCKETS_AT_MOST);
    // 1 MB per 100 turns is the bench's target (soak.pageHeapGrowthMbPer100Turns), with some slack for GC noise.
    // The markdown caches bounded by count alone kept every reply: about 1 MB over these 20 turns.
    expect((last.heapBytes - first.heapBytes) / 1e6).toBeLessThan((turns / 100) * 1 + 0.3);
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
