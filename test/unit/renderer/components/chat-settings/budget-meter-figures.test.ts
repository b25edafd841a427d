/** The header's budget meter: the cap nearest its end, of the run's or the chat's, said against its cap; time counted live. */
import { describe, expect, it } from "vitest";
import { capFigure, leadingCap } from "../../../../../src/renderer/components/chat-settings/budget-meter-figures";
import { NO_SPEND } from "../../../../../src/shared/agent/budget";

const spend = (more: Partial<typeof NO_SPEND>) => ({ ...NO_SPEND, ...more });

describe("the budget meter's figures", () => {
  it("says each cap's spend against it, and an unknown cost as unknown", () => {
    expect(capFigure("costUsd", { costUsd: 2 }, spend({ cost: 0.42 }))).toBe("$0.42 / $2.00");
    expect(capFigure("costUsd", { costUsd: 2 }, spend({ costUnknown: true, tokens: 5 }))).toBe("cost unknown / $2.00");
    expect(capFigure("tokens", { tokens: 50_000 }, spend({ tokens: 12_345 }))).toBe("12k / 50k tokens");
    expect(capFigure("minutes", { minutes: 10 }, spend({ elapsedMs: 185_000 }))).toBe("3 / 10 min");
    expect(capFigure("toolCalls", { toolCalls: 50 }, spend({ toolCalls: 4 }))).toBe("4 / 50 calls");
  });

  it("shows the cap nearest its end, of either scope; the run's time counts on while it runs", () => {
    const meter = {
      chat: { caps: { costUsd: 10 }, spend: spend({ cost: 6 }) },
      run: { caps: { tokens: 1000, minutes: 10 }, spend: spend({ tokens: 500 }), startedAt: 1_000 },
    };
    expect(leadingCap(meter, 1_000)).toMatchObject({ scope: "chat", kind: "costUsd", share: 0.6 });
    expect(leadingCap(meter, 1_000 + 9 * 60_000)).toMatchObject({ scope: "run", kind: "minutes", share: 0.9 });
    expect(leadingCap(undefined, 0)).toBeUndefined();
  });
});
