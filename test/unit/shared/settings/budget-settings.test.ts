/**
 * Settings → Budgets (issue 27 §3): no caps by default, filled in for files written before they existed, a page's
 * change merged (the run caps replaced whole), bad caps refused, and handed to workers with the month's refusal.
 */
import { describe, expect, it } from "vitest";
import { applySettingsPatch, DEFAULT_SETTINGS, migrateSettings } from "../../../../src/shared/settings/schema";
import { toWorkerSettings } from "../../../../src/main/broker/app-service";

describe("the budget settings", () => {
  it("cap nothing by default, also in a file from before budgets", () => {
    expect(DEFAULT_SETTINGS.budgets).toEqual({ run: {}, monthlyCapUsd: 0 });
    expect(toWorkerSettings(DEFAULT_SETTINGS).runBudget).toBeUndefined();
    const { budgets: _none, ...older } = structuredClone(DEFAULT_SETTINGS) as Record<string, unknown>;
    expect(migrateSettings(older).budgets).toEqual({ run: {}, monthlyCapUsd: 0 });
  });

  it("merge a page's change; run caps are replaced whole; workers get them and the month's refusal", () => {
    const capped = applySettingsPatch(DEFAULT_SETTINGS, { budgets: { run: { costUsd: 2, toolCalls: 50 } } });
    expect(capped.budgets).toEqual({ run: { costUsd: 2, toolCalls: 50 }, monthlyCapUsd: 0 });
    const monthly = applySettingsPatch(capped, { budgets: { monthlyCapUsd: 100 } });
    expect(monthly.budgets).toEqual({ run: { costUsd: 2, toolCalls: 50 }, monthlyCapUsd: 100 });
    expect(applySettingsPatch(monthly, { budgets: { run: { tokens: 5000 } } }).budgets.run).toEqual({ tokens: 5000 });
    expect(toWorkerSettings(monthly, "refused")).toMatchObject({ runBudget: { costUsd: 2, toolCalls: 50 }, monthlyRefusal: "refused" });
  });

  it("refuse caps that are no caps", () => {
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { budgets: { run: { costUsd: 0 } } })).toThrow(/Invalid settings change/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { budgets: { run: { tokens: 1.5 } } })).toThrow(/Invalid settings change/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { budgets: { monthlyCapUsd: -1 } })).toThrow(/Invalid settings change/);
  });
});
