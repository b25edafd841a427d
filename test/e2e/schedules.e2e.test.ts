/**
 * Schedules in the browser host with real workers (issue 27 §4): "Schedule…" in the sidebar opens the editor (the
 * next three occurrences as the user types, a bad cron expression said in words), the Scheduled section lists the
 * schedule, Run now runs it in the background as a new chat with the reply, and its last result links to that chat;
 * a schedule's switch pauses it (muted, "Paused", no next run) and turns it on again; a run that wrote a file links
 * to its Changes, which opens the chat's Changes panel on that run. Screenshots go to test-results/screens/schedules-*.png.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schedule } from "../../src/shared/schedules/schedule";
import { turnDirective } from "../../src/web-host/openai-test-server";
import type { Browser } from "playwright-core";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { expectAccessible } from "../../testkit/axe";

let rig: E2eRig;
let browser: Browser;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("schedules");
  ({ browser, host } = rig);
});

const folders: string[] = [];
afterAll(async () => {
  await rig?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const schedule = (overrides: Partial<Schedule>): Schedule => ({
  id: "s",
  name: "",
  prompt: "Go",
  workspace: "",
  profile: "read-only",
  budget: {},
  when: { kind: "daily", time: "09:00" },
  target: "new-chat",
  missed: "skip",
  enabled: true,
  ...overrides,
});

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
    // Save points at the problem the Next line shows (the cron field focused), not a second alert with the same words.
    await page.getByTestId("schedule-save").click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("schedule-cron");
    expect(await page.getByTestId("schedule-failure").count()).toBe(0);
    expect(await page.getByTestId("schedule-cron").getAttribute("aria-invalid")).toBe("true");
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

  it("a switch pauses a schedule and turns it on again; a run that changed files links to its Changes", async () => {
    const { page, problems } = await openChat(browser, host);
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-schedules-")));
    folders.push(folder);
    writeFileSync(join(folder, "README.md"), "# Notes\n");
    const write = turnDirective({ toolCalls: [{ id: "w1", name: "write", arguments: { path: "notes/today.md", content: "- tidy\n- file\n- ship\n" } }] });
    await host.call("saveSchedule", schedule({ id: "tidy", name: "Tidy the notes", workspace: folder, profile: "edits", prompt: `Tidy the notes ${write}` }));
    await host.call("saveSchedule", schedule({ id: "weekly", name: "Weekly report", when: { kind: "weekdays", time: "17:30" } }));

    const item = (name: string) => page.getByTestId("scheduled-item").filter({ hasText: name });
    const weekly = item("Weekly report");
    await weekly.waitFor();
    const toggle = page.getByRole("switch", { name: "Run “Weekly report” on its schedule" });
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    expect(await weekly.getByTestId("scheduled-when").textContent()).toMatch(/^Weekdays at 17:30 · next /);
    await toggle.click();
    await poll(() => toggle.getAttribute("aria-checked")).toBe("false");
    expect(await weekly.getByTestId("scheduled-when").textContent()).toBe("Weekdays at 17:30 · Paused");
    expect(await weekly.getAttribute("data-enabled")).toBe("false");
    // Main has it off, and says no next run.
    const listed = await host.call<{ schedule: Schedule; next?: number }[]>("listSchedules");
    expect(listed.find((v) => v.schedule.id === "weekly")).toMatchObject({ schedule: { enabled: false } });
    expect(listed.find((v) => v.schedule.id === "weekly")?.next).toBeUndefined();

    const tidy = item("Tidy the notes");
    await tidy.getByTestId("scheduled-run-now").click();
    const changesLink = tidy.getByTestId("scheduled-changes");
    await changesLink.waitFor({ timeout: 20_000 });
    expect(await changesLink.textContent()).toBe("1 file changed");
    expect(await tidy.getByTestId("scheduled-last").textContent()).toMatch(/^Finished · cost unknown · open chat · 1 file changed/);
    await page.getByTestId("scheduled").scrollIntoViewIfNeeded();
    await shot(page, "schedules-sidebar-paused-and-changes");
    await expectAccessible(page, "the Scheduled list with a paused schedule and a run's Changes link", { wholeHeight: false });
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "schedules-sidebar-paused-dark");
    await expectAccessible(page, "the Scheduled list in the dark theme", { wholeHeight: false });
    await page.emulateMedia({ colorScheme: "light" });

    // The link opens the run's chat with its Changes panel on that run.
    await changesLink.click();
    const panel = page.getByTestId("changes-panel");
    await panel.waitFor();
    await poll(() => panel.locator('[data-testid^="changed-file-"]').allTextContents()).toEqual([expect.stringContaining("notes/today.md")]);
    const since = page.getByTestId("changes-since");
    expect(await since.locator("option:checked").textContent()).toBe("This scheduled run");
    expect(await page.locator("[data-testid=message-user]").first().textContent()).toContain("Tidy the notes");
    await shot(page, "schedules-run-changes");

    // On again: a next run, not muted.
    await page.keyboard.press("Escape");
    await toggle.click();
    await poll(() => weekly.getByTestId("scheduled-when").textContent()).toMatch(/^Weekdays at 17:30 · next /);

    // Delete asks in place first (Keep has the focus), and the focus then goes to "Schedule…", not the page's body.
    await weekly.getByTestId("scheduled-delete").click();
    await page.getByTestId("scheduled-delete-cancel").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("scheduled-delete-cancel");
    await shot(page, "schedules-delete-confirm");
    await page.keyboard.press("Escape");
    await weekly.getByTestId("scheduled-delete").click();
    await page.getByTestId("scheduled-delete-confirm").click();
    await poll(() => item("Weekly report").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("schedule-new");
    expect((await host.call<{ schedule: Schedule }[]>("listSchedules")).map((v) => v.schedule.id)).not.toContain("weekly");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
