/**
 * Settings → Budgets shows this month's running total against the monthly cap (issue 27 §3), in the browser host
 * with real workers: main's ledger (monthly-spend.json) read through the AppApi, and followed live while Settings are
 * open as another window's chat spends; the loopback endpoint has no pricing, so its tokens count beside the money
 * as "cost unknown". Screenshots go to test-results/screens/month-spend-*.png.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, send, shot } from "../../testkit/chat-page";
import { monthKey } from "../../src/shared/agent/budget";

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig("month-spend");
  // Spent earlier this month, before this start: main reads its ledger when it starts.
  writeFileSync(join(rig.dataDir, "monthly-spend.json"), JSON.stringify({ version: 1, month: monthKey(new Date()), costUsd: 7.5 }));
  await rig.restartHost();
});

afterAll(() => rig?.close());

describe("this month's spending in Settings → Budgets", () => {
  it("shows the total against the cap, and the tokens at a cost unknown as another chat spends them, live", async () => {
    const { browser, host, server } = rig;
    const { page: settingsPage, problems } = await openChat(browser, host);
    await settingsPage.getByTestId("open-settings").click();
    await settingsPage.getByTestId("settings-view").waitFor();
    const total = settingsPage.getByTestId("month-spend-total");
    await total.scrollIntoViewIfNeeded();
    await poll(() => total.textContent()).toBe("$7.50 this month");
    expect(await settingsPage.getByTestId("month-spend-unpriced").count()).toBe(0);

    const monthly = settingsPage.getByTestId("set-budget-monthly");
    await monthly.fill("10");
    await monthly.blur();
    await poll(() => total.textContent()).toBe("$7.50 of the $10.00 monthly cap (75 %)");
    expect(await settingsPage.getByRole("meter").getAttribute("aria-valuenow")).toBe("75");

    // Another window's chat spends on a model without pricing: Settings follow without a reload.
    const { page: chatPage, problems: chatProblems } = await openChat(browser, host);
    server.enqueue({ text: "Counted.", usage: { prompt_tokens: 900, completion_tokens: 300 } });
    await send(chatPage, "count something");
    await poll(() => settingsPage.getByTestId("month-spend-unpriced").textContent().catch(() => null), 15_000).toBe(
      "Also 1.2k tokens at a cost unknown (models without pricing), not counted toward the cap.",
    );
    expect(await total.textContent()).toBe("$7.50 of the $10.00 monthly cap (75 %)");
    await settingsPage.getByTestId("month-spend").scrollIntoViewIfNeeded();
    await shot(settingsPage, "month-spend-settings");

    // Main's word, over the AppApi: the ledger the section shows.
    expect(await host.call("getMonthlySpend")).toEqual({ month: monthKey(new Date()), costUsd: 7.5, unpricedTokens: 1200 });
    expect([...problems, ...chatProblems]).toEqual([]);
    await chatPage.close();
    await settingsPage.close();
  }, 90_000);
});
