/**
 * The Changes panel opening on 1,000 changed files (issue 24's `checkpoints.changesPanel1000FilesMs`): in Debian's
 * Chromium, the bench page's `?view=changes` (bench/renderer-page/changes.jsx), from the change set arriving as JSON
 * to the first frame painted with a file row. Each run is a freshly loaded page; Playwright stays off the page's main
 * thread while it opens and asks afterwards. The figure is the median of the runs.
 */
import type { Page } from "playwright-core";
import { startBenchPage, type BenchPage } from "./lib/bench-page";
import { median, metric, round, sleep, type Metric } from "./lib/metrics";

const FILES = 1_000;
const RUNS = 5;

/** A fresh page showing the Changes panel's bench view, not yet opened (`__bench.openChanges()` opens it). */
export async function openChangesPage(pages: BenchPage, files = FILES): Promise<Page> {
  const page = await pages.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
  page.on("pageerror", (e) => console.error(`bench page error: ${e.message}`));
  await page.goto(pages.url("", "changes", { view: "changes", files: String(files) }));
  await page.waitForFunction(() => typeof (window as any).__bench?.openChanges === "function", null, { timeout: 30_000 });
  return page;
}

/** Opens the panel in `page` and resolves with its marks once the first row has painted. */
export async function openChangesPanel(page: Page): Promise<{ openedAt: number; firstRowPaintAt: number }> {
  await page.evaluate(() => (window as any).__bench.openChanges());
  await sleep(1_000);
  const marks = await page.waitForFunction(() => {
    const m = (window as any).__bench.marks;
    return m.firstRowPaintAt !== undefined ? { openedAt: m.openedAt, firstRowPaintAt: m.firstRowPaintAt } : undefined;
  }, null, { timeout: 30_000 });
  return (await marks.jsonValue()) as { openedAt: number; firstRowPaintAt: number };
}

export async function benchChangesPanel(): Promise<Record<string, Metric>> {
  const pages = await startBenchPage();
  try {
    const times: number[] = [];
    let rows = 0;
    for (let run = 0; run < RUNS; run++) {
      const page = await openChangesPage(pages);
      const marks = await openChangesPanel(page);
      times.push(marks.firstRowPaintAt - marks.openedAt);
      rows = await page.locator('[data-testid^="changed-file-"]').count();
      await page.close();
    }
    return {
      changesPanel1000FilesMs: metric(median(times), "<=", 300, "ms", {
        note: `Opening the Changes panel on ${FILES.toLocaleString("en-US")} changed files (the change set parsed from JSON as it comes off the session channel, the virtualized list rendered) to the first frame painted with a file row, in a freshly loaded bench page (bench/renderer-page/changes.jsx), headless Chromium --disable-gpu, 1280x800. Median of ${RUNS} runs.`,
        detail: { runsMs: times.map((t) => round(t, 1)), renderedRows: rows },
      }),
    };
  } finally {
    await pages.close();
  }
}
