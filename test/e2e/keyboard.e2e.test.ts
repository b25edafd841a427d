/**
 * The keyboard as a user meets it in the browser host, nothing faked: Esc closing Settings, menus, popovers and the
 * narrow window's drawer (with focus going in and coming back), deleting chats from the keyboard without losing
 * the focus, the shortcut list (Ctrl+/) and the shortcuts for a new chat and the message box, and the undo toast
 * covering nothing. Screenshots go to test-results/screens/keyboard-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { SHORTCUTS } from "../../src/shared/shortcuts";
import { axeViolations, formatViolations } from "../../testkit/axe";

let rig: E2eRig;
let browser: Browser;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("keyboard");
  ({ browser, host } = rig);
});

afterAll(() => rig?.close());

interface Focus {
  testId: string | null;
  label: string | null;
  role: string | null;
  /** The chat whose sidebar row holds the focus, if any. */
  session: string | null;
  inSidebar: boolean;
}

/** Where the keyboard focus is now. */
const focus = (page: Page): Promise<Focus> => page.evaluate(() => {
  const el = document.activeElement;
  return {
    testId: el?.getAttribute("data-testid") ?? null,
    label: el?.getAttribute("aria-label") ?? null,
    role: el?.getAttribute("role") ?? null,
    session: el?.closest("[data-session-id]")?.getAttribute("data-session-id") ?? null,
    inSidebar: !!el?.closest("nav.sidebar"),
  };
});

const item = (page: Page, id: string) => page.locator(`[data-testid=session-item][data-session-id="${id}"]`);
/** The sidebar's chats, top to bottom. */
const listed = (page: Page) => page.getByTestId("session-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-session-id")!));
const activeChat = (page: Page) => page.locator(".session-item.active").getAttribute("data-session-id");
const drawerOpen = async (page: Page) => (await page.locator(".app.sidebar-open").count()) === 1;

interface Box { x: number; y: number; width: number; height: number }
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
}

/** `n` more chats in the host (they reach the open page's sidebar as main's events). */
async function moreChats(page: Page, n: number): Promise<string[]> {
  const before = await page.getByTestId("session-item").count();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await host.call<{ id: string }>("createSession")).id);
  await poll(() => page.getByTestId("session-item").count()).toBe(before + n);
  return ids;
}

describe("Esc closes what is open, and the focus goes back where it came from", () => {
  it("closes Settings, opened by its button or by Ctrl+,", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("settings-view").waitFor({ state: "detached" });
    await page.getByTestId("composer").waitFor();

    await page.getByTestId("composer").focus();
    await page.keyboard.press("Control+,");
    await page.getByTestId("settings-view").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("settings-view").waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("closes the chat's menu and a chat's menu in the list, focus back on their buttons", async () => {
    const { page, sessionId, problems } = await openChat(browser, host);
    await page.getByTestId("chat-menu").click();
    await page.getByRole("menu").waitFor();
    expect((await focus(page)).role).toBe("menuitem");
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    expect((await focus(page)).testId).toBe("chat-menu");

    const menuButton = item(page, sessionId).locator(".session-menu-button");
    await menuButton.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    const back = await focus(page);
    expect(back.session).toBe(sessionId);
    expect(back.label).toMatch(/^Actions for/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("closes the header's popovers, with the focus in the panel or on the button that opened it", async () => {
    const { page, problems } = await openChat(browser, host);
    const panel = page.getByRole("dialog", { name: "Workspace" });
    await page.getByTestId("workspace-button").click();
    await panel.waitFor();
    expect((await focus(page)).testId).toBe("workspace-path");
    await shot(page, "keyboard-popover-open");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    expect((await focus(page)).testId).toBe("workspace-button");

    await page.getByTestId("workspace-button").click();
    await panel.waitFor();
    await page.getByTestId("workspace-button").focus();
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    expect((await focus(page)).testId).toBe("workspace-button");

    await page.getByTestId("context-meter").click();
    await page.getByRole("dialog", { name: "Context" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Context" }).waitFor({ state: "detached" });
    expect((await focus(page)).testId).toBe("context-meter");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens the drawer of a 600 px window with the focus inside it, keeps Tab there, and Esc gives the focus back to its button", async () => {
    const { page, sessionId, problems } = await openChat(browser, host);
    await page.setViewportSize({ width: 600, height: 800 });
    const toggle = page.getByRole("button", { name: "Show chats" });
    await toggle.waitFor();

    // Closed, the drawer is out of reach: Tab from the message box never lands in it.
    expect(await page.locator("nav.sidebar").getAttribute("inert")).not.toBeNull();
    await page.getByTestId("composer").focus();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      expect((await focus(page)).inSidebar).toBe(false);
    }

    await toggle.focus();
    await page.keyboard.press("Enter");
    await poll(() => drawerOpen(page)).toBe(true);
    await poll(() => focus(page)).toMatchObject({ inSidebar: true, session: sessionId });
    expect(await page.locator("main.main").getAttribute("inert")).not.toBeNull();
    await page.waitForTimeout(300); // the slide-in transition, for the screenshot
    expect(formatViolations(await axeViolations(page))).toBe("");
    await shot(page, "keyboard-drawer-open");
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      expect((await focus(page)).inSidebar).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Shift+Tab");
      expect((await focus(page)).inSidebar).toBe(true);
    }

    await page.keyboard.press("Escape");
    await poll(() => drawerOpen(page)).toBe(false);
    expect((await focus(page)).label).toBe("Show chats");
    expect(await page.locator("nav.sidebar").getAttribute("inert")).not.toBeNull();

    // A click beside the drawer closes it too, and the focus comes back the same way.
    await toggle.click();
    await poll(() => drawerOpen(page)).toBe(true);
    await page.mouse.click(590, 400);
    await poll(() => drawerOpen(page)).toBe(false);
    expect((await focus(page)).label).toBe("Show chats");

    // Esc in the drawer's search box clears the search first, and closes the drawer only then.
    await toggle.click();
    await poll(() => drawerOpen(page)).toBe(true);
    await page.getByTestId("session-search").fill("zzz");
    await page.keyboard.press("Escape");
    expect(await page.getByTestId("session-search").inputValue()).toBe("");
    expect(await drawerOpen(page)).toBe(true);
    await page.keyboard.press("Escape");
    await poll(() => drawerOpen(page)).toBe(false);

    // Settings opened from the drawer replaces the chat and its button: the focus goes to Settings' heading.
    await toggle.click();
    await poll(() => drawerOpen(page)).toBe(true);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe("settings-title");
    await page.keyboard.press("Escape");
    await page.getByTestId("settings-view").waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("deleting chats from the keyboard", () => {
  it("keeps the focus in the list: on the next chat, or the previous one at the end, and on the list when the open chat goes", async () => {
    // Two older chats, so the open chat is not at the end even after the last chat goes.
    const older = [(await host.call<{ id: string }>("createSession")).id, (await host.call<{ id: string }>("createSession")).id];
    const { page, sessionId, problems } = await openChat(browser, host);
    await item(page, older[0]).waitFor();
    await moreChats(page, 3);
    let order = await listed(page);

    // A chat in the middle: the focus goes to the one after it.
    const middle = order[1];
    expect(middle).not.toBe(sessionId);
    await item(page, middle).locator(".session-open").focus();
    await page.keyboard.press("Delete");
    await item(page, middle).waitFor({ state: "detached" });
    await poll(() => focus(page)).toMatchObject({ session: order[2], inSidebar: true });

    // The last chat: to the one before it.
    order = await listed(page);
    const last = order[order.length - 1];
    expect(last).not.toBe(sessionId);
    await item(page, last).locator(".session-open").focus();
    await page.keyboard.press("Delete");
    await item(page, last).waitFor({ state: "detached" });
    await poll(() => focus(page)).toMatchObject({ session: order[order.length - 2] });

    // The open chat: another chat opens, and the focus stays in the list rather than going to its message box.
    order = await listed(page);
    const after = order[order.indexOf(sessionId) + 1];
    expect(after).toBeDefined();
    await item(page, sessionId).locator(".session-open").focus();
    await page.keyboard.press("Delete");
    await item(page, sessionId).waitFor({ state: "detached" });
    await poll(() => activeChat(page)).toBe(after); // the neighbour opens, where the focus goes
    await page.getByTestId("composer").waitFor();
    await page.waitForTimeout(300); // time for a composer that wrongly grabs the focus to do it
    expect(await focus(page)).toMatchObject({ session: after, inSidebar: true });
    await shot(page, "keyboard-deleted-focus-in-list");

    // Through the chat's menu, from the keyboard: the same.
    order = await listed(page);
    const victim = order[0];
    await item(page, victim).locator(".session-menu-button").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await page.keyboard.press("ArrowUp"); // round to the last item, Delete
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Delete");
    await page.keyboard.press("Enter");
    await item(page, victim).waitFor({ state: "detached" });
    await poll(() => focus(page)).toMatchObject({ session: order[1], inSidebar: true });

    // F2 renames in place, and Enter gives the focus back to the chat.
    await page.keyboard.press("F2");
    await page.getByTestId("rename-input").fill("Renamed by keyboard");
    await page.keyboard.press("Enter");
    await poll(() => item(page, order[1]).textContent()).toContain("Renamed by keyboard");
    expect(await focus(page)).toMatchObject({ session: order[1], inSidebar: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the shortcut list and the shortcuts", () => {
  it("Ctrl+/ shows every shortcut of the table in a labelled dialog; Esc closes it and the focus comes back", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("composer").focus();
    await page.keyboard.press("Control+/");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor();
    expect(await dialog.locator("[data-shortcut]").count()).toBe(SHORTCUTS.length);
    expect((await dialog.locator('[data-shortcut="new-chat"]').textContent())?.replace(/\s/g, "")).toContain("Ctrl+Shift+O");
    expect((await dialog.locator('[data-shortcut="focus-composer"]').textContent())?.replace(/\s/g, "")).toContain("Ctrl+L");
    expect((await dialog.locator('[data-shortcut="cycle-mode"]').textContent())?.replace(/\s/g, "")).toContain("Shift+Tab");
    expect((await focus(page)).testId).toBe("shortcuts-close");
    expect(formatViolations(await axeViolations(page))).toBe("");
    await shot(page, "keyboard-shortcuts");

    // Modal: the page's own shortcuts wait, and Esc is the dialog's (nothing behind it closes too).
    await page.keyboard.press("Control+Shift+O");
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect((await focus(page)).testId).toBe("composer");

    // Ctrl+/ again closes it, and it reads as well in the dark.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.keyboard.press("Control+/");
    await dialog.waitFor();
    expect(formatViolations(await axeViolations(page))).toBe("");
    await shot(page, "keyboard-shortcuts-dark");
    await page.keyboard.press("Control+/");
    await dialog.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Ctrl+Shift+O opens a new chat and Ctrl+L goes to the message box, from anywhere, Settings and the drawer included", async () => {
    const { page, sessionId, problems } = await openChat(browser, host);
    await send(page, "Hello there");
    await replies(page, 1);

    await page.getByTestId("session-search").focus();
    await page.keyboard.press("Control+Shift+O");
    await poll(() => activeChat(page)).not.toBe(sessionId);
    await page.getByTestId("empty-chat").waitFor();
    await poll(() => focus(page)).toMatchObject({ testId: "composer" });

    await page.getByTestId("session-search").focus();
    await page.keyboard.press("Control+L");
    await poll(() => focus(page)).toMatchObject({ testId: "composer" });

    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    await page.keyboard.press("Control+L");
    await page.getByTestId("settings-view").waitFor({ state: "detached" });
    await poll(() => focus(page)).toMatchObject({ testId: "composer" });

    await page.setViewportSize({ width: 600, height: 800 });
    await page.getByRole("button", { name: "Show chats" }).click();
    await poll(() => drawerOpen(page)).toBe(true);
    await page.keyboard.press("Control+L");
    await poll(() => drawerOpen(page)).toBe(false);
    await poll(() => focus(page)).toMatchObject({ testId: "composer" });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the undo toast", () => {
  /** The toast's box against the message box, the chat's header and the sidebar: it must cover none of them. */
  async function coversNothing(page: Page, sidebar: boolean): Promise<void> {
    const toast = await box(page, "[data-testid=toast]");
    expect(overlaps(toast, await box(page, "[data-testid=composer]"))).toBe(false);
    expect(overlaps(toast, await box(page, ".composer-wrap"))).toBe(false);
    expect(overlaps(toast, await box(page, ".chat-header"))).toBe(false);
    if (sidebar) expect(overlaps(toast, await box(page, "nav.sidebar"))).toBe(false);
  }

  it("covers neither the message box nor the header, in a wide and a 600 px window, is announced, and Undo works", async () => {
    const { page, problems } = await openChat(browser, host);
    await send(page, "Hello there");
    await replies(page, 1);
    const [first, second] = await moreChats(page, 2);

    await item(page, first).locator(".session-menu-button").click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByTestId("toast").waitFor();
    await coversNothing(page, true);
    expect(await page.getByTestId("toast-announcer").textContent()).toMatch(/^Deleted/);
    expect(await page.getByTestId("toast-announcer").getAttribute("aria-live")).toBe("polite");
    // The message box stays usable meanwhile.
    await page.getByTestId("composer").fill("typing while the toast shows");
    expect(await page.getByTestId("composer").inputValue()).toBe("typing while the toast shows");
    expect(formatViolations(await axeViolations(page))).toBe("");
    await shot(page, "keyboard-toast");
    await page.getByTestId("toast").getByRole("button", { name: "Undo" }).click();
    await item(page, first).waitFor();

    await page.setViewportSize({ width: 600, height: 800 });
    await page.getByRole("button", { name: "Show chats" }).click();
    await poll(() => drawerOpen(page)).toBe(true);
    await item(page, second).locator(".session-open").focus();
    await page.keyboard.press("Delete");
    await item(page, second).waitFor({ state: "detached" });
    // Deleting in the drawer leaves it open; the toast waits behind it.
    expect(await drawerOpen(page)).toBe(true);
    await page.keyboard.press("Escape");
    await poll(() => drawerOpen(page)).toBe(false);
    await page.getByTestId("toast").waitFor();
    await coversNothing(page, false);
    await shot(page, "keyboard-toast-600");
    expect(problems).toEqual([]);
    await page.close();
  });
});
