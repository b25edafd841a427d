/**
 * Accessibility and reading in the browser host, nothing faked: the header's model picker (keyboard, search,
 * groups, a place that does not move), long user messages folded behind "Show more" (and opened by find),
 * right-to-left text, and axe-core's rules (contrast, labels, names, ARIA) over the main screens in light and dark
 * and at a 600 px window. Screenshots of each state go to test-results/screens/a11y-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { axeViolations, formatViolations } from "../../testkit/axe";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("a11y", { models: ["test-model", "other-model"] });
  ({ browser, server, host } = rig);
});

afterAll(() => rig?.close());

const picker = (page: Page) => page.getByTestId("model-picker");
const popover = (page: Page) => page.getByTestId("model-picker-popover");
const activeTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName);
/** Whether any two rendered transcript rows overlap on screen (a row grew and the ones below it did not move). */
const rowsOverlap = (page: Page) => page.evaluate(() => {
  const rows = [...document.querySelectorAll(".vrow")].map((row) => row.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  return rows.some((row, i) => i > 0 && row.top < rows[i - 1].bottom - 1);
});
/** Whether the element's text runs right to left (its resolved direction). */
const isRtl = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).direction === "rtl");

describe("the header's model picker", () => {
  it("opens from the keyboard, filters as you type, chooses with Enter, closes with Esc, and keeps its place", async () => {
    const { page, problems } = await openChat(browser, host);
    const before = (await picker(page).boundingBox())!;
    expect(await picker(page).textContent()).toContain("test-model (Loopback)");

    await picker(page).focus();
    await page.keyboard.press("ArrowDown");
    await popover(page).waitFor();
    expect(await activeTestId(page)).toBe("model-picker-search");
    // Grouped under the endpoint's name; the current model is the active option to start with.
    expect(await popover(page).locator("[role=group]").first().getAttribute("aria-labelledby")).toBeTruthy();
    expect(await popover(page).locator(".model-picker-group-label").allTextContents()).toEqual(["Loopback"]);
    const search = page.getByTestId("model-picker-search");
    const activeOption = async () => page.locator(`[id="${await search.getAttribute("aria-activedescendant")}"]`).textContent();
    expect(await activeOption()).toContain("test-model");
    await page.keyboard.press("ArrowDown");
    expect(await activeOption()).toContain("other-model");
    await page.keyboard.press("ArrowUp");
    expect(await activeOption()).toContain("test-model");
    await shot(page, "a11y-model-picker-open");

    await page.keyboard.type("other");
    await poll(() => popover(page).getByRole("option").count()).toBe(1);
    await page.keyboard.type("zzz");
    await popover(page).getByText("No model matches").waitFor();
    expect(await search.getAttribute("aria-expanded")).toBe("false");
    for (let i = 0; i < 3; i++) await page.keyboard.press("Backspace");
    await page.keyboard.press("Enter");
    await popover(page).waitFor({ state: "detached" });
    expect(await activeTestId(page)).toBe("model-picker");
    await poll(() => picker(page).textContent()).toContain("other-model (Loopback)");

    // Esc closes without choosing and gives focus back; it does not reach the chat.
    await page.keyboard.press("Enter");
    await popover(page).waitFor();
    await page.keyboard.press("Escape");
    await popover(page).waitFor({ state: "detached" });
    expect(await activeTestId(page)).toBe("model-picker");
    expect(await picker(page).textContent()).toContain("other-model");

    // A click outside closes it too.
    await picker(page).click();
    await popover(page).waitFor();
    await page.getByTestId("composer").click();
    await popover(page).waitFor({ state: "detached" });

    // The reply moves the context meter's figures; the picker neither moves nor changes width.
    await send(page, "hello");
    await replies(page, 1);
    await poll(() => page.getByTestId("context-meter").textContent()).not.toMatch(/^0 /);
    expect(server.requests.at(-1)?.body.model).toBe("other-model");
    await shot(page, "a11y-model-picker-after-reply");
    const after = (await picker(page).boundingBox())!;
    expect({ x: Math.round(after.x), width: Math.round(after.width) }).toEqual({ x: Math.round(before.x), width: Math.round(before.width) });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("long user messages", () => {
  it("fold beyond twelve lines behind Show more / Show less, and find opens one at a match in its hidden part", async () => {
    const { page, problems } = await openChat(browser, host);
    const lines = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long paste`);
    lines[0] = "Line 1: please show this to the team";
    lines[35] = "Line 36 holds the word periwinkle";
    server.enqueue({ text: "Noted." });
    await send(page, lines.join("\n"));
    await replies(page, 1);
    const text = page.locator(".user-text");
    const toggle = page.getByRole("button", { name: "Show more" });
    await toggle.waitFor();
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await text.getAttribute("data-collapsed")).toBe("");
    const folded = (await text.boundingBox())!.height;
    const lineHeight = await text.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(folded).toBeLessThanOrEqual(12 * lineHeight + 1);
    await shot(page, "a11y-long-message-folded");

    await toggle.click();
    const less = page.getByRole("button", { name: "Show less" });
    expect(await less.getAttribute("aria-expanded")).toBe("true");
    await poll(async () => (await text.boundingBox())!.height).toBeGreaterThan(35 * lineHeight);
    expect(await rowsOverlap(page)).toBe(false);
    await less.click();
    await poll(async () => (await text.boundingBox())!.height).toBeLessThanOrEqual(12 * lineHeight + 1);
    expect(await rowsOverlap(page)).toBe(false);

    // Find in chat: the match is in the folded part, so the message opens to show it.
    await page.getByTestId("composer").press("Control+f");
    await page.getByTestId("find-input").fill("periwinkle");
    await poll(() => page.getByTestId("find-count").textContent()).toBe("1/1");
    await poll(() => page.getByRole("button", { name: "Show less" }).count()).toBe(1);
    await poll(async () => {
      const [line, list] = await Promise.all([
        page.evaluate(() => {
          const walker = document.createTreeWalker(document.querySelector(".user-text")!, NodeFilter.SHOW_TEXT);
          const node = walker.nextNode()!;
          const range = document.createRange();
          const at = node.textContent!.indexOf("periwinkle");
          range.setStart(node, at);
          range.setEnd(node, at + 10);
          const r = range.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom };
        }),
        page.getByTestId("message-list").boundingBox(),
      ]);
      return line.top >= list!.y && line.bottom <= list!.y + list!.height;
    }).toBe(true);
    expect(await rowsOverlap(page)).toBe(false);
    await shot(page, "a11y-long-message-found");
    // "Show less" is the page's words, not the message's: find marks only the message's "show".
    await page.getByTestId("find-input").fill("show");
    await poll(() => page.getByTestId("find-count").textContent()).toBe("1/1");
    await poll(() => page.evaluate(() => (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get("paddock-find")?.size)).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("right-to-left text", () => {
  it("runs right to left in messages, titles and the composer, with the sidebar's ellipsis at the title's end", async () => {
    const { page, problems } = await openChat(browser, host);
    const arabic = "مرحبا، أريد أن أخطط لرحلة طويلة إلى لشبونة مع عائلتي في الصيف القادم";
    await send(page, arabic);
    await replies(page, 1);
    await poll(() => page.locator(".session-item.active .session-title").textContent()).toContain("مرحبا");
    expect(await isRtl(page, ".session-item.active .session-title")).toBe(true);
    expect(await page.locator(".session-item.active .session-title").evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await isRtl(page, ".chat-title")).toBe(true);
    expect(await isRtl(page, ".user-text")).toBe(true);
    expect(await isRtl(page, "[data-testid=message-assistant] .md p")).toBe(true);
    // An English line in the same list stays left to right.
    await send(page, "And now in English, please.");
    await replies(page, 2);
    expect(await page.locator("[data-testid=message-assistant] .md p").last().evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
    await page.getByTestId("composer").fill("שלום, מה שלומך?");
    expect(await isRtl(page, "[data-testid=composer]")).toBe(true);
    await shot(page, "a11y-rtl");
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** The windows each screen is checked in: light and dark, wide and 600 px. */
const VARIANTS = [
  { name: "light", colorScheme: "light", width: 1100 },
  { name: "dark", colorScheme: "dark", width: 1100 },
  { name: "light-600", colorScheme: "light", width: 600 },
  { name: "dark-600", colorScheme: "dark", width: 600 },
] as const;

/**
 * Checks the page with axe in every variant (after `prepare`, which brings the state back if resizing changed it),
 * taking a screenshot of each; fails once with every violation found, by variant.
 */
async function checkEveryWay(page: Page, state: string, prepare?: () => Promise<void>): Promise<void> {
  const found: string[] = [];
  for (const variant of VARIANTS) {
    await page.setViewportSize({ width: variant.width, height: 760 });
    await page.emulateMedia({ colorScheme: variant.colorScheme });
    await prepare?.();
    // Resizing past 760 px slides the sidebar into its drawer: check and shoot once it has settled.
    await poll(() => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition && a.playState === "running").length)).toBe(0);
    await shot(page, `a11y-${state}-${variant.name}`);
    const violations = await axeViolations(page);
    if (violations.length > 0) found.push(`${state}, ${variant.name}:\n${formatViolations(violations)}`);
  }
  expect(found.join("\n"), "axe-core violations").toBe("");
}

describe("axe-core over the main screens", () => {
  it("the harness itself finds what it should: faint text, an unnamed button, an unlabelled field", async () => {
    const { page } = await openChat(browser, host);
    await page.evaluate(() => {
      const bad = document.createElement("div");
      bad.innerHTML = '<p style="color:#c8c8c8;background:#fff">too faint</p><button type="button"></button><input type="text">';
      document.querySelector("[data-testid=composer]")!.closest("div")!.append(bad);
    });
    const rules = (await axeViolations(page)).map((v) => v.rule);
    expect(rules).toEqual(expect.arrayContaining(["color-contrast", "button-name", "label"]));
    expect(formatViolations(await axeViolations(page))).toMatch(/#c8c8c8 on #ffffff is 1\.\d+:1/);
    // Text below the fold of a scrolling pane is checked too.
    await page.getByTestId("composer").press("Control+Comma");
    await page.getByTestId("settings-view").waitFor();
    await page.evaluate(() => {
      const low = document.createElement("p");
      low.textContent = "faint at the bottom";
      low.style.cssText = "color:#cccccc;background:#ffffff";
      document.querySelector("[data-testid=settings-scroll]")!.append(low);
    });
    expect(formatViolations(await axeViolations(page))).toContain("#cccccc on #ffffff");
    expect(page.viewportSize()).toEqual({ width: 1100, height: 720 });
    await page.close();
  });

  it("an empty chat", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("empty-chat").waitFor();
    await checkEveryWay(page, "empty-chat");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a chat with messages, a tool card, code and a folded long message", async () => {
    const { page, problems } = await openChat(browser, host);
    server.enqueue(
      { toolCalls: [{ name: "calculate", arguments: { expression: "6*7" } }] },
      { text: "## Result\n\nIt is **42**, see `calc`:\n\n```ts\n// the answer\nconst answer: number = 6 * 7; // \"42\"\n```\n\n> Checked twice.\n\n- one\n- two" },
    );
    await send(page, Array.from({ length: 20 }, (_, i) => `Question line ${i + 1}`).join("\n"));
    await replies(page, 2);
    await page.getByTestId("tool-card").getByRole("button").first().click();
    await page.getByTestId("tool-output").waitFor();
    await page.locator(".hljs-comment").first().waitFor();
    await checkEveryWay(page, "chat");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("the model picker, open", async () => {
    const { page, problems } = await openChat(browser, host);
    await checkEveryWay(page, "model-picker", async () => {
      if (await popover(page).count()) await page.keyboard.press("Escape");
      await picker(page).click();
      await popover(page).waitFor();
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Settings", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("composer").press("Control+Comma");
    await page.getByTestId("settings-view").waitFor();
    // Every provider's key row too, where Settings folds them away.
    const all = page.getByRole("button", { name: /Show all providers/ });
    if (await all.count()) await all.click();
    await checkEveryWay(page, "settings");
    expect(problems).toEqual([]);
    await page.close();
  });

  // Last: it takes the endpoints away, so the app shows its first-run setup.
  it("first-run setup", async () => {
    await host.call("updateSettings", { customProviders: [], onboarded: false });
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    await page.goto(host.pageUrl((await host.call<{ id: string }>("createSession")).id));
    await page.getByTestId("setup-view").waitFor();
    await checkEveryWay(page, "setup");
    await page.close();
  });
});
