/**
 * The chat header's permission profile picker (issue 27 §2), as a user meets it: the web host, real workers and tools,
 * the built page in Chromium. Reached and used with the keyboard alone; each option says what it allows; Edits allowed
 * writes without a question, Read-only refuses a write (its card says denied, the model is told why); the chat shows
 * a line where the profile changed; Settings' default is what a new chat starts with. Screenshots:
 * test-results/screens/profile-picker.png, profile-edits-run.png, profile-read-only-refused.png, profile-settings-default.png.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Settings } from "../../src/shared/settings/schema";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { expectAccessible } from "../../testkit/axe";

const sandbox = await sandboxForTests("the profile picker's Sandboxed auto");

let rig: E2eRig;
let folder: string;

beforeAll(async () => {
  rig = await startE2eRig("permission-profiles");
  folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-profiles-")));
}, 120_000);

afterAll(async () => {
  await rig?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const write = (path: string) => turn({ toolCalls: [{ name: "write", arguments: { path, content: "hello\n" } }] });

describe("the permission profile picker", () => {
  it("is used with the keyboard, says what each profile allows, and the worker enforces the choice", async () => {
    const { page, sessionId, problems } = await openChat(rig.browser, rig.host);
    await rig.host.call("setWorkspace", sessionId, folder);
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(folder));
    const button = page.getByTestId("profile-picker");
    expect(await button.getAttribute("aria-label")).toBe("Permissions: Ask");

    // Keyboard only: focus the button, open it, move with the arrows (a radio group), close with Esc.
    await button.focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("dialog", { name: "Permissions for this chat" });
    await panel.waitFor();
    await poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("ask");
    for (const [p, says] of [["ask", /Asks before every change/], ["edits", /Writes and edits inside the workspace run without asking/], ["read-only", /Only reads/]] as const) {
      expect(await page.getByTestId(`profile-option-${p}`).innerText()).toMatch(says);
    }
    if (sandbox.available) {
      await poll(() => page.getByTestId("profile-option-sandboxed-auto").count()).toBe(1);
      expect(await page.getByTestId("profile-option-sandboxed-auto").innerText()).toMatch(/Everything the sandbox confines/);
    }
    await page.keyboard.press("ArrowDown"); // Ask → Edits allowed, chosen at once
    await poll(() => button.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    await expectAccessible(page, "the chat with the profile picker open", { wholeHeight: false });
    await shot(page, "profile-picker");
    await page.keyboard.press("Escape");
    await poll(() => panel.count()).toBe(0);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("profile-picker");

    // Edits allowed: a write runs without a question; the chat says the profile changed.
    await send(page, `Write a ${write("a.txt")}`);
    await replies(page, 2);
    expect(existsSync(join(folder, "a.txt"))).toBe(true);
    expect(await page.getByTestId("approval-once").count()).toBe(0);
    await poll(() => page.getByTestId("message-permissionProfile").last().innerText()).toMatch(/Permissions\s+Runs from here: Edits allowed/);
    await shot(page, "profile-edits-run");

    // Read-only: the same write is refused, its card says denied, nothing is written.
    await button.click();
    await page.getByTestId("profile-option-read-only").click();
    await poll(() => button.getAttribute("aria-label")).toBe("Permissions: Read-only");
    await page.keyboard.press("Escape");
    await send(page, `Write b ${write("b.txt")}`);
    await replies(page, 4);
    const card = page.getByTestId("tool-card").last();
    await poll(() => card.getAttribute("data-status")).toBe("denied");
    expect(existsSync(join(folder, "b.txt"))).toBe(false);
    await poll(() => page.getByTestId("message-permissionProfile").count()).toBe(2);
    expect(await page.getByTestId("message-permissionProfile").last().innerText()).toMatch(/Read-only/);
    const header = card.locator(".tool-header");
    if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
    await poll(() => header.getAttribute("aria-expanded")).toBe("true");
    await poll(() => card.innerText()).toMatch(/This chat is Read-only/);
    await shot(page, "profile-read-only-refused");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Settings' default is what a new chat starts with; a chat's own choice stays its own", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    const select = page.getByTestId("default-profile");
    await select.scrollIntoViewIfNeeded();
    expect(await select.inputValue()).toBe("ask");
    await select.selectOption("read-only");
    await poll(async () => (await rig.host.call<Settings>("getSettings")).tools.defaultProfile).toBe("read-only");
    // Main has it; the page hears of it by its settings event, a moment later.
    await poll(() => page.locator("#settings-section-tools").innerText()).toMatch(/Permissions of new chats[\s\S]*Only reads/);
    await shot(page, "profile-settings-default");
    await page.close();

    const fresh = await openChat(rig.browser, rig.host);
    await poll(() => fresh.page.getByTestId("profile-picker").getAttribute("aria-label")).toBe("Permissions: Read-only");
    await fresh.page.getByTestId("profile-picker").click();
    expect(await fresh.page.getByTestId("profile-option-read-only").innerText()).toContain("(default)");
    await rig.host.call("updateSettings", { tools: { defaultProfile: "ask" } });
    expect([...problems, ...fresh.problems]).toEqual([]);
    await fresh.page.close();
  });
});
