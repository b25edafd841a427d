/**
 * Cron expressions of five fields (minute, hour, day of month, month, day of week), as Vixie cron reads them: `*`,
 * lists, ranges, steps (`*\/15`, `1-5/2`, `10/5`), month and day names (`jan`, `mon`), 7 as Sunday, and its day rule
 * (when both the day of month and the day of week are restricted, a day matching either runs). A small parser of our
 * own rather than a library: the five fields are all a schedule needs, the page imports it too (the editor shows the
 * next occurrences as the user types), and the local-time arithmetic around it (timing.ts) is ours either way.
 * Pure; no Node or DOM.
 */

export interface CronFields {
  minutes: readonly number[];
  hours: readonly number[];
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Whether the day-of-month field is restricted (not `*`), and the day-of-week one: cron's day rule. */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** The first name's number (months: 1, days of the week: 0). */
  namesFrom?: number;
}

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: "day of week", min: 0, max: 7, names: WEEKDAYS, namesFrom: 0 },
];

export const MAX_CRON_CHARS = 200;

/** The expression's fields, or a readable reason it is not one. Never throws. */
export function parseCron(expression: string): { ok: true; fields: CronFields } | { ok: false; error: string } {
  if (typeof expression !== "string") return { ok: false, error: "a cron expression must be text" };
  if (expression.length > MAX_CRON_CHARS) return { ok: false, error: `a cron expression has at most ${MAX_CRON_CHARS} characters` };
  const parts = expression.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5) {
    return { ok: false, error: `a cron expression has five fields (minute hour day-of-month month day-of-week), not ${parts.length}` };
  }
  const sets: Set<number>[] = [];
  for (let i = 0; i < 5; i++) {
    const parsed = parseField(parts[i], FIELDS[i]);
    if (typeof parsed === "string") return { ok: false, error: parsed };
    sets.push(parsed);
  }
  const weekdays = sets[4];
  if (weekdays.delete(7)) weekdays.add(0);
  const [minutes, hours, days, months] = sets;
  if (days.size > 0 && !canHappen(days, months)) return { ok: false, error: "the days of month given never happen in the months given" };
  return {
    ok: true,
    fields: {
      minutes: [...minutes].sort((a, b) => a - b),
      hours: [...hours].sort((a, b) => a - b),
      days,
      months,
      weekdays,
      daysRestricted: parts[2] !== "*",
      weekdaysRestricted: parts[4] !== "*",
    },
  };
}

/** The reason `expression` is not a cron expression, or undefined when it is one. */
export function cronProblem(expression: string): string | undefined {
  const parsed = parseCron(expression);
  return parsed.ok ? undefined : parsed.error;
}

function parseField(text: string, spec: FieldSpec): Set<number> | string {
  const out = new Set<number>();
  for (const item of text.split(",")) {
    const bad = `the ${spec.name} field's "${item.slice(0, 40)}" is not a value, range or step of ${spec.min}-${spec.max}`;
    const [range, stepText, extra] = item.split("/");
    if (extra !== undefined || range === "") return bad;
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,3}$/.test(stepText) || Number(stepText) < 1) return `the ${spec.name} field's step "${stepText.slice(0, 20)}" must be a whole number from 1`;
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === "*") {
      from = spec.min;
      to = spec.max === 7 ? 6 : spec.max;
    } else {
      const ends = range.split("-");
      if (ends.length > 2) return bad;
      const first = value(ends[0], spec);
      if (first === undefined) return bad;
      from = first;
      if (ends.length === 2) {
        const last = value(ends[1], spec);
        if (last === undefined) return bad;
        to = last;
        if (to < from) return `the ${spec.name} field's range "${range}" runs backwards`;
      } else {
        // `10/5`: from 10 to the end, every 5.
        to = stepText !== undefined ? spec.max : from;
      }
    }
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return out;
}

function value(text: string, spec: FieldSpec): number | undefined {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (spec.namesFrom ?? 0);
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= spec.min && n <= spec.max ? n : undefined;
}

/** The longest each month gets (February: in a leap year). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function canHappen(days: ReadonlySet<number>, months: ReadonlySet<number>): boolean {
  for (const month of months) for (const day of days) if (day <= MONTH_DAYS[month - 1]) return true;
  return false;
}

/** Whether a local calendar day matches the expression's day fields (`weekday`: 0 Sunday … 6 Saturday). */
export function cronDayMatches(fields: CronFields, month: number, day: number, weekday: number): boolean {
  if (!fields.months.has(month)) return false;
  if (fields.daysRestricted && fields.weekdaysRestricted) return fields.days.has(day) || fields.weekdays.has(weekday);
  return fields.days.has(day) && fields.weekdays.has(weekday);
}
