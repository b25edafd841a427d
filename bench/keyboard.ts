/**
 * The keyboard (issue 13, keyboard and focus): how long the page takes to answer a key, measured inside the page
 * from the key's `keydown` to what the user waits for, in the real web host and page (the loopback model), Chromium.
 * - `keyboard.shortcutListMs`: Ctrl+/ to the frame that shows the shortcut list. Median of 10. Target 100 ms.
 * - `keyboard.drawerFocusMs`: Enter on "Show chats" in a 600 px window to the focus being in the drawer. Median of
 *   10. Target 100 ms.
 * - `keyboard.deleteFocusMs`: Delete on a chat in the list to the focus on the next chat: main deletes the chat
 *   (an app call) and the list shows it gone. Median of 10. Target 250 ms.
 */
import type { Page } from "playwright-core";
import { launchChromium } from "../testkit/launch-chromium";
import { TempFolders } from "../testkit/temp-folders";
import { startWebHostProcess } from "../testkit/web-host-process";
import { median, metric, withTimeout, type Metric } from "./lib/metrics";
import { KEEP_NAMES } from "./lib/bench-page";

const RUNS = 10;

/** Page-side stopwatch: each keydown (capture) starts it; `focusin` and frames are read against it. */
const STOPWATCH = `${KEEP_NAMES}
window.__keyAt = 0;
window.__focusAt = [];
document.addEventListener("keydown", () => { window.__keyAt = performance.now(); window.__focusAt = []; }, true);
document.addEventListener("focusin", (e) => {
  const el = e.target;
  window.__focusAt.push({ t: performance.now() - window.__keyAt, inNav: !!el.closest("nav.sidebar"), session: el.closest("[data-session-id]")?.getAttribute("data-session-id") ?? null });
}, true);
`;

/** Ms from the last keydown to the first focus that `want` accepts, waiting up to 5 s. */
async function focusAfterKey(page: Page, want: { inNav?: boolean; session?: string }): Promise<number> {
  return withTimeout(page.waitForFunction((w) => {
    const hits = (window as unknown as { __focusAt: { t: number; inNav: boolean; session: string | null }[] }).__focusAt;
    const hit = hits.find((h) => (w.inNav === undefined || h.inNav === w.inNav) && (w.session === undefined || h.session === w.session));
    return hit ? hit.t : false;
  }, want, { timeout: 5_000 }).then((h) => h.jsonValue() as Promise<number>), 6_000, "focus after a key");
}

export async function benchKeyboard(): Promise<Record<string, Metric>> {
  const temp = new TempFolders("paddock-bench-keyboard-");
  const host = await startWebHostProcess(["--data-dir", temp.make(), "--openai-test-server"]);
  const browser = await launchChromium();
  try {
    const ids: string[] = [];
    for (let i = 0; i < RUNS + 2; i++) ids.push((await host.call<{ id: string }>("createSession")).id);
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    await page.addInitScript(STOPWATCH);
    await page.goto(host.pageUrl(ids[0]));
    await page.getByTestId("composer").waitFor();
    await page.getByTestId("session-item").nth(RUNS + 1).waitFor();

    const list: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.getByTestId("composer").focus();
      await page.keyboard.press("Control+/");
      list.push(await page.evaluate(() => new Promise<number>((resolve) => {
        const keyAt = (window as unknown as { __keyAt: number }).__keyAt;
        const shown = () => document.querySelector("dialog[open][data-testid=shortcuts-dialog]");
        const frame = () => requestAnimationFrame(() => resolve(performance.now() - keyAt));
        if (shown()) return frame();
        const watch = new MutationObserver(() => {
          if (!shown()) return;
          watch.disconnect();
          frame();
        });
        watch.observe(document.body, { subtree: true, childList: true, attributes: true });
      })));
      await page.keyboard.press("Escape");
      await page.getByTestId("shortcuts-dialog").waitFor({ state: "detached" });
    }

    // Deleting from the top of the list (not the open chat, the last one): the focus goes to the next chat down.
    const deletes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const order = await page.getByTestId("session-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-session-id")!));
      const victim = order.find((id) => id !== ids[0])!;
      const next = order[order.indexOf(victim) + 1];
      await page.locator(`[data-testid=session-item][data-session-id="${victim}"] .session-open`).focus();
      await page.keyboard.press("Delete");
      deletes.push(await focusAfterKey(page, { session: next }));
    }

    await page.setViewportSize({ width: 600, height: 800 });
    const toggle = page.getByRole("button", { name: "Show chats" });
    const drawer: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await toggle.focus();
      await page.keyboard.press("Enter");
      drawer.push(await focusAfterKey(page, { inNav: true }));
      await page.keyboard.press("Escape");
      await page.locator(".app.sidebar-open").waitFor({ state: "detached" });
    }

    return {
      shortcutListMs: metric(median(list), "<=", 100, "ms", { note: `median of ${RUNS}: Ctrl+/ keydown to the frame showing the list`, detail: { max: Math.max(...list) } }),
      drawerFocusMs: metric(median(drawer), "<=", 100, "ms", { note: `median of ${RUNS}: Enter on "Show chats" (600 px) to the focus in the drawer`, detail: { max: Math.max(...drawer) } }),
      deleteFocusMs: metric(median(deletes), "<=", 250, "ms", { note: `median of ${RUNS}: Delete on a chat to the focus on the next one (main deletes it first)`, detail: { max: Math.max(...deletes) } }),
    };
  } finally {
    await browser.close();
    await host.stop();
    temp.removeAll();
  }
}
