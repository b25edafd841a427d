/**
 * Settings as a user meets them, nothing faked: the web host with the loopback model as an endpoint, the built page
 * in Chromium. The sections' index (click, keyboard, scrolling, a 600 px window), the API keys by display name with
 * the configured ones first, and the welcome setup shown on request while an endpoint exists. Screenshots go to
 * test-results/screens/settings-*.png, light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, shot } from "../../testkit/chat-page";
import { expectAccessible } from "../../testkit/axe";

let rig: E2eRig;
beforeAll(async () => {
  rig = await startE2eRig("settings");
});
afterAll(async () => {
  await rig?.close();
});

/** A chat page (light unless told), with Settings open. At a narrow width the sidebar is a drawer: opened first. */
async function openSettings(options: { width?: number; colorScheme?: "light" | "dark" } = {}) {
  const chat = await openChat(rig.browser, rig.host);
  const { page } = chat;
  await page.setViewportSize({ width: options.width ?? 1100, height: 720 });
  await page.emulateMedia({ colorScheme: options.colorScheme ?? "light" });
  if ((options.width ?? 1100) <= 760) await page.getByRole("button", { name: "Show chats" }).click();
  await page.getByTestId("open-settings").click();
  await page.getByTestId("settings-view").waitFor();
  // The drawer slides away (0.15 s): screenshots and boxes are taken once it is gone.
  const drawerEdge = async () => ((b) => (b ? b.x + b.width : 0))(await page.locator(".sidebar").boundingBox());
  if ((options.width ?? 1100) <= 760) await poll(drawerEdge).toBeLessThanOrEqual(0);
  return chat;
}

const index = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });
const currentEntry = (page: Page) => index(page).locator("a[aria-current]").textContent();
/** The top of `selector`'s box relative to the top of Settings' scrolling area, in px. */
const topInView = (page: Page, selector: string) => page.evaluate((sel) => {
  const view = document.querySelector("[data-testid=settings-scroll]")!.getBoundingClientRect();
  return document.querySelector(sel)!.getBoundingClientRect().top - view.top;
}, selector);
/** Other engineers' parts of the page (the sidebar, the endpoint editor, MCP servers) are checked by their tests. */
const NOT_MINE = [".sidebar", "#settings-section-endpoints .settings-card", "#settings-section-mcp .settings-card"];
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

describe("Settings' sections and their index", () => {
  it("takes the reader to a section by click or keyboard, and follows the scrolling", async () => {
    const { page, problems } = await openSettings();
    await index(page).waitFor();
    // One entry per section, in the page's order (others may add sections: MCP servers, say).
    const entries = await index(page).getByRole("link").allTextContents();
    const headings = await page.locator(".settings-section > h2").allTextContents();
    expect(entries).toEqual(headings);
    const mine = ["Models & keys", "Endpoints", "Chats & runs", "Workspace & tools", "Agents & subagents", "Appearance"];
    expect(entries.filter((e) => mine.includes(e))).toEqual(mine);
    expect(await currentEntry(page)).toBe("Models & keys");
    await shot(page, "settings-index-light");

    // A click: the section's heading comes to the top, gets focus, and its entry is marked.
    await index(page).getByRole("link", { name: "Chats & runs" }).click();
    await poll(() => currentEntry(page)).toBe("Chats & runs");
    expect(Math.abs(await topInView(page, "#settings-section-chats"))).toBeLessThan(12);
    expect(await focusedId(page)).toBe("settings-section-chats-title");

    // The keyboard: Tab reaches the index's links, Enter follows one, and Tab goes on inside that section.
    await page.getByRole("button", { name: "Done" }).focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Models & keys");
    // As many Tabs as entries lie between (other sections, Budgets say, may sit among these).
    for (let i = entries.indexOf("Models & keys"); i < entries.indexOf("Workspace & tools"); i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Workspace & tools");
    await page.keyboard.press("Enter");
    await poll(() => currentEntry(page)).toBe("Workspace & tools");
    expect(await focusedId(page)).toBe("settings-section-tools-title");
    await page.keyboard.press("Tab");
    expect(await focusedId(page)).toBe("set-tool-read");

    // The last, short section cannot reach the top: chosen, it is still the one marked.
    await index(page).getByRole("link", { name: "Appearance" }).click();
    await poll(() => currentEntry(page)).toBe("Appearance");
    expect(await page.getByRole("heading", { name: "Appearance", level: 2 }).isVisible()).toBe(true);

    // Scrolling by hand moves the mark with the reader.
    const scroller = page.getByTestId("settings-scroll");
    await scroller.hover();
    await page.mouse.wheel(0, -100_000);
    await poll(() => currentEntry(page)).toBe("Models & keys");
    const chatsTop = await topInView(page, "#settings-section-chats");
    await page.mouse.wheel(0, chatsTop - 20);
    await poll(() => currentEntry(page)).toBe("Chats & runs");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("at 600 px wide puts the index in a strip on top that stays while the sections scroll under it", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const { page, problems } = await openSettings({ width: 600, colorScheme });
      const strip = await index(page).boundingBox();
      const links = await index(page).getByRole("link").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
      expect(new Set(links.map(Math.round)).size).toBe(1); // one row
      expect(await topInView(page, "#settings-section-models")).toBeGreaterThanOrEqual(strip!.height - 1);
      await shot(page, `settings-600-${colorScheme}`);
      await expectAccessible(page, `Settings, ${colorScheme}, 600 px`, { exclude: NOT_MINE });

      await index(page).getByRole("link", { name: "Agents & subagents" }).click();
      await poll(() => currentEntry(page)).toBe("Agents & subagents");
      // The heading shows below the strip, and the strip is still where it was.
      const heading = await page.getByRole("heading", { name: "Agents & subagents", level: 2 }).boundingBox();
      const stripNow = await index(page).boundingBox();
      expect(stripNow!.y).toBeCloseTo(strip!.y, 0);
      expect(heading!.y).toBeGreaterThanOrEqual(stripNow!.y + stripNow!.height - 1);
      // The marked entry is scrolled into the strip.
      const marked = await index(page).locator("a[aria-current]").boundingBox();
      expect(marked!.x).toBeGreaterThanOrEqual(stripNow!.x - 1);
      expect(marked!.x + marked!.width).toBeLessThanOrEqual(stripNow!.x + stripNow!.width + 1);
      await shot(page, `settings-600-agents-${colorScheme}`);
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});

describe("API keys in Settings", () => {
  it("names providers as people know them, the configured ones first, the rest behind Show all with a filter", async () => {
    const { page, problems } = await openSettings();
    const configuredIds = () => page.locator("#settings-section-models .settings-card > form.key-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid")));
    const restIds = () => page.getByTestId("key-rows-rest").locator("form.key-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid")));
    const before = await configuredIds();
    expect(before).not.toContain("api-key-xiaomi-token-plan-ams");

    const showAll = page.getByTestId("show-all-providers");
    expect(await showAll.getAttribute("aria-expanded")).toBe("false");
    expect(await showAll.textContent()).toMatch(/^Show all providers \(\d+\)$/);
    await showAll.click();
    expect(await showAll.getAttribute("aria-expanded")).toBe("true");
    const names = await page.getByTestId("key-rows-rest").locator(".key-row label").allTextContents();
    expect(names.length).toBeGreaterThan(10);
    expect(names).toContain("Xiaomi Token Plan (Amsterdam)");
    expect(names.filter((n) => /^[a-z0-9]+(-[a-z0-9]+)+$/.test(n))).toEqual([]); // no raw ids
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    await shot(page, "settings-keys-all");
    await expectAccessible(page, "Settings with every provider, light", { exclude: NOT_MINE });

    await page.getByTestId("provider-filter").fill("xiaomi ams");
    expect(await page.getByTestId("key-rows-rest").locator(".key-row label").allTextContents()).toEqual(["Xiaomi Token Plan (Amsterdam)"]);
    await page.getByLabel("Xiaomi Token Plan (Amsterdam)").fill("sk-test-key");
    await page.getByTestId("api-key-xiaomi-token-plan-ams").getByRole("button", { name: "Save" }).click();

    // With a key it joins the configured rows at the top, out of the rest.
    await poll(configuredIds).toContain("api-key-xiaomi-token-plan-ams");
    expect(await restIds()).not.toContain("api-key-xiaomi-token-plan-ams");
    expect(await page.getByTestId("api-key-xiaomi-token-plan-ams").getByTestId("key-status").textContent()).toBe("Key saved");
    await page.getByTestId("provider-filter").fill("");
    await shot(page, "settings-keys-configured");

    await page.getByTestId("api-key-xiaomi-token-plan-ams").getByRole("button", { name: "Remove" }).click();
    await poll(configuredIds).toEqual(before);
    expect(await restIds()).toContain("api-key-xiaomi-token-plan-ams");
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the welcome setup from Settings", () => {
  it("shows now, though an endpoint exists, and Skip goes back to chatting with nothing changed", async () => {
    const settingsBefore = await rig.host.call<{ onboarded: boolean; customProviders: unknown[] }>("getSettings");
    expect(settingsBefore.customProviders.length).toBeGreaterThan(0);
    const { page, problems } = await openSettings();
    expect(await page.getByText("Setup finished").count()).toBe(0); // the old checkbox that did nothing is gone
    await page.getByRole("button", { name: "Show the welcome setup" }).click();
    await page.getByTestId("setup-view").waitFor();
    await shot(page, "settings-welcome-setup");
    await page.getByRole("button", { name: "Skip for now" }).click();
    await page.getByTestId("composer").waitFor();
    expect(await page.getByTestId("setup-view").count()).toBe(0);
    const settingsAfter = await rig.host.call<{ onboarded: boolean; customProviders: unknown[] }>("getSettings");
    expect(settingsAfter).toEqual(settingsBefore);

    // Settings open again as usual, and so does the setup.
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    await page.getByTestId("show-setup").click();
    await page.getByTestId("setup-view").waitFor();
    // Opening Settings from the sidebar leaves the setup for Settings.
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    expect(await page.getByTestId("setup-view").count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("looks right in the dark theme too", async () => {
    const { page } = await openSettings({ colorScheme: "dark" });
    await shot(page, "settings-index-dark");
    await index(page).getByRole("link", { name: "Models & keys" }).click();
    await page.getByTestId("show-all-providers").click();
    await shot(page, "settings-keys-dark");
    await expectAccessible(page, "Settings with every provider, dark", { exclude: NOT_MINE });
    await page.close();
  });
});

describe("the shell command prefix in Settings", () => {
  it("is pi's shellCommandPrefix: typed under Workspace & tools, saved when the field is left, shown again on return", async () => {
    const { page, problems } = await openSettings();
    await index(page).getByRole("link", { name: "Workspace & tools" }).click();
    const field = page.getByLabel("Shell command prefix");
    expect(await field.inputValue()).toBe("");
    expect(await field.getAttribute("placeholder")).toBe("shopt -s expand_aliases");
    await field.fill("shopt -s expand_aliases\nsource ~/.bash_aliases");
    await field.blur();
    const saved = async () => (await rig.host.call<{ tools: { shellCommandPrefix?: string } }>("getSettings")).tools.shellCommandPrefix;
    await poll(saved).toBe("shopt -s expand_aliases\nsource ~/.bash_aliases");
    await field.scrollIntoViewIfNeeded();
    await shot(page, "settings-shell-prefix");
    await expectAccessible(page, "Workspace & tools with a shell command prefix", { exclude: NOT_MINE });

    expect(problems).toEqual([]);
    await page.close();

    // In Settings opened anew, the field shows what was saved; emptied (blank counts as empty), the prefix is gone.
    const again = await openSettings();
    const shown = again.page.getByLabel("Shell command prefix");
    expect(await shown.inputValue()).toBe("shopt -s expand_aliases\nsource ~/.bash_aliases");
    await shown.fill("   ");
    await shown.blur();
    await poll(saved).toBe("");
    expect(again.problems).toEqual([]);
    await again.page.close();
  });

  it("looks right in the dark theme", async () => {
    const { page } = await openSettings({ colorScheme: "dark" });
    await index(page).getByRole("link", { name: "Workspace & tools" }).click();
    await page.getByLabel("Shell command prefix").fill("shopt -s expand_aliases");
    await page.getByLabel("Shell command prefix").scrollIntoViewIfNeeded();
    await shot(page, "settings-shell-prefix-dark");
    await page.getByLabel("Shell command prefix").fill("");
    await page.getByLabel("Shell command prefix").blur();
    await page.close();
  });
});
