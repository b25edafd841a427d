/**
 * Approval questions as an attacker would aim at them, in the browser host with real workers and the loopback model:
 * a question that appears while the user types a steering message must not take the keystrokes (a Space would press
 * "Allow once"), a question that does take the focus ignores keys for a moment, and a command whose text hides
 * something (a newline, a right-to-left override) shows it, with no "allow for this chat". Screenshots go to
 * test-results/screens/approval-*.png.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { expectAccessible } from "../../testkit/axe";

/** Chat-wide grants exist only for sandboxed commands (outside a sandbox every command asks, with nothing to grant). */
const sandbox = await sandboxForTests("the approval card's chat-scope checks");

let rig: E2eRig;
let browser: Browser;
let host: WebHostProcess;
const folders: string[] = [];

beforeAll(async () => {
  rig = await startE2eRig("approvals");
  ({ browser, host } = rig);
});

afterAll(async () => {
  await rig?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A workspace folder with a `src/` the commands below threaten. */
function workspace(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-approvals-")));
  folders.push(folder);
  mkdirSync(join(folder, "src"));
  writeFileSync(join(folder, "src", "main.ts"), "export const answer = 42;\n");
  return folder;
}

/** A new chat on `folder`, once the sandbox check is over. */
async function chatIn(folder: string) {
  const chat = await openChat(browser, host);
  await host.call("setWorkspace", chat.sessionId, folder);
  await poll(() => chat.page.getByTestId("workspace-button").textContent()).toContain(basename(folder));
  // Outside a sandbox the button says so once the check is over; inside one it never does.
  if (!sandbox.available) await poll(() => chat.page.getByTestId("workspace-button").textContent()).toContain("no sandbox");
  return chat;
}

/** The data-testid of the element that has the keyboard focus. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName ?? null);

describe("an approval question and the keyboard", () => {
  it("a question appearing while the user types a steering message takes no keystroke: nothing is allowed, all text stays in the box", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    const command = "du -sh . && touch SURPRISE";
    const lead = "Let me check how much room the project takes before going on. ";
    await send(page, `How big is it? ${turn({ text: lead.repeat(3), tokensPerSecond: 60, toolCalls: [{ name: "bash", arguments: { command } }] })}`);
    const composer = page.getByTestId("composer");
    await poll(() => page.getByTestId("message-assistant").count()).toBe(1); // the reply streams
    expect(await focused(page)).toBe("composer");
    // The user starts a steering message while the reply streams...
    await page.keyboard.type("Actually", { delay: 30 });
    // ...and the question appears mid-word: the next key typed is a Space.
    await page.getByTestId("approval").waitFor();
    await page.keyboard.type(" skip the disk usage and run the tests instead", { delay: 30 });

    await page.waitForTimeout(800); // a command allowed by mistake would have run by now
    expect(existsSync(join(folder, "SURPRISE"))).toBe(false);
    expect(await page.getByTestId("tool-card").getAttribute("data-status")).toBe("asking");
    expect(await composer.inputValue()).toBe("Actually skip the disk usage and run the tests instead");
    expect(await focused(page)).toBe("composer");
    // The page says the question is there and how to reach it from the keyboard.
    expect(await page.getByTestId("approval-status").textContent()).toContain("Allow bash?");
    expect(await page.getByTestId("approval").textContent()).toMatch(/Ctrl.*Shift.*A/);
    await shot(page, "approval-while-typing");

    // The shortcut goes to the question; keys pressed at once are ignored (the focus only just moved), later ones act.
    await page.keyboard.press("Control+Shift+A");
    expect(await focused(page)).toBe("approval-once");
    await page.keyboard.press("n");
    expect(await page.getByLabel("Reason for denying").count()).toBe(0);
    await shot(page, "approval-arming");
    await poll(() => page.getByTestId("approval-once").getAttribute("aria-disabled")).toBe(null);
    await shot(page, "approval-armed");
    await page.keyboard.press("n");
    await page.getByLabel("Reason for denying").fill("not now");
    await page.keyboard.press("Enter");
    await replies(page, 2);
    expect(existsSync(join(folder, "SURPRISE"))).toBe(false);
    // The focus went back to the message box, the steering message still in it.
    expect(await focused(page)).toBe("composer");
    expect(await composer.inputValue()).toBe("Actually skip the disk usage and run the tests instead");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a question that takes the focus (nothing else had it) ignores a key pressed at once, and answers one pressed later", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    // The user sends, then clicks away from the message box while the reply streams: nothing has the focus.
    await send(page, `Mark it ${turn({ text: "I will mark the folder now.", tokensPerSecond: 8, toolCalls: [{ name: "bash", arguments: { command: "touch MARKED" } }] })}`);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await page.getByTestId("approval").count()).toBe(0);
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "approval-once", undefined, { polling: "raf" });
    await page.keyboard.press("y");
    await page.keyboard.press("Space");
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    expect(await page.getByTestId("tool-card").getAttribute("data-status")).toBe("asking");
    await poll(() => page.getByTestId("approval-once").getAttribute("aria-disabled")).toBe(null);
    await page.keyboard.press("y");
    await replies(page, 2);
    expect(existsSync(join(folder, "MARKED"))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("a command whose text hides what it does", () => {
  /** Sends a bash call and returns its question, once asked. */
  async function ask(page: Page, command: string) {
    await send(page, `Go on ${turn({ toolCalls: [{ name: "bash", arguments: { command } }] })}`);
    const card = page.getByTestId("tool-card").last();
    await poll(() => card.getAttribute("data-status")).toBe("asking");
    return card;
  }

  it.skipIf(!sandbox.available)("a newline shows as a line break, marked, and the command can only be allowed once", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    // For comparison: a plain command may be allowed for the chat.
    const plain = await ask(page, "ls src");
    expect(await plain.getByTestId("approval-chat").count()).toBe(1);
    await plain.getByTestId("approval-once").click();
    await replies(page, 2);

    const card = await ask(page, "echo Tests passed, cleaning up:\nrm -rf src");
    const summary = card.locator(".approval-summary");
    expect(await summary.innerText()).toBe("echo Tests passed, cleaning up:⏎\nrm -rf src");
    expect(await summary.locator(".hidden-char").allTextContents()).toEqual(["⏎"]);
    expect(await card.getByTestId("approval-chat").count()).toBe(0);
    await shot(page, "approval-newline");
    await card.getByTestId("approval-deny").click();
    await card.getByTestId("approval-deny-send").click();
    await replies(page, 4);
    expect(existsSync(join(folder, "src", "main.ts"))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.skipIf(!sandbox.available)("a right-to-left override shows as a marker and reorders nothing, in the question and in the arguments", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    const card = await ask(page, "cat notes\u202Egnp.exe");
    const summary = card.locator(".approval-summary");
    expect(await summary.innerText()).toBe("cat notes<U+202E>gnp.exe");
    expect(await summary.locator(".hidden-char").getAttribute("title")).toContain("right-to-left override");
    const args = card.getByTestId("tool-args");
    expect(await args.locator(".hidden-char").allTextContents()).toEqual(["<U+202E>"]);
    // No override reaches the page's text, so nothing in the card can be drawn out of order.
    expect(await card.evaluate((el) => /[\u202A-\u202E\u2066-\u2069]/.test(el.textContent ?? ""))).toBe(false);
    expect(await card.getByTestId("approval-chat").count()).toBe(0);
    await shot(page, "approval-bidi");
    // The markers and the keyboard hint are legible in both themes.
    await poll(() => card.getByTestId("approval-once").getAttribute("aria-disabled")).toBe(null);
    await expectAccessible(page, "a question with a hidden character, light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectAccessible(page, "a question with a hidden character, dark");
    await shot(page, "approval-bidi-dark");
    await card.getByTestId("approval-deny").click();
    await card.getByTestId("approval-deny-send").click();
    await replies(page, 2);
    expect(problems).toEqual([]);
    await page.close();
  });
});
