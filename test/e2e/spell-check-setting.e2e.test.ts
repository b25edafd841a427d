/**
 * Settings' spelling switch (main/app-page/spell-check.ts), in a real Chromium against the UI fixture: the desktop
 * app's services (`?desktop=1`) offer it, off until turned on, and turning it on saves `spellCheck`; the browser host,
 * where the browser's own checker applies, shows none. Screenshot: test-results/ui/settings-spelling.png.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fixtureBrowser, screenshotDir } from "./fixtures/serve-fixture";
import { poll, shot } from "../../testkit/chat-page";

const fixture = fixtureBrowser();

async function openSettings(query: string): Promise<{ page: Page; problems: string[] }> {
  const page = await fixture.open("empty", { query, viewport: { width: 1100, height: 720 } });
  await page.getByTestId("open-settings").click();
  await page.getByTestId("settings-view").waitFor();
  return { page, problems: fixture.problems(page) };
}

describe("the spelling switch", () => {
  it("in the desktop app: off until turned on, and turning it on saves it", async () => {
    const { page, problems } = await openSettings("&desktop=1");
    const section = page.locator("#settings-section-appearance");
    await section.scrollIntoViewIfNeeded();
    const box = section.getByRole("checkbox", { name: "Check spelling as I type" });
    expect(await box.isChecked()).toBe(false);
    await expect.poll(() => section.innerText()).toContain("downloads your language's dictionary from Google's servers");
    await box.check();
    await poll(() => page.evaluate(() => (globalThis as any).__fixture.app.settings.spellCheck)).toBe(true);
    expect(await box.isChecked()).toBe(true);
    await shot(page, "settings-spelling", screenshotDir);
    await box.uncheck();
    await poll(() => page.evaluate(() => (globalThis as any).__fixture.app.settings.spellCheck)).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("in the browser host: not offered (the browser's own checker applies)", async () => {
    const { page, problems } = await openSettings("");
    await page.locator("#settings-section-appearance").getByRole("radiogroup", { name: "Theme" }).waitFor();
    expect(await page.getByRole("checkbox", { name: "Check spelling as I type" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
