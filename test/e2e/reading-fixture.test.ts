/**
 * Reading the chat (issue 25, "Typing and reading"), in a real Chromium against the UI fixture's "reading" scenario
 * (test/e2e/fixtures: the real App; a long chat whose command output holds npm's errors, the same notice three times
 * with two others, a question waiting at the bottom), at 1,000 px: the header on one row and the context meter's
 * whole text, notices floating over the chat, merged with a count and stepping clear of a waiting question, "Jump to
 * latest" clear of the question's buttons, the sidebar hidden and shown again, find in chat landing inside a folded
 * tool card. Screenshots under test-results/ui/reading-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { fixtureBrowser, screenshotDir } from "./fixtures/serve-fixture";
import { poll, shot as chatPageShot } from "../../testkit/chat-page";

const fixture = fixtureBrowser();

const WIDE = { width: 1000, height: 760 };

const open = (scenario = "reading", viewport = WIDE): Promise<Page> => fixture.open(scenario, { viewport, ready: "message-list" });

const calls = async (page: Page, name: string): Promise<unknown[][]> => (await fixture.calls(page)).filter((c) => c.name === name).map((c) => c.args);
const shot = (page: Page, name: string) => chatPageShot(page, name, screenshotDir);
const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The text the find highlight marks as the current match (the CSS Custom Highlight API), "" when none. */
function currentHighlight(page: Page): Promise<string> {
  return page.evaluate(() => {
    const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get("paddock-find-current");
    return highlight ? [...highlight].map((r) => r.toString()).join("|") : "";
  });
}

describe("reading a chat at 1,000 px", () => {
  it("the header is one row with the tool cards and strips; the context meter's text is never clipped", async () => {
    for (const [scenario, width] of [["reading", 1000], ["header", 1000], ["reading", 1090], ["reading", 1190]] as const) {
      const page = await open(scenario, { width, height: 760 });
      await page.getByTestId("context-meter").waitFor();
      await shot(page, `reading-header-${scenario}-${width}`);
      const layout = await page.evaluate(() => {
        const header = document.querySelector<HTMLElement>(".chat-header-row")!;
        const parts = [...header.querySelectorAll<HTMLElement>(":scope > *, .chat-controls > *")].filter((el) => el.getClientRects().length > 0);
        const middles = parts.map((el) => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
        return { overflows: header.scrollWidth > header.clientWidth, spread: Math.max(...middles) - Math.min(...middles), height: header.getBoundingClientRect().height };
      });
      const where = `${scenario} at ${width} px`;
      expect(layout.overflows, where).toBe(false);
      expect(layout.spread, where).toBeLessThan(4);
      expect(layout.height, where).toBeLessThan(60);
      // Up to 80rem the meter is its bar; its whole figure is in its tooltip and name, and opens in its panel.
      const meter = page.getByTestId("context-meter");
      expect(await meter.getAttribute("title")).toMatch(/^Context: about [\d,]+ tokens of the model's [\d,]+/);
      await page.close();
    }
    // Wide enough for the figures: each shows whole.
    const page = await open("reading", { width: 1400, height: 760 });
    const figures = page.locator(".context-figures");
    await figures.waitFor();
    expect(await figures.evaluate((el) => el.scrollWidth <= el.clientWidth && el.textContent!.includes(" / "))).toBe(true);
    await page.evaluate(() => {
      // The longest text it can show: the button grows rather than cut it.
      document.querySelector(".context-figures")!.textContent = "999.9k / 1.0M";
    });
    expect(await figures.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await figures.evaluate((el) => el.getBoundingClientRect().right <= el.parentElement!.getBoundingClientRect().right)).toBe(true);
  });

  it("notices float over the chat without pushing it down, stack, and identical ones merge with a count", async () => {
    const page = await open();
    const notices = page.getByTestId("notice");
    await poll(() => notices.count()).toBe(3);
    const merged = notices.filter({ hasText: "Could not summarise earlier messages" });
    expect(await merged.getByTestId("notice-count").textContent()).toBe("×3");
    expect(await merged.getByRole("button").last().getAttribute("aria-label")).toBe("Dismiss notice (all 3)");
    await shot(page, "reading-notices-1000");
    // The message list starts right under the header: the notices are over it, not above it.
    const header = await box(page, ".chat-header");
    const list = await box(page, "[data-testid=message-list]");
    expect(Math.abs(list.y - (header.y + header.height))).toBeLessThan(2);
    const stack = await box(page, "[data-testid=notice-stack]");
    expect(stack.y).toBeGreaterThanOrEqual(list.y);
    expect(stack.height).toBeLessThan(list.height / 2);
    // Stacked one under the other, the app's first.
    const texts = await notices.allTextContents();
    expect(texts[0]).toContain("settings file was corrupt");
    const ys = await Promise.all([0, 1, 2].map(async (i) => (await notices.nth(i).boundingBox())!.y));
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);

    // Dismissing the merged one dismisses all three; the list does not move.
    await merged.getByRole("button", { name: "Dismiss notice (all 3)" }).click();
    await poll(() => notices.count()).toBe(2);
    expect((await calls(page, "dismissNotice")).map(([id]) => id).sort()).toEqual([11, 13, 14]);
    expect((await box(page, "[data-testid=message-list]")).y).toBe(list.y);

    // The header's panels open over the notices (the header, a size container, is a stacking context of its own).
    await page.getByTestId("model-picker").click();
    const popover = page.getByTestId("model-picker-popover");
    await popover.waitFor();
    await shot(page, "reading-header-panel-over-notices-1000");
    const over = await page.evaluate(() => {
      const panel = document.querySelector("[data-testid=model-picker-popover]")!.getBoundingClientRect();
      const notice = document.querySelector("[data-testid=notice-stack]")!.getBoundingClientRect();
      const x = Math.max(panel.left, notice.left) + 4;
      const y = Math.max(panel.top, notice.top) + 4;
      const overlapping = x < Math.min(panel.right, notice.right) && y < Math.min(panel.bottom, notice.bottom);
      return { overlapping, topmostIsPanel: document.elementFromPoint(x, y)?.closest("[data-testid=model-picker-popover]") !== null };
    });
    expect(over).toEqual({ overlapping: true, topmostIsPanel: true });
  });

  it("\"Jump to latest\" never covers the question's buttons", async () => {
    const page = await open();
    await page.getByTestId("approval").waitFor();
    const list = page.getByTestId("message-list");
    const jump = page.getByTestId("jump-latest");
    // The chat opens at its bottom and its rows are measured as they render: wait until it has settled there (on a
    // loaded machine the last rows are still being measured when the question shows).
    let lastHeight = -1;
    await poll(() => list.evaluate((el, before) => {
      const settled = el.scrollHeight === before && el.scrollHeight - el.scrollTop - el.clientHeight <= 1;
      return settled ? -1 : el.scrollHeight;
    }, lastHeight).then((h) => (h === -1 ? true : ((lastHeight = h), false)))).toBe(true);
    // Scrolled up so the question's buttons sit where the button would be (again if a late measurement re-pinned it).
    await poll(async () => {
      await list.evaluate((el) => {
        const actions = el.querySelector(".approval-actions")!.getBoundingClientRect();
        const bottom = el.getBoundingClientRect().bottom;
        el.scrollTop -= bottom - 12 - 16 - (actions.top + actions.bottom) / 2;
      });
      return jump.isVisible();
    }).toBe(true);
    await page.waitForTimeout(100);
    await shot(page, "reading-jump-with-approval-1000");
    const buttons = page.getByTestId("approval").getByRole("button");
    const visible = await jump.evaluate((el) => getComputedStyle(el).visibility !== "hidden");
    if (visible) {
      const at = (await jump.boundingBox())!;
      for (let i = 0; i < (await buttons.count()); i++) expect(overlaps(at, (await buttons.nth(i).boundingBox())!)).toBe(false);
    }
    // The question's buttons are clickable where they are: Allow once answers. (On a loaded machine rows above are
    // still being measured and the list moves under the pointer between Playwright's aim and its click: click again.)
    const answered = async () => (await calls(page, "answerApproval")).length;
    await poll(async () => {
      if ((await answered()) === 0) await page.getByTestId("approval-once").click({ timeout: 5_000 }).catch(() => undefined);
      return answered();
    }).toBe(1);
    // Back at the bottom, and up far: the button is at its usual place again.
    // (The answered question leaves the card shorter: the list may be at its end already, the button gone.)
    // It can go between the check and the click (the list reaching its end as the card shrinks): then it was not needed.
    if (await jump.isVisible()) await jump.click({ timeout: 3_000 }).catch(() => undefined);
    await list.evaluate((el) => void (el.scrollTop = 0));
    await jump.waitFor();
    const far = (await jump.boundingBox())!;
    const listBox = (await list.boundingBox())!;
    expect(Math.round(listBox.y + listBox.height - (far.y + far.height))).toBe(12);
  }, 60_000); // three polls of up to 15 s each: on a loaded CI machine their sum passed the 30 s default

  it("the notices and \"Jump to latest\" are placed in one layout pass a frame: a burst of scrolls reads the list's place once", async () => {
    const page = await open();
    const list = page.getByTestId("message-list");
    await page.getByTestId("approval").waitFor();
    await poll(() => page.getByTestId("notice").count()).toBe(3);
    await list.evaluate((el) => void (el.scrollTop = 0));
    await page.getByTestId("jump-latest").waitFor();
    const reads = await list.evaluate(async (el) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      await frame();
      await frame();
      // Every read of the list's rectangle counted: fifty scroll events in one task, then the frame they asked for
      // (this callback, asked for after them, runs after the pass in that frame).
      let count = 0;
      const read = Element.prototype.getBoundingClientRect;
      Element.prototype.getBoundingClientRect = function (this: Element) {
        if (this === el) count++;
        return read.call(this);
      };
      try {
        for (let i = 0; i < 50; i++) el.dispatchEvent(new Event("scroll"));
        await frame();
      } finally {
        Element.prototype.getBoundingClientRect = read;
      }
      return count;
    });
    expect(reads).toBe(1);
    // Both were placed in that pass: the notices at their place (no question near), the button at its usual gap.
    const listBox = (await list.boundingBox())!;
    const jump = (await page.getByTestId("jump-latest").boundingBox())!;
    expect(Math.round(listBox.y + listBox.height - (jump.y + jump.height))).toBe(12);
    expect(await page.getByTestId("notice-stack").evaluate((el) => getComputedStyle(el).visibility)).toBe("visible");
  });

  it("the notices never cover a waiting question: they step below its words and buttons, and back when it moves on", async () => {
    // Low enough that the question, the chat's last row, reaches the notices at the top of the list.
    const page = await open("reading", { width: 1000, height: 480 });
    const list = page.getByTestId("message-list");
    await page.getByTestId("approval").waitFor();
    await poll(() => page.getByTestId("notice").count()).toBe(3);
    const stack = page.getByTestId("notice-stack");
    // Where the notices float with no question under them: the chat scrolled far up.
    await list.evaluate((el) => void (el.scrollTop = 0));
    await page.waitForTimeout(100);
    const home = (await stack.boundingBox())!;
    const clear = async (where: string) => {
      await page.waitForTimeout(100); // the notices are placed in the next frame
      const layout = await page.evaluate(() => {
        const panel = document.querySelector("[data-testid=approval]")!;
        const r = (el: Element) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; };
        const asked = panel.querySelector(".approval-summary")!.getBoundingClientRect();
        const top = panel.getBoundingClientRect();
        const stackEl = document.querySelector("[data-testid=notice-stack]")!;
        // What the user sees at the middle of the question's words: the question itself, not a notice.
        const probe = document.elementFromPoint(asked.x + asked.width / 2, (top.top + asked.bottom) / 2);
        return {
          question: { x: top.x, y: top.top, width: top.width, height: asked.bottom - top.top },
          actions: r(panel.querySelector(".approval-actions")!),
          stack: r(stackEl),
          hidden: getComputedStyle(stackEl).visibility === "hidden",
          listTop: document.querySelector("[data-testid=message-list]")!.getBoundingClientRect().top,
          seen: probe ? panel.contains(probe) || probe.closest("[data-testid=notice-stack]") === null : false,
        };
      });
      if (!layout.hidden) {
        expect(overlaps(layout.stack, layout.question), where).toBe(false);
        expect(overlaps(layout.stack, layout.actions), where).toBe(false);
      }
      if (layout.question.y >= layout.listTop) expect(layout.seen, where).toBe(true);
      return layout;
    };
    // The question scrolled to the top of the list, a little below it, and as far up as the chat goes (its end).
    let moved = false;
    for (const offset of [0, 24, 60]) {
      await list.evaluate((el) => void (el.scrollTop = el.scrollHeight)); // the question's row is rendered
      await page.getByTestId("approval").waitFor();
      await list.evaluate((el, at) => {
        const panel = el.querySelector("[data-testid=approval]")!.getBoundingClientRect();
        el.scrollTop += panel.top - (el.getBoundingClientRect().top + at);
      }, offset);
      const layout = await clear(`question ${offset} px below the list's top`);
      if (offset === 24) await shot(page, "reading-notices-clear-of-question-1000");
      moved ||= layout.hidden || Math.round(layout.stack.y) !== Math.round(home.y);
    }
    await list.evaluate((el) => void (el.scrollTop = el.scrollHeight));
    await clear("at the chat's end");
    await shot(page, "reading-notices-clear-of-question-end-1000");
    // They did step aside for it (the question does come under their usual place here).
    expect(moved).toBe(true);
    // Scrolled far up again, the question gone from view: the notices are back at their place.
    await list.evaluate((el) => void (el.scrollTop = 0));
    await page.waitForTimeout(100);
    expect((await stack.boundingBox())!.y).toBe(home.y);
    expect(await stack.evaluate((el) => getComputedStyle(el).visibility)).toBe("visible");
  });

  it("the sidebar hides and shows again (its button, the header's, Ctrl+B), remembered across a reload", async () => {
    const page = await open();
    const nav = page.getByRole("navigation", { name: "Sessions" });
    await page.getByRole("button", { name: "Hide chats" }).click();
    await poll(() => nav.isVisible()).toBe(false);
    // The focus goes to the button that brings it back.
    const show = page.getByRole("button", { name: "Show chats" });
    await poll(() => show.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await show.getAttribute("aria-keyshortcuts")).toBe("Control+B");
    expect((await box(page, ".chat-header")).x).toBe(0);
    await shot(page, "reading-sidebar-hidden-1000");

    await page.reload();
    await page.getByTestId("message-list").waitFor();
    expect(await nav.isVisible()).toBe(false);
    await show.click();
    await poll(() => nav.isVisible()).toBe(true);
    await poll(() => page.getByRole("button", { name: "Hide chats" }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await show.isVisible()).toBe(false);

    // The shortcut, from the message box: the focus stays where the user types.
    await page.getByTestId("composer").click();
    await page.keyboard.press("Control+b");
    await poll(() => nav.isVisible()).toBe(false);
    expect(await page.getByTestId("composer").evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Control+b");
    await poll(() => nav.isVisible()).toBe(true);
    await page.reload();
    await page.getByTestId("message-list").waitFor();
    expect(await nav.isVisible()).toBe(true);
  });

  it("find in chat finds text in a tool's output: the folded card opens and the text is marked", async () => {
    const page = await open();
    const card = page.locator('[data-tool-call="c_ls"]');
    await card.waitFor();
    expect(await card.locator(".tool-header").getAttribute("aria-expanded")).toBe("false");
    await page.getByTestId("composer").click();
    await page.keyboard.press("Control+f");
    const input = page.getByTestId("find-input");
    await input.fill("peer dep missing");
    await poll(() => page.getByTestId("find-count").textContent()).toBe("1/1");
    await poll(() => card.locator(".tool-header").getAttribute("aria-expanded")).toBe("true");
    await poll(() => currentHighlight(page)).toBe("peer dep missing");
    expect(await page.evaluate(() => {
      const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get("paddock-find-current")!;
      const [range] = [...highlight];
      return range.startContainer.parentElement?.closest("[data-find-output]")?.closest("[data-tool-call]")?.getAttribute("data-tool-call");
    })).toBe("c_ls");
    await shot(page, "reading-find-in-tool-output-1000");
    // The failed install's npm error too, each occurrence counted.
    await input.fill("npm ERR!");
    await poll(() => page.getByTestId("find-count").textContent()).toBe("3/3");
    await poll(() => currentHighlight(page)).toBe("npm ERR!");
  });

  it("over Settings, main's notices float on their own, clear of its header", async () => {
    const page = await open("notices");
    await page.locator(".settings-button").click();
    const notice = page.getByTestId("notice").filter({ hasText: "settings file was corrupt" });
    await notice.waitFor();
    await shot(page, "reading-notices-over-settings-1000");
    const header = await box(page, ".settings-header");
    const at = (await notice.boundingBox())!;
    expect(at.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
    await notice.getByRole("button", { name: "Dismiss notice" }).click();
    await poll(() => page.getByTestId("notice").count()).toBe(0);
  });
});
