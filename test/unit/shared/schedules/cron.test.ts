import { describe, expect, it } from "vitest";
import { cronDayMatches, cronProblem, parseCron } from "../../../../src/shared/schedules/cron";

describe("parseCron", () => {
  it("reads five fields: lists, ranges, steps, names, 7 as Sunday", () => {
    const parsed = parseCron("0,30 9-17/4 1,15 jan-mar mon-fri");
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.fields.minutes).toEqual([0, 30]);
    expect(parsed.fields.hours).toEqual([9, 13, 17]);
    expect([...parsed.fields.days].sort((a, b) => a - b)).toEqual([1, 15]);
    expect([...parsed.fields.months].sort()).toEqual([1, 2, 3]);
    expect([...parsed.fields.weekdays].sort()).toEqual([1, 2, 3, 4, 5]);
    const sunday = parseCron("0 0 * * 7");
    expect(sunday.ok && [...sunday.fields.weekdays]).toEqual([0]);
    const from = parseCron("10/25 * * * *");
    expect(from.ok && from.fields.minutes).toEqual([10, 35]);
  });

  it("says what is wrong with a bad expression", () => {
    expect(cronProblem("* * * *")).toMatch(/five fields.*not 4/);
    expect(cronProblem("60 * * * *")).toMatch(/minute field's "60"/);
    expect(cronProblem("* 5-2 * * *")).toMatch(/runs backwards/);
    expect(cronProblem("*/0 * * * *")).toMatch(/step "0"/);
    expect(cronProblem("0 0 31 feb *")).toMatch(/never happen/);
    expect(cronProblem("0 0 * foo *")).toMatch(/month field/);
    expect(cronProblem("x".repeat(300))).toMatch(/at most/);
    expect(cronProblem("0 9 * * 1-5")).toBeUndefined();
  });

  it("matches a day by cron's rule: both day fields restricted means either", () => {
    const either = parseCron("0 0 1 * 1");
    const onlyWeekday = parseCron("0 0 * * 1");
    if (!either.ok || !onlyWeekday.ok) throw new Error("parse");
    expect(cronDayMatches(either.fields, 5, 1, 3)).toBe(true);
    expect(cronDayMatches(either.fields, 5, 4, 1)).toBe(true);
    expect(cronDayMatches(either.fields, 5, 4, 2)).toBe(false);
    expect(cronDayMatches(onlyWeekday.fields, 5, 1, 3)).toBe(false);
  });
});
