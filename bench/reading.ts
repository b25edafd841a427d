/**
 * Reading (issue 13, accessibility): how quickly the header's model picker answers the keyboard with a long list,
 * in the real web host and page (the loopback model and a custom endpoint of 400 models), Chromium. Measured in the
 * page from the key's `keydown` to the next frame after the list shows.
 * - `reading.modelPickerOpenMs`: ↓ on the picker's button to the frame showing the 402 models, grouped. Median of
 *   10. Target 100 ms.
 * - `reading.modelPickerFilterMs`: a character typed in the picker's search field to the frame showing the models
 *   it narrows the 402 to. Median of 10. Target 100 ms.
 */
import type { Page } from "playwright-core";
import { launchChromium } from "../testkit/launch-chromium";
import { TempFolders } from "../testkit/temp-folders";
import { startWebHostProcess } from "../testkit/web-host-process";
import type { Settings } from "../src/shared/settings/schema";
import { median, metric, withTimeout, type Metric } from "./lib/metrics";
import { KEEP_NAMES } from "./lib/bench-page";

const RUNS = 10;
const MODELS = 400;
const STOPWATCH = `${KEEP_NAMES}
window.__keyAt = 0;
document.addEventListener("keydown", () => { window.__keyAt = performance.now(); }, true);`;

/** Ms from the last keydown to the frame after the picker lists a number of options other than `not`. */
function frameAfterList(page: Page, not: number): Promise<number> {
  return withTimeout(page.evaluate((skip) => new Promise<number>((resolve) => {
    const keyAt = (window as unknown as { __keyAt: number }).__keyAt;
    const count = () => document.querySelectorAll("[data-testid=model-picker-popover] [role=option]").length;
    const frame = () => requestAnimationFrame(() => resolve(performance.now() - keyAt));
    if (count() > 0 && count() !== skip) return frame();
    const watch = new MutationObserver(() => {
      if (count() === 0 || count() === skip) return;
      watch.disconnect();
      frame();
    });
    watch.observe(document.body, { subtree: true, childList: true });
  }), not), 5_000, "the model list");
}

export async function benchReading(): Promise<Record<string, Metric>> {
  const temp = new TempFolders("paddock-bench-reading-");
  const host = await startWebHostProcess(["--data-dir", temp.make(), "--openai-test-server"]);
  const browser = await launchChromium();
  try {
    const settings = await host.call<Settings>("getSettings");
    const models = Array.from({ length: MODELS }, (_, i) => `bench-model-${String(i).padStart(3, "0")}`);
    await host.call("updateSettings", { customProviders: [...settings.customProviders, { id: "bench", name: "Bench", baseUrl: "http://127.0.0.1:9/v1", models }] });
    const { id } = await host.call<{ id: string }>("createSession");
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    await page.addInitScript(STOPWATCH);
    await page.goto(host.pageUrl(id));
    await page.getByTestId("composer").waitFor();
    const button = page.getByTestId("model-picker");
    const popover = page.getByTestId("model-picker-popover");
    const total = MODELS + 2;

    const opens: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await button.focus();
      await page.keyboard.press("ArrowDown");
      opens.push(await frameAfterList(page, -1));
      if ((await popover.getByRole("option").count()) !== total) throw new Error("bench: the picker did not list every model");
      await page.keyboard.press("Escape");
      await popover.waitFor({ state: "detached" });
    }

    await button.click();
    const search = page.getByTestId("model-picker-search");
    const filters: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await search.fill("");
      await page.waitForFunction((n) => document.querySelectorAll("[data-testid=model-picker-popover] [role=option]").length === n, total);
      await page.keyboard.press(String((i % 9) + 1));
      filters.push(await frameAfterList(page, total));
    }
    await page.keyboard.press("Escape");

    return {
      modelPickerOpenMs: metric(median(opens), "<=", 100, "ms", { note: `median of ${RUNS}: ↓ on the picker to the frame showing ${total} models`, detail: { max: Math.max(...opens) } }),
      modelPickerFilterMs: metric(median(filters), "<=", 100, "ms", { note: `median of ${RUNS}: a typed digit to the frame showing the ${total} models narrowed`, detail: { max: Math.max(...filters) } }),
    };
  } finally {
    await browser.close();
    await host.stop();
    temp.removeAll();
  }
}
