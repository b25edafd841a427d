/**
 * The Changes panel in Chromium with 1,000 changed files, on the renderer bench's page (bench/renderer-page,
 * `?view=changes`: synthetic data, in-memory commands): it paints a window of rows, not all 1,000; the keyboard
 * moves through the files; a file's hunks name the calls that made them; a revert of a file changed outside asks
 * (overwrite / keep mine / show diff). Screenshots under test-results/screens/changes-*.png.
 */
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openChangesPage, openChangesPanel } from "../../bench/changes-panel";
import { startBenchPage, type BenchPage } from "../../bench/lib/bench-page";
import { expectAccessible } from "../../testkit/axe";
import { poll, SCREENS, shot } from "../../testkit/chat-page";

let pages: BenchPage;

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  pages = await startBenchPage();
}, 120_000);

afterAll(async () => {
  await pages?.close();
});

describe("the Changes panel", () => {
  it("shows 1,000 changed files, a file's hunks with their authors, and asks before overwriting a file changed outside", async () => {
    const page = await openChangesPage(pages, 1_000);
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
    const marks = await openChangesPanel(page);
    expect(marks.firstRowPaintAt).toBeGreaterThan(marks.openedAt);

    const panel = page.getByTestId("changes-panel");
    await expect.poll(() => panel.getByRole("img").first().getAttribute("aria-label")).toMatch(/^1000 files changed, \d+ lines added, \d+ removed$/);
    // Virtualized: a window of rows is in the page, not all 1,000.
    const rows = await page.locator('[data-testid^="changed-file-"]').count();
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(80);
    await shot(page, "changes-panel-1000-files");

    // The keyboard: focus the list, go down to the seventh file (two calls changed it), and on to the end.
    const list = page.getByRole("listbox", { name: "Changed files" });
    await list.focus();
    for (let i = 0; i < 7; i++) await list.press("ArrowDown");
    await expect.poll(() => list.getByRole("option", { selected: true }).getAttribute("data-testid")).toBe("changed-file-6");
    const diff = page.getByTestId("file-diff");
    await diff.waitFor();
    await expect.poll(() => diff.locator(".diff-hunk-by").allTextContents()).toEqual(["by edit src/app.ts", "by subagent test-writer"]);
    expect(await diff.locator(".diff-add").first().textContent()).toContain("(changed)");
    await shot(page, "changes-panel-file-diff");
    await expectAccessible(page, "the Changes panel with a file's diff", { wholeHeight: false });

    await list.press("End");
    await expect.poll(() => list.getByRole("option", { selected: true }).getAttribute("data-testid")).toBe("changed-file-999");

    // Every seventh file answers a revert with a conflict (the bench page's in-memory commands): file 6 is one.
    await list.press("Home");
    for (let i = 0; i < 6; i++) await list.press("ArrowDown");
    await poll(() => diff.locator(".diff-hunk").count()).toBe(2);
    await page.getByTestId("revert-hunk-0").click();
    const dialog = page.getByTestId("change-conflict");
    await dialog.waitFor();
    expect(await dialog.getByRole("heading").textContent()).toBe("This file changed outside the chat");
    // Focus starts on the answer that loses nothing.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("conflict-keep");
    await dialog.getByTestId("conflict-show-diff").click();
    await dialog.locator(".diff-add").first().waitFor();
    expect(await dialog.locator(".diff-add").first().textContent()).toContain("edited by the user");
    await shot(page, "changes-panel-conflict");
    await expectAccessible(page, "the conflict dialog", { wholeHeight: false });
    await dialog.getByTestId("conflict-keep").click();
    await poll(() => page.getByRole("status").textContent()).toBe("Keep mine: reverted 0 files; kept 1 as it is.");
    expect(await dialog.count()).toBe(0);

    // Esc in the dialog does nothing; Overwrite goes ahead.
    await page.getByTestId("revert-file").click();
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await poll(() => page.getByRole("status").textContent()).toBe("Nothing was reverted.");
    await page.getByTestId("revert-file").click();
    await dialog.getByTestId("conflict-overwrite").click();
    await poll(() => page.getByRole("status").textContent()).toBe("Overwrite: reverted 1 file.");

    // The "since" chooser: this turn's half of the files.
    await page.getByLabel("Since").selectOption("turn");
    await expect.poll(() => panel.getByRole("img").first().getAttribute("aria-label")).toMatch(/^500 files changed/);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
