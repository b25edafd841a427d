/**
 * What a walk through issue 27's flows as a user (keyboard only, at 1,280 and 800 px) found wrong, held right in the
 * browser host with real workers: the Budget… dialog takes the focus as it opens and gives it back to its button
 * however it closes (Save too, not only Esc); the plan card's preview reads as words ("## Plan" read as markdown) and
 * leaving its editor with Esc puts the focus back on "Edit plan" (it fell to the page); a subagent on a model without
 * pricing says its cost is unknown, as the replies do (it said "$0"); a schedule's run takes caps on tokens and tool
 * calls too (the editor offered money and minutes only, which a model without pricing can never reach).
 * Screenshots: test-results/screens/walk-*.png.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { expectAccessible } from "../../testkit/axe";

let rig: E2eRig;
let folder: string;

beforeAll(async () => {
  rig = await startE2eRig("walk-through");
  folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-walk-")));
}, 120_000);

afterAll(async () => {
  await rig?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName.toLowerCase());

describe("issue 27's flows, walked through from the keyboard", () => {
  it("the Budget… dialog takes the focus as it opens and gives it back to its button when saved", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    const meter = page.getByTestId("budget-meter");
    await meter.focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("budget-dialog").waitFor();
    await poll(() => focused(page)).toBe("budget-chat-costUsd");
    await page.keyboard.press("Tab");
    await page.keyboard.type("1000"); // the chat's tokens
    await page.keyboard.press("Enter"); // submits: Save
    await page.getByTestId("budget-dialog").waitFor({ state: "detached" });
    await poll(() => meter.textContent()).toBe("0 / 1k tokens");
    expect(await focused(page)).toBe("budget-meter");
    // Cancel, from the keyboard, too.
    await page.keyboard.press("Enter");
    await page.getByTestId("budget-dialog").waitFor();
    await page.getByRole("button", { name: "Cancel" }).focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("budget-dialog").waitFor({ state: "detached" });
    expect(await focused(page)).toBe("budget-meter");
    await shot(page, "walk-budget-closed");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("the plan card previews the plan as words, and Esc in its editor gives the focus back to Edit plan", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    const composer = page.getByTestId("composer");
    await composer.focus();
    // Shift+Tab goes act → plan this message → the chat's Plan mode: twice puts the chat in Plan mode.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await poll(() => page.getByTestId("profile-picker").getAttribute("aria-label")).toBe("Permissions: Plan");
    await send(page, `Plan it ${turn({ text: "## Plan\n\n1. Read the README\n2. Check it" })}`);
    await replies(page, 1);
    const card = page.getByTestId("plan-card");
    await card.waitFor();
    expect(await card.locator(".plan-card-preview").textContent()).toBe("1. Read the README");
    await page.getByTestId("plan-edit").focus();
    await page.keyboard.press("Enter");
    await poll(() => focused(page)).toBe("plan-editor");
    await page.keyboard.press("Escape");
    await poll(() => page.getByTestId("plan-editor").count()).toBe(0);
    await poll(() => focused(page)).toBe("plan-edit");
    // Discard edits, from the keyboard: the same.
    await page.keyboard.press("Enter");
    await poll(() => focused(page)).toBe("plan-editor");
    await page.keyboard.type(" and more");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("plan-edit-cancel");
    await page.keyboard.press("Enter");
    await poll(() => focused(page)).toBe("plan-edit");
    await expectAccessible(page, "the plan card", { wholeHeight: false });
    await shot(page, "walk-plan-card");
    expect(await page.getByTestId("profile-picker").getAttribute("aria-label")).toBe("Permissions: Plan");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a subagent on a model without pricing says its cost is unknown, never $0", async () => {
    mkdirSync(join(rig.dataDir, "agents"), { recursive: true });
    writeFileSync(join(rig.dataDir, "agents", "helper.md"), "---\nname: helper\ndescription: answers\ntools: read\n---\nYou answer.\n");
    const { page, sessionId, problems } = await openChat(rig.browser, rig.host);
    await rig.host.call("setWorkspace", sessionId, folder);
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(folder));
    const picker = page.getByTestId("profile-picker");
    await picker.click();
    await page.getByTestId("profile-option-read-only").click(); // the subagent call runs unasked
    await page.keyboard.press("Escape");
    await send(page, `Delegate ${turn({ toolCalls: [{ name: "subagent", arguments: { agent: "helper", task: "Say hello" } }] })}`);
    await replies(page, 2);
    const row = page.getByTestId("subagent");
    await poll(() => row.getAttribute("data-status")).toBe("completed");
    const meta = await row.locator(".subagent-meta").innerText();
    expect(meta).toMatch(/tok · cost unknown · completed/);
    expect(meta).not.toContain("$0");
    await shot(page, "walk-subagent-cost");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a schedule caps its runs' tokens and tool calls, and a run on a model without pricing stops at the token cap", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("schedule-new").click();
    const dialog = page.getByTestId("schedule-dialog");
    await dialog.waitFor();
    await page.getByTestId("schedule-prompt").fill("Count with the calculator");
    await page.getByTestId("schedule-name").fill("Capped count");
    await page.getByTestId("schedule-tokens").fill("500");
    await page.getByTestId("schedule-tool-calls").fill("10");
    await expectAccessible(page, "the schedule editor with its caps", { wholeHeight: false });
    await shot(page, "walk-schedule-caps");
    await page.getByTestId("schedule-save").click();
    await dialog.waitFor({ state: "detached" });
    const listed = await rig.host.call<{ schedule: { name: string; budget: unknown } }[]>("listSchedules");
    expect(listed.find((v) => v.schedule.name === "Capped count")?.schedule.budget).toEqual({ tokens: 500, toolCalls: 10 });

    const calculate = { toolCalls: [{ name: "calculate", arguments: { expression: "6*7" } }], usage: { prompt_tokens: 200, completion_tokens: 200 } };
    rig.server.enqueue(calculate, calculate, calculate);
    await page.getByTestId("scheduled-run-now").click();
    const last = page.getByTestId("scheduled-last");
    await poll(() => last.innerText(), 30_000).toMatch(/^Stopped at the 500-token budget: 1 tool call, cost unknown · open chat/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
