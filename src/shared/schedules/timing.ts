/**
 * When a schedule's next occurrence is: pure, from an instant and a time zone (IANA name, as Intl knows it).
 *
 * Local times follow the wall clock through daylight saving as Temporal's "compatible" rule does: a time the clock
 * skips (02:30 on the spring-forward night) runs as late as the skip (03:30), once; a time the clock shows twice
 * (01:30 on the fall-back night) runs at its first showing, once. "Every N hours" counts elapsed time, so it ignores
 * the clock's jumps. Daily and weekday times are cron expressions underneath ("30 9 * * 1-5").
 */
import { cronDayMatches, parseCron, type CronFields } from "./cron";
import { parseTime, type ScheduleWhen } from "./schedule";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How far ahead a cron expression's next day is looked for: `0 0 29 2 1` (Feb 29th or a Monday) comes sooner, but
 * "Feb 29th" alone (`0 0 29 2 *`) can be nearly eight years off. */
const SEARCH_DAYS = 366 * 8 + 2;

/** The first occurrence strictly after `after` (ms), or undefined when there is none. */
export function nextOccurrence(when: ScheduleWhen, after: number, timeZone: string): number | undefined {
  switch (when.kind) {
    case "once":
      return when.at > after ? when.at : undefined;
    case "every": {
      const period = when.hours * HOUR_MS;
      if (after < when.from) return when.from;
      return when.from + (Math.floor((after - when.from) / period) + 1) * period;
    }
    case "daily":
    case "weekdays": {
      const time = parseTime(when.time);
      if (!time) return undefined;
      return nextCron(`${time.minute} ${time.hour} * * ${when.kind === "daily" ? "*" : "1-5"}`, after, timeZone);
    }
    case "cron":
      return nextCron(when.expression, after, timeZone);
  }
}

/** The next `count` occurrences after `after` (fewer when the schedule ends). */
export function nextOccurrences(when: ScheduleWhen, after: number, timeZone: string, count: number): number[] {
  const out: number[] = [];
  for (let t = after; out.length < count; ) {
    const next = nextOccurrence(when, t, timeZone);
    if (next === undefined) break;
    out.push(next);
    t = next;
  }
  return out;
}

function nextCron(expression: string, after: number, timeZone: string): number | undefined {
  const parsed = parseCron(expression);
  return parsed.ok ? nextCronTime(parsed.fields, after, timeZone) : undefined;
}

/** The first instant after `after` whose local time (in `timeZone`) the fields match. */
export function nextCronTime(fields: CronFields, after: number, timeZone: string): number | undefined {
  const start = wallClock(after, timeZone);
  // From the local day before `after`'s: a skipped time of that day may land after `after` (02:30 run at 03:30).
  let day = Date.UTC(start.year, start.month - 1, start.day) - DAY_MS;
  for (let i = 0; i < SEARCH_DAYS; i++, day += DAY_MS) {
    const date = new Date(day);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + 1;
    const dayOfMonth = date.getUTCDate();
    if (!cronDayMatches(fields, month, dayOfMonth, date.getUTCDay())) continue;
    let best: number | undefined;
    for (const hour of fields.hours) {
      for (const minute of fields.minutes) {
        const t = localToInstant({ year, month, day: dayOfMonth, hour, minute }, timeZone);
        // Times are in order on a day, except a skipped one moved past the skip: keep the least after `after`.
        if (t > after && (best === undefined || t < best)) best = t;
      }
      if (best !== undefined && hour > wallClock(best, timeZone).hour + 1) break;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows `timeZone`. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The local date and time an instant shows in `timeZone` (to the minute). */
export function wallClock(instant: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute };
}

/** The zone's offset from UTC at an instant, in ms (to the minute). */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const floored = instant - (((instant % 60_000) + 60_000) % 60_000);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - floored;
}

/**
 * The instant a local date and time is in `timeZone`, "compatible" (the module comment): of two, the first; of none
 * (skipped), as late as the skip.
 */
export function localToInstant(local: WallClock, timeZone: string): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const after = offsetAt(asUtc + DAY_MS, timeZone);
  const matches: number[] = [];
  for (const offset of new Set([before, after])) {
    const t = asUtc - offset;
    const w = wallClock(t, timeZone);
    if (w.year === local.year && w.month === local.month && w.day === local.day && w.hour === local.hour && w.minute === local.minute) matches.push(t);
  }
  if (matches.length > 0) return Math.min(...matches);
  // Skipped: the offset before the skip puts it as far past the skip as it was into it.
  return asUtc - before;
}
