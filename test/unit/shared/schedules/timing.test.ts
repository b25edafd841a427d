import { describe, expect, it } from "vitest";
import { localToInstant, nextOccurrence, nextOccurrences, wallClock } from "../../../../src/shared/schedules/timing";

const BERLIN = "Europe/Berlin";
const NY = "America/New_York";
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const utc = (text: string) => Date.parse(text);

describe("nextOccurrence", () => {
  it("daily: today's time if still ahead, else tomorrow's, in the zone's local time", () => {
    const when = { kind: "daily", time: "09:30" } as const;
    // 07:00 UTC is 08:00 in Berlin (winter): 09:30 Berlin is 08:30 UTC the same day.
    expect(iso(nextOccurrence(when, utc("2026-01-15T07:00:00Z"), BERLIN))).toBe("2026-01-15T08:30:00.000Z");
    // Exactly at the occurrence: the next one (strictly after).
    expect(iso(nextOccurrence(when, utc("2026-01-15T08:30:00Z"), BERLIN))).toBe("2026-01-16T08:30:00.000Z");
    expect(iso(nextOccurrence(when, utc("2026-01-15T07:00:00Z"), "UTC"))).toBe("2026-01-15T09:30:00.000Z");
  });

  it("weekdays: Friday's occurrence is followed by Monday's", () => {
    const when = { kind: "weekdays", time: "09:00" } as const;
    // 2026-01-16 is a Friday.
    expect(iso(nextOccurrence(when, utc("2026-01-16T10:00:00Z"), "UTC"))).toBe("2026-01-19T09:00:00.000Z");
    expect(nextOccurrences(when, utc("2026-01-16T00:00:00Z"), "UTC", 3).map(iso)).toEqual([
      "2026-01-16T09:00:00.000Z",
      "2026-01-19T09:00:00.000Z",
      "2026-01-20T09:00:00.000Z",
    ]);
  });

  it("every N hours counts from its start in elapsed time, across a clock change", () => {
    const from = utc("2026-03-28T22:00:00Z");
    const when = { kind: "every", hours: 3, from } as const;
    expect(iso(nextOccurrence(when, from - 1, BERLIN))).toBe("2026-03-28T22:00:00.000Z");
    expect(iso(nextOccurrence(when, from, BERLIN))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(nextOccurrence(when, utc("2026-03-29T02:59:59Z"), BERLIN))).toBe("2026-03-29T04:00:00.000Z");
  });

  it("once: its time, then never", () => {
    const at = utc("2026-02-01T12:00:00Z");
    expect(nextOccurrence({ kind: "once", at }, at - 1, "UTC")).toBe(at);
    expect(nextOccurrence({ kind: "once", at }, at, "UTC")).toBeUndefined();
  });

  it("cron: steps, lists, names, and the day-of-month-or-weekday rule", () => {
    expect(nextOccurrences({ kind: "cron", expression: "*/20 9-10 * * *" }, utc("2026-01-15T09:50:00Z"), "UTC", 3).map(iso)).toEqual([
      "2026-01-15T10:00:00.000Z",
      "2026-01-15T10:20:00.000Z",
      "2026-01-15T10:40:00.000Z",
    ]);
    // The 1st of the month or a Monday (both restricted: either); 2026-02-01 is a Sunday, 02-02 a Monday.
    expect(nextOccurrences({ kind: "cron", expression: "0 8 1 * mon" }, utc("2026-01-31T12:00:00Z"), "UTC", 3).map(iso)).toEqual([
      "2026-02-01T08:00:00.000Z",
      "2026-02-02T08:00:00.000Z",
      "2026-02-09T08:00:00.000Z",
    ]);
    // February 29th only: the next leap year's.
    expect(iso(nextOccurrence({ kind: "cron", expression: "0 0 29 feb *" }, utc("2026-01-01T00:00:00Z"), "UTC"))).toBe("2028-02-29T00:00:00.000Z");
    // 7 is Sunday too.
    expect(iso(nextOccurrence({ kind: "cron", expression: "15 6 * * 7" }, utc("2026-01-15T00:00:00Z"), "UTC"))).toBe("2026-01-18T06:15:00.000Z");
  });

  it("a local time keeps its wall-clock hour across daylight saving (daily at 09:00 in New York)", () => {
    const when = { kind: "daily", time: "09:00" } as const;
    // Before 2026-03-08 New York is UTC-5, after it UTC-4.
    expect(nextOccurrences(when, utc("2026-03-07T00:00:00Z"), NY, 2).map(iso)).toEqual(["2026-03-07T14:00:00.000Z", "2026-03-08T13:00:00.000Z"]);
  });

  it("a time the clock skips runs once, as late as the skip; a time it shows twice runs once, at its first showing", () => {
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist and runs at 03:30 CEST (01:30 UTC).
    const skipped = { kind: "daily", time: "02:30" } as const;
    expect(nextOccurrences(skipped, utc("2026-03-28T12:00:00Z"), BERLIN, 3).map(iso)).toEqual([
      "2026-03-29T01:30:00.000Z",
      "2026-03-30T00:30:00.000Z",
      "2026-03-31T00:30:00.000Z",
    ]);
    // Berlin, 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 shows twice and runs at the first (00:30 UTC) only.
    expect(nextOccurrences(skipped, utc("2026-10-24T12:00:00Z"), BERLIN, 2).map(iso)).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
    // Asked during the second showing: the next is tomorrow's, not the second 02:30.
    expect(iso(nextOccurrence(skipped, utc("2026-10-25T01:00:00Z"), BERLIN))).toBe("2026-10-26T01:30:00.000Z");
    // An hourly cron through the fall-back: 02:00 local once, then 03:00 local, an hour apart... the repeated hour's
    // second showing is not an occurrence of its own.
    expect(nextOccurrences({ kind: "cron", expression: "0 * * * *" }, utc("2026-10-24T23:30:00Z"), BERLIN, 3).map(iso)).toEqual([
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T02:00:00.000Z",
      "2026-10-25T03:00:00.000Z",
    ]);
  });

  it("localToInstant and wallClock agree", () => {
    const t = localToInstant({ year: 2026, month: 7, day: 1, hour: 12, minute: 5 }, BERLIN);
    expect(iso(t)).toBe("2026-07-01T10:05:00.000Z");
    expect(wallClock(t, BERLIN)).toEqual({ year: 2026, month: 7, day: 1, hour: 12, minute: 5 });
  });
});
