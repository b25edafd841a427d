/**
 * Budgets in the browser host with real workers (issue 27 §3): the chat header's Budget… dialog sets a run's caps,
 * the meter shows spend against the cap as the run goes, the chat warns at 80 % and the run stops at the cap with
 * its reason on the stopped reply; Settings → Budgets holds the defaults and the monthly cap. The loopback endpoint
 * has no pricing: its cost shows as unknown, never "$0.00". Screenshots go to test-results/screens/budgets-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, send, shot } from "../../testkit/chat-page";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("budgets");
  ({ browser, server, host } = rig);
});

afterAll(() => rig?.close());

const meter = (page: Page) => page.getByTestId("budget-meter");
const usage = (tokens: number) => ({ prompt_tokens: tokens / 2, completion_tokens: tokens / 2 });
const calculate = (tokens: number) => ({ toolCalls: [{ name: "calculate", arguments: { expression: "6*7" } }], usage: usage(tokens), tokensPerSecond: 400 });

describe("a chat's budget", () => {
  it("set in the Budget dialog, metered live, warned at 80 %, and the run stopped at the cap, saying why", async () => {
    const { page, problems } = await openChat(browser, host);
    expect(await meter(page).getAttribute("aria-label")).toBe("Budget…");
    expect(await meter(page).textContent()).toBe(""); // an icon until a cap is set
    await meter(page).click();
    const dialog = page.getByTestId("budget-dialog");
    await dialog.waitFor();
    await page.getByTestId("budget-run-tokens").fill("1000");
    await page.getByTestId("budget-run-toolCalls").fill("20");
    await page.getByTestId("budget-chat-costUsd").fill("5");
    await shot(page, "budgets-dialog");
    await page.getByTestId("budget-save").click();
    await dialog.waitFor({ state: "detached" });
    await poll(() => meter(page).textContent()).toBe("0 / 1k tokens");
    await shot(page, "budgets-meter-set");

    server.enqueue(calculate(400), calculate(400), calculate(400));
    await send(page, "count with the calculator");
    // The meter follows the run: 400, then 800 (warned), then the cap.
    await poll(() => meter(page).getAttribute("data-level"), 15_000).not.toBe("ok");
    const stopReason = page.getByTestId("stop-reason");
    await stopReason.waitFor({ timeout: 15_000 });
    await page.getByTestId("send-button").waitFor();
    expect(await stopReason.textContent()).toBe("at the 1k-token budget: 2 tool calls, cost unknown");
    expect(await meter(page).getAttribute("data-level")).toBe("reached");
    expect(await meter(page).textContent()).toBe("1.2k / 1k tokens");
    const notices = (await page.locator(".notice").allTextContents()).join("\n");
    expect(notices).toContain("80% of the run's 1k-token budget used: 1 tool call, cost unknown");
    expect(notices).toContain("Stopped at the 1k-token budget: 2 tool calls, cost unknown");
    // Both are warnings, not errors: amber with a triangle, a status the screen reader reads without interrupting.
    for (const text of ["80% of the run's 1k-token budget used", "Stopped at the 1k-token budget"]) {
      const notice = page.locator(".notice").filter({ hasText: text });
      expect(await notice.getAttribute("data-level")).toBe("warning");
      expect(await notice.getAttribute("role")).toBe("status");
      expect(await notice.getByRole("img", { name: "Warning:" }).count()).toBe(1);
    }
    await shot(page, "budgets-stopped");

    // The dialog says what was spent, cost unknown (never $0.00), with the caps as set.
    await meter(page).click();
    await dialog.waitFor();
    expect(await page.getByTestId("budget-spent-run").textContent()).toMatch(/^The last run: 1.2k tokens · 3 tool calls · cost unknown · 0 min$/);
    expect(await page.getByTestId("budget-spent-chat").textContent()).toContain("cost unknown");
    expect(await page.getByTestId("budget-run-tokens").inputValue()).toBe("1000");
    expect(await dialog.textContent()).not.toContain("$0.00");
    await shot(page, "budgets-dialog-after-stop");
    await page.keyboard.press("Escape");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("Settings → Budgets holds each run's default caps and the monthly cap", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    const monthly = page.getByTestId("set-budget-monthly");
    await monthly.scrollIntoViewIfNeeded();
    await page.getByTestId("set-budget-costUsd").fill("2");
    await page.getByTestId("set-budget-costUsd").blur();
    await monthly.fill("50");
    await monthly.blur();
    await poll(async () => (await host.call<{ budgets: unknown }>("getSettings")).budgets).toEqual({ run: { costUsd: 2 }, monthlyCapUsd: 50 });
    await shot(page, "budgets-settings");
    await monthly.fill("");
    await monthly.blur();
    await page.getByTestId("set-budget-costUsd").fill("");
    await page.getByTestId("set-budget-costUsd").blur();
    await poll(async () => (await host.call<{ budgets: unknown }>("getSettings")).budgets).toEqual({ run: {}, monthlyCapUsd: 0 });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
