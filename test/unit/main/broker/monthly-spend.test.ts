/**
 * The month's spending across all chats (main/broker/monthly-spend.ts): workers' reports add what is new, the total
 * survives a restart, a new local calendar month starts afresh, and the cap's refusal says where to raise it and is
 * lifted by one timer when the month turns.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MonthlySpend } from "../../../../src/main/broker/monthly-spend";
import type { WorkerStatus } from "../../../../src/shared/protocol/control-protocol";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-monthly-");
afterEach(() => temp.removeAll());

const status = (sessionId: string, id: string, cost: number): WorkerStatus => ({
  sessionId, running: false, messageCount: 1, updated: 1, spend: { id, cost },
});

function clock(start: Date) {
  let now = start;
  const timers: { run: () => void; ms: number }[] = [];
  return {
    options: { now: () => now, setTimer: (run: () => void, ms: number) => timers.push({ run, ms }), clearTimer: () => void timers.splice(0) },
    set: (date: Date) => (now = date),
    timers,
  };
}

describe("monthly spending", () => {
  it("adds what each session's reports say is new, per opening; survives a restart", async () => {
    const file = join(temp.make(), "monthly-spend.json");
    const c = clock(new Date(2026, 11, 5, 10));
    const spend = new MonthlySpend(file, c.options);
    spend.report(status("a", "open-1", 0.5));
    spend.report(status("a", "open-1", 0.75));
    spend.report(status("b", "open-9", 1));
    // The same session opened again in a new worker counts from its own zero.
    spend.report(status("a", "open-2", 0.25));
    spend.report({ sessionId: "c", running: true, messageCount: 0, updated: 1 });
    expect(spend.spentUsd).toBeCloseTo(2);
    await spend.written();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ version: 1, month: "2026-12", costUsd: 2 });
    expect(new MonthlySpend(file, c.options).spentUsd).toBeCloseTo(2);
  });

  it("a new calendar month (local time) starts from nothing", async () => {
    const file = join(temp.make(), "monthly-spend.json");
    writeFileSync(file, JSON.stringify({ version: 1, month: "2026-11", costUsd: 40 }));
    const c = clock(new Date(2026, 11, 1, 0, 0, 1));
    const spend = new MonthlySpend(file, c.options);
    expect(spend.spentUsd).toBe(0);
    spend.add(3);
    expect(spend.spentUsd).toBe(3);
  });

  it("at the cap runs are refused, saying where to raise it; raised, or a month later, they are not", async () => {
    const file = join(temp.make(), "monthly-spend.json");
    const c = clock(new Date(2026, 11, 31, 23, 0));
    const spend = new MonthlySpend(file, c.options);
    let changes = 0;
    spend.onChange(() => changes++);
    spend.add(10);
    expect(spend.refusal(0)).toBeUndefined();
    expect(spend.refusal(20)).toBeUndefined();
    expect(spend.refusal(10)).toMatch(/reached its \$10\.00 cap .*Raise or remove the cap in Settings → Budgets/);
    // One timer, for the month's turn (an hour away).
    expect(c.timers).toHaveLength(1);
    expect(c.timers[0].ms).toBe(60 * 60_000);
    c.set(new Date(2027, 0, 1, 0, 0, 1));
    const before = changes;
    c.timers[0].run();
    expect(changes).toBe(before + 1);
    expect(spend.refusal(10)).toBeUndefined();
  });

  it("a broken file is set aside, the count starts afresh and the user is told", async () => {
    const file = join(temp.make(), "monthly-spend.json");
    writeFileSync(file, "{ not json");
    const spend = new MonthlySpend(file, clock(new Date(2026, 11, 5)).options);
    expect(spend.spentUsd).toBe(0);
    expect(spend.notices[0]?.text).toMatch(/monthly spending file/i);
  });

  it("tokens at a cost unknown (models without pricing) count beside the money, per opening; the snapshot Settings show", async () => {
    const file = join(temp.make(), "monthly-spend.json");
    // An older file, without the field: none yet.
    writeFileSync(file, JSON.stringify({ version: 1, month: "2026-12", costUsd: 1.5 }));
    const c = clock(new Date(2026, 11, 5, 10));
    const spend = new MonthlySpend(file, c.options);
    expect(spend.snapshot()).toEqual({ month: "2026-12", costUsd: 1.5, unpricedTokens: 0 });
    let changes = 0;
    spend.onChange(() => changes++);
    const unpriced = (sessionId: string, id: string, cost: number, unpricedTokens: number): WorkerStatus => ({
      sessionId, running: false, messageCount: 1, updated: 1, spend: { id, cost, unpricedTokens },
    });
    spend.report(unpriced("a", "open-1", 0, 1_000));
    spend.report(unpriced("a", "open-1", 0, 1_500));
    spend.report(unpriced("a", "open-1", 0, 1_500)); // nothing new: no write, nobody told
    spend.report(unpriced("b", "open-2", 0.5, 200));
    expect(changes).toBe(3);
    expect(spend.snapshot()).toEqual({ month: "2026-12", costUsd: 2, unpricedTokens: 1_700 });
    expect(spend.spentUsd).toBe(2); // the cap counts money only
    await spend.written();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ version: 1, month: "2026-12", costUsd: 2, unpricedTokens: 1_700 });
    expect(new MonthlySpend(file, c.options).snapshot().unpricedTokens).toBe(1_700);
    // A new month starts both afresh.
    c.set(new Date(2027, 0, 1, 0, 0, 1));
    expect(spend.snapshot()).toEqual({ month: "2027-01", costUsd: 0, unpricedTokens: 0 });
    spend.report(unpriced("c", "open-3", 0, -5));
    expect(spend.snapshot().unpricedTokens).toBe(0);
  });
});
