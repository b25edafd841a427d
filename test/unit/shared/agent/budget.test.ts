/** Budgets' pure parts (shared/agent/budget.ts): checking caps, what is reached and nearing, and the words said. */
import { describe, expect, it } from "vitest";
import {
  budgetCapsProblem,
  budgetStopText,
  budgetWarningText,
  capsNearing,
  chatBudgetProblem,
  costText,
  dollars,
  monthKey,
  monthlyCapText,
  monthSpendText,
  unpricedSpendText,
  normalizeChatBudget,
  NO_SPEND,
  reachedCap,
} from "../../../../src/shared/agent/budget";

const spend = (more: Partial<typeof NO_SPEND>) => ({ ...NO_SPEND, ...more });

describe("budget caps", () => {
  it("checks caps, saying what is wrong", () => {
    expect(budgetCapsProblem({ costUsd: 2, tokens: 1000, minutes: 30, toolCalls: 50 })).toBeUndefined();
    expect(budgetCapsProblem({ costUsd: 0 })).toMatch(/money cap must be more than \$0/);
    expect(budgetCapsProblem({ tokens: 1.5 })).toMatch(/token cap must be a whole number/);
    expect(budgetCapsProblem({ minutes: -1 })).toMatch(/time cap/);
    expect(budgetCapsProblem({ toolCalls: 0 })).toMatch(/tool call cap/);
    expect(budgetCapsProblem({ dollars: 1 })).toMatch(/unknown budget cap "dollars"/);
    expect(budgetCapsProblem([])).toMatch(/must be an object/);
    expect(chatBudgetProblem({ chat: { minutes: 5 } })).toMatch(/no time cap: set one for each run/);
    expect(chatBudgetProblem({ chat: { tokens: 5 }, run: { minutes: 5 } })).toBeUndefined();
    expect(chatBudgetProblem({ week: {} })).toMatch(/unknown budget scope/);
  });

  it("keeps only scopes with caps", () => {
    expect(normalizeChatBudget({ chat: {}, run: { tokens: 5, costUsd: undefined } })).toEqual({ run: { tokens: 5 } });
    expect(normalizeChatBudget({ chat: {}, run: {} })).toBeUndefined();
  });

  it("a cap is reached at 100 %, nearing from 80 %; money counts only known cost", () => {
    const caps = { costUsd: 2, tokens: 1000, toolCalls: 10, minutes: 1 };
    expect(reachedCap(caps, spend({ tokens: 999 }))).toBeUndefined();
    expect(reachedCap(caps, spend({ tokens: 1000 }))).toBe("tokens");
    expect(reachedCap(caps, spend({ cost: 2 }))).toBe("costUsd");
    expect(reachedCap(caps, spend({ toolCalls: 10 }))).toBe("toolCalls");
    expect(reachedCap(caps, spend({ elapsedMs: 60_000 }))).toBe("minutes");
    expect(reachedCap(caps, spend({ costUnknown: true, tokens: 10 }))).toBeUndefined();
    expect(capsNearing(caps, spend({ tokens: 800, toolCalls: 7 }))).toEqual(["tokens"]);
  });

  it("says a stop as the issue does, and never $0.00 for an unknown cost", () => {
    expect(budgetStopText({ costUsd: 2 }, "costUsd", spend({ cost: 2.01, toolCalls: 41, tokens: 1_200_000 }))).toBe("Stopped at the $2.00 budget: 41 tool calls, 1.2M tokens");
    expect(budgetStopText({ tokens: 50_000 }, "tokens", spend({ tokens: 50_100, toolCalls: 1, costUnknown: true }), "chat")).toBe(
      "Stopped at the chat's 50k-token budget: 1 tool call, cost unknown",
    );
    expect(budgetStopText({ minutes: 90 }, "minutes", spend({ tokens: 10, cost: 0.5 }))).toBe("Stopped at the 90-minute budget: 0 tool calls, 10 tokens, $0.50");
    expect(budgetStopText({ minutes: 120 }, "minutes", spend({}))).toBe("Stopped at the 2-hour budget: 0 tool calls, 0 tokens, $0.00");
    expect(budgetWarningText({ toolCalls: 50 }, "toolCalls", spend({ toolCalls: 41, tokens: 900 }))).toBe("82% of the run's 50-tool-call budget used: 900 tokens, $0.00");
    expect(costText({ cost: 0, costUnknown: true })).toBe("cost unknown");
    expect(costText({ cost: 1.5, costUnknown: true })).toBe("$1.50 + unknown cost");
  });

  it("money too small for four places reads as under a hundredth of a cent, never $0.0000", () => {
    expect(dollars(0.0042)).toBe("$0.0042");
    expect(dollars(0.00001)).toBe("<$0.0001");
    expect(dollars(0)).toBe("$0.00");
  });

  it("a month is the local calendar month; the refusal says where to raise the cap", () => {
    expect(monthKey(new Date(2026, 0, 31, 23, 59))).toBe("2026-01");
    expect(monthKey(new Date(2026, 11, 1, 0, 0))).toBe("2026-12");
    expect(monthlyCapText(50, 50.2)).toMatch(/reached its \$50\.00 cap \(\$50\.20 spent across all chats\).*Settings → Budgets/);
  });
});

describe("this month's spending, as Settings say it", () => {
  const month = (costUsd: number, unpricedTokens = 0) => ({ month: "2026-12", costUsd, unpricedTokens });
  it("the total against the cap, with its share; without a cap the total alone; reached says so", () => {
    expect(monthSpendText(month(7.5), 10)).toBe("$7.50 of the $10.00 monthly cap (75 %)");
    expect(monthSpendText(month(7.5), 0)).toBe("$7.50 this month");
    expect(monthSpendText(month(12), 10)).toBe("$12.00 of the $10.00 monthly cap (120 %): reached, no new run starts");
  });
  it("tokens at a cost unknown are said apart, and only when there are some", () => {
    expect(unpricedSpendText(month(1))).toBeUndefined();
    expect(unpricedSpendText(month(0, 1_200_000))).toBe("Also 1.2M tokens at a cost unknown (models without pricing), not counted toward the cap.");
  });
});
