/**
 * Schedules in the browser host with real workers (issue 27 §4): "Schedule…" in the sidebar opens the editor (the
 * next three occurrences as the user types, a bad cron expression said in words), the Scheduled section lists the
 * schedule, Run now runs it in the background as a new chat with the reply, and its last result links to that chat.
 * Screenshots go to test-results/screens/schedules-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";

let rig: E2eRig;
let browser: Browser;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("schedules");
  ({ browser, host } = rig);
});

afterAll(() => rig?.close());

describe("schedules", () => {
  it("made in the editor, listed in the sidebar, run now in the background as a chat the list links to", async () => {
    const { page, problems } = await openChat(browser, host);
    await send(page, "hello there");
    await replies(page, 1);
    await page.getByTestId("schedule-new").click();
    const dialog = page.getByTestId("schedule-dialog");
    await dialog.waitFor();
    await page.getByTestId("schedule-prompt").fill("Summarize what changed since yesterday");
    await page.getByTestId("schedule-name").fill("Morning summary");
    await page.getByTestId("schedule-profile").selectOption("read-only");
    await page.getByTestId("schedule-cost").fill("0.5");
    await page.getByTestId("schedule-kind").selectOption("cron");
    await page.getByTestId("schedule-cron").fill("0 25 * * *");
    await poll(() => page.getByTestId("schedule-next").textContent()).toContain("hour field's \"25\"");
    await shot(page, "schedules-editor-bad-cron");
    await page.getByTestId("schedule-cron").fill("30 8 * * 1-5");
    await poll(() => page.locator(".schedule-next-time").count()).toBe(3);
    await shot(page, "schedules-editor");
    await page.getByTestId("schedule-save").click();
    await dialog.waitFor({ state: "detached" });

    const item = page.getByTestId("scheduled-item");
    await item.waitFor();
    expect(await item.textContent()).toContain("Morning summary");
    expect(await item.textContent()).toContain("Cron 30 8 * * 1-5");
    expect(await item.textContent()).toContain("Not run yet");
    await page.getByTestId("scheduled-run-now").click();
    await poll(() => page.getByTestId("scheduled-last").textContent(), 20_000).toMatch(/^Finished · cost unknown · open chat/);
    await shot(page, "schedules-sidebar-finished");

    await page.getByTestId("scheduled-chat").click();
    await poll(() => page.locator("[data-testid=message-assistant]").last().textContent()).toContain("Summarize what changed since yesterday");
    await shot(page, "schedules-run-chat");

    // From the chat header's menu: a schedule that continues this chat.
    await page.getByTestId("chat-menu").click();
    await page.getByRole("menuitem", { name: "Schedule…" }).click();
    await dialog.waitFor();
    await page.getByTestId("schedule-prompt").fill("Check the build again");
    await page.getByTestId("schedule-continue").check();
    await page.getByTestId("schedule-kind").selectOption("every");
    await page.getByTestId("schedule-hours").fill("4");
    await poll(() => page.locator(".schedule-next-time").count()).toBe(3);
    await shot(page, "schedules-editor-continue");
    await page.getByTestId("schedule-save").click();
    await dialog.waitFor({ state: "detached" });
    await poll(() => item.count()).toBe(2);
    expect(await item.nth(1).textContent()).toContain("Every 4 hours");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
