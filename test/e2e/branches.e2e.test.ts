/**
 * Message actions and branches in the browser host with real workers, as a user does them: hover a message for its
 * actions, edit a message of yours in place (Enter resends, Esc cancels), regenerate the last reply, flip between
 * versions with `‹ 2/2 ›`, copy and delete. Screenshots go to test-results/screens/branches-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { CONTINUE_PROMPT } from "../../src/shared/agent/unfinished-reply";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("branches");
  ({ browser, server, host } = rig);
});

afterAll(() => rig?.close());

const userTexts = (page: Page) => page.locator("[data-testid=message-user] .user-bubble").allTextContents();
const replyTexts = (page: Page) => page.locator("[data-testid=message-assistant] .md").allTextContents();
const row = (page: Page, testId: string, n: number) => page.getByTestId(testId).nth(n);

describe("message actions and branches", () => {
  it("edits a message in place, regenerates the reply, and flips between versions", async () => {
    const { page, problems } = await openChat(browser, host);
    await send(page, "Plan a day in Porto");
    await replies(page, 1);
    await send(page, "Where to eat?");
    await replies(page, 2);

    // Hovering a message shows its actions; they are labelled buttons.
    await row(page, "message-user", 1).hover();
    const edit = row(page, "message-user", 1).getByRole("button", { name: "Edit and resend" });
    await poll(async () => Number(await edit.evaluate((el) => getComputedStyle(el.parentElement!).opacity))).toBe(1);
    await shot(page, "branches-hover-actions");

    // Esc cancels an edit; Enter resends it.
    await edit.click();
    const editor = page.getByRole("textbox", { name: "Edit message" });
    await expect(editor.inputValue()).resolves.toBe("Where to eat?");
    await editor.press("Escape");
    expect(await page.getByTestId("message-editor").count()).toBe(0);
    await row(page, "message-user", 1).hover();
    await edit.click();
    await editor.fill("Where to eat near the river?");
    await shot(page, "branches-editing");
    await editor.press("Enter");
    await poll(() => userTexts(page)).toEqual(["Plan a day in Porto", "Where to eat near the river?"]);
    await replies(page, 2);
    await poll(() => replyTexts(page)).toEqual(["Plan a day in Porto", "Where to eat near the river?"]);
    const userSwitch = row(page, "message-user", 1).getByTestId("branch-switch");
    await expect(userSwitch.textContent()).resolves.toContain("2/2");

    // Regenerate the last reply: a second version of it.
    server.enqueue({ text: "Try the **Ribeira** quarter." });
    await row(page, "message-assistant", 1).hover();
    await row(page, "message-assistant", 1).getByRole("button", { name: "Regenerate reply" }).click();
    await poll(() => replyTexts(page)).toEqual(["Plan a day in Porto", "Try the Ribeira quarter."]);
    await replies(page, 2);
    const replySwitch = row(page, "message-assistant", 1).getByTestId("branch-switch");
    await expect(replySwitch.textContent()).resolves.toContain("2/2");
    await page.mouse.move(0, 0);
    await page.waitForTimeout(250); // the buttons fade out
    await shot(page, "branches-regenerated");

    // Flip the reply back, then the edited message back to the first version (its own reply comes with it).
    await replySwitch.getByRole("button", { name: "Previous version" }).click();
    await poll(() => replyTexts(page)).toEqual(["Plan a day in Porto", "Where to eat near the river?"]);
    await userSwitch.getByRole("button", { name: "Previous version" }).click();
    await poll(() => userTexts(page)).toEqual(["Plan a day in Porto", "Where to eat?"]);
    await poll(() => replyTexts(page)).toEqual(["Plan a day in Porto", "Where to eat?"]);
    await expect(userSwitch.textContent()).resolves.toContain("1/2");
    await page.mouse.move(0, 0);
    await page.waitForTimeout(250); // the buttons fade out
    await shot(page, "branches-switched");

    // And forward again: the nested version (the regenerated reply) is still there.
    await userSwitch.getByRole("button", { name: "Next version" }).click();
    await poll(() => userTexts(page)).toEqual(["Plan a day in Porto", "Where to eat near the river?"]);
    await expect(replySwitch.textContent()).resolves.toContain("1/2");

    // The same path after a reload (the worker replays the transcript).
    await page.reload();
    await poll(() => userTexts(page)).toEqual(["Plan a day in Porto", "Where to eat near the river?"]);
    await poll(() => row(page, "message-user", 1).getByTestId("branch-switch").textContent()).toContain("2/2");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("copies a reply as Markdown, reaches the actions by keyboard, and deletes an exchange", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    server.enqueue({ text: "Use **bold** and `code`." });
    await send(page, "Markdown please");
    await replies(page, 1);
    await send(page, "Second question");
    await replies(page, 2);

    const copy = row(page, "message-assistant", 0).getByRole("button", { name: "Copy as Markdown" });
    await copy.focus();
    // Keyboard focus shows the buttons as hover does.
    await poll(async () => Number(await copy.evaluate((el) => getComputedStyle(el.parentElement!).opacity))).toBe(1);
    await page.keyboard.press("Enter");
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("Use **bold** and `code`.");

    await row(page, "message-user", 0).hover();
    await row(page, "message-user", 0).getByRole("button", { name: "Delete message" }).click();
    await poll(() => userTexts(page)).toEqual(["Second question"]);
    await poll(() => replyTexts(page)).toEqual(["Second question"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("offers Continue on a reply stopped with Stop, and the model goes on from it", async () => {
    const { page, problems } = await openChat(browser, host);
    server.enqueue({ text: "Once upon a time there was a lighthouse keeper who counted ships. ".repeat(40), chunkChars: 6, tokensPerSecond: 60 });
    await send(page, "Tell me a long story");
    await poll(async () => ((await replyTexts(page)).at(-1) ?? "").length).toBeGreaterThan(20);
    await page.getByTestId("stop-button").click();
    await replies(page, 1);
    const last = row(page, "message-assistant", 0);
    await last.hover();
    const more = last.getByRole("button", { name: "Continue reply" });
    await more.waitFor();
    await page.waitForTimeout(250); // the buttons fade in
    await shot(page, "branches-continue");
    server.enqueue({ text: "And so the story ends." });
    await more.click();
    await poll(() => userTexts(page)).toEqual(["Tell me a long story", CONTINUE_PROMPT]);
    await replies(page, 2);
    await poll(async () => (await replyTexts(page)).at(-1)).toBe("And so the story ends.");
    // A finished reply offers Regenerate but no Continue.
    await row(page, "message-assistant", 1).hover();
    await row(page, "message-assistant", 1).getByRole("button", { name: "Regenerate reply" }).waitFor();
    expect(await row(page, "message-assistant", 1).getByRole("button", { name: "Continue reply" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
