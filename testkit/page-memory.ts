/**
 * A page's memory as Chromium's DevTools protocol reports it, for the memory e2e test and the soak bench: the JS heap
 * after garbage collection, the DOM counters (nodes, JS event listeners), the listeners on `window` and `document`
 * by type, and how many WebSocket objects are alive. Every handle it asks for is released again, so measuring does
 * not itself keep anything alive (a `Runtime.queryObjects` result left in its object group holds every object it
 * found).
 *
 * Also the soak's step: a user switching to a chat from the sidebar of the real App and having one short exchange.
 */
import type { CDPSession, Page } from "playwright-core";

/** The part of the page's DOM the waits below read (this file compiles without the DOM library; they run in the page). */
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
}
interface PageDocument {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

export interface PageMemory {
  /** Bytes used by the page's JS heap after two full collections. */
  heapBytes: number;
  nodes: number;
  jsEventListeners: number;
  /** Listeners registered on `window` and on `document`, by event type. */
  windowListeners: Record<string, number>;
  documentListeners: Record<string, number>;
  /** WebSocket objects still alive: the host's events socket, the open chat's, and any a closed chat left behind. */
  liveWebSockets: number;
}

const GROUP = "paddock-page-memory";

export async function pageMemory(cdp: CDPSession): Promise<PageMemory> {
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("HeapProfiler.collectGarbage");
  try {
    const heap = await cdp.send("Runtime.getHeapUsage");
    const dom = await cdp.send("Memory.getDOMCounters");
    const windowListeners = await listenersOn(cdp, "window");
    const documentListeners = await listenersOn(cdp, "document");
    const prototype = await cdp.send("Runtime.evaluate", { expression: "WebSocket.prototype", objectGroup: GROUP });
    const found = await cdp.send("Runtime.queryObjects", { prototypeObjectId: prototype.result.objectId!, objectGroup: GROUP });
    const count = await cdp.send("Runtime.callFunctionOn", {
      objectId: found.objects.objectId!,
      functionDeclaration: "function () { return this.length; }",
      returnByValue: true,
      objectGroup: GROUP,
    });
    return {
      heapBytes: heap.usedSize,
      nodes: dom.nodes,
      jsEventListeners: dom.jsEventListeners,
      windowListeners,
      documentListeners,
      liveWebSockets: count.result.value as number,
    };
  } finally {
    await cdp.send("Runtime.releaseObjectGroup", { objectGroup: GROUP });
  }
}

async function listenersOn(cdp: CDPSession, expression: "window" | "document"): Promise<Record<string, number>> {
  const target = await cdp.send("Runtime.evaluate", { expression, objectGroup: GROUP });
  const { listeners } = await cdp.send("DOMDebugger.getEventListeners", { objectId: target.result.objectId! });
  const byType: Record<string, number> = {};
  for (const listener of listeners) byType[listener.type] = (byType[listener.type] ?? 0) + 1;
  return byType;
}

/** The sum of a by-type listener count. */
export function total(byType: Record<string, number>): number {
  return Object.values(byType).reduce((a, b) => a + b, 0);
}

/** Opens `sessionId` from the App's sidebar and waits until it is the open chat, connected, ready to type. */
export async function openFromSidebar(page: Page, sessionId: string, timeout = 15_000): Promise<void> {
  await page.locator(`[data-session-id="${sessionId}"] .session-open`).click({ timeout });
  await page.waitForFunction(
    (id) => {
      const document = (globalThis as unknown as { document: PageDocument }).document;
      return (
        document.querySelector(`li.session-item.active[data-session-id="${id}"]`) !== null &&
        document.querySelector("[data-testid=connection-pill]") === null &&
        document.querySelector("[data-testid=composer]")?.getAttribute("placeholder") === "Message Paddock…"
      );
    },
    sessionId,
    { timeout, polling: 50 },
  );
}

/**
 * One exchange in the open chat: sends `text` (which must hold `token`, a string no earlier message in the chat
 * holds) and waits until the last reply shows `token` and Send is back: the loopback model echoes what it is sent.
 */
export async function exchange(page: Page, text: string, token: string, timeout = 20_000): Promise<void> {
  const composer = page.getByTestId("composer");
  await composer.fill(text);
  await composer.press("Enter");
  // On a loaded machine an Enter can land while the chat is still settling: sent once the composer is empty.
  for (let tries = 0; (await composer.inputValue()) !== ""; tries++) {
    if (tries === 20) throw new Error(`the message was not sent: ${token}`);
    await page.waitForTimeout(250);
    if (tries % 4 === 3 && (await composer.inputValue()) !== "") await page.getByTestId("send-button").click({ timeout });
  }
  await page.waitForFunction(
    (t) => {
      const document = (globalThis as unknown as { document: PageDocument }).document;
      const replies = document.querySelectorAll("[data-testid=message-assistant]");
      const last = replies[replies.length - 1];
      return last?.textContent?.includes(t) === true && last.querySelector(".message-footer") !== null && document.querySelector("[data-testid=send-button]") !== null;
    },
    token,
    { timeout, polling: 50 },
  );
}
