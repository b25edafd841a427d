/**
 * The page a desktop window shows when the app's page does not load (main/app-page/load-failure.ts), in a real
 * Chromium: it names the failure and the address, its Reload is a link main intercepts, and it runs no script even
 * when the words it names carry markup. Screenshots: test-results/screens/load-failure-{light,dark}.png.
 */
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFailurePage, RELOAD_URL } from "../../src/main/app-page/load-failure";
import { launchChromium } from "../../testkit/launch-chromium";
import { SCREENS, shot } from "../../testkit/chat-page";

let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function open(url: string, colorScheme: "light" | "dark"): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, colorScheme });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(url);
  return { page, problems };
}

describe("the page of a window whose page did not load", () => {
  it("names the failure and the page, offers Reload, and looks right in light and dark", async () => {
    const url = loadFailurePage({ code: -6, description: "ERR_FILE_NOT_FOUND", url: "app://paddock/index.html?session=4f1c2b" });
    for (const scheme of ["light", "dark"] as const) {
      const { page, problems } = await open(url, scheme);
      await expect.poll(() => page.title()).toBe("Paddock could not load this window");
      expect(await page.getByRole("heading").innerText()).toBe("Paddock could not load this window");
      expect(await page.getByTestId("load-failure").innerText()).toBe("The page failed to load: ERR_FILE_NOT_FOUND (-6)");
      expect(await page.locator("body").innerText()).toContain("app://paddock/index.html?session=4f1c2b");
      const reload = page.getByRole("link", { name: "Reload" });
      expect(await reload.getAttribute("href")).toBe(RELOAD_URL);
      // Big enough to hit, in the middle of the window.
      const box = (await reload.boundingBox())!;
      expect(box.width).toBeGreaterThan(60);
      expect(box.height).toBeGreaterThan(25);
      await shot(page, `load-failure-${scheme}`);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("runs no script, even one hidden in the words it names", async () => {
    const url = loadFailurePage({ description: "<img src=x onerror=\"alert(1)\"><script>alert(2)</script>", url: "app://paddock/\"><script>alert(3)</script>" });
    const { page, problems } = await open(url, "light");
    expect(await page.getByTestId("load-failure").innerText()).toContain("<img src=x");
    expect(await page.locator("img, script").count()).toBe(0);
    // Its policy forbids scripts: one added later by someone else does not run either.
    const ran = await page.evaluate(async () => {
      const s = document.createElement("script");
      s.textContent = "document.body.dataset.ran = 'yes'";
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 50));
      return document.body.dataset.ran ?? "no";
    });
    expect(ran).toBe("no");
    expect(problems).toEqual([]);
    await page.close();
  });
});
