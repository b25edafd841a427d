import type { Schedule } from "../src/shared/schedules/schedule";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** Where schedule tests' clocks start: Thursday 2026-01-15, 08:00 UTC (their scheduler's time zone is UTC). */
export const SCHEDULE_START = Date.parse("2026-01-15T08:00:00Z");

/** A schedule tests' clock: `after` ms past SCHEDULE_START. */
export const scheduleClock = (after = 0): FakeClock => new FakeClock(SCHEDULE_START + after);

/** A schedule for tests: enabled, daily at 09:00, each run a new chat, a missed one run once; `overrides` say the rest. */
export function testSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: "s1",
    name: "Morning",
    prompt: "Summarize",
    workspace: "",
    profile: "read-only",
    budget: { costUsd: 1 },
    when: { kind: "daily", time: "09:00" },
    target: "new-chat",
    missed: "run-once",
    enabled: true,
    ...overrides,
  };
}

/**
 * A clock and timers moved by hand (the scheduler's SchedulerClock, a run budget's BudgetClock): `advance` fires, in order, each timer due by
 * the new time, as a computer awake throughout would; `sleep` moves the time without firing anything, as a computer
 * asleep (or an app closed) does, and `wake` then fires what is overdue at once, late.
 */
export class FakeClock {
  #now: number;
  #timers = new Map<number, { at: number; fire: () => void }>();
  #next = 1;

  constructor(start: number) {
    this.#now = start;
  }

  now = (): number => this.#now;

  setTimeout = (fire: () => void, ms: number): unknown => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fire });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.#timers.delete(handle as number);
  };

  /** Timers waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** When the soonest timer is due, if any. */
  get nextDue(): number | undefined {
    let soonest: number | undefined;
    for (const t of this.#timers.values()) if (soonest === undefined || t.at < soonest) soonest = t.at;
    return soonest;
  }

  /** Moves the time forward by `ms`, firing each timer at its own time, in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].fire();
    }
    this.#now = end;
  }

  /** Moves the time forward by `ms` firing nothing (asleep). */
  sleep(ms: number): void {
    this.#now += ms;
  }

  /** Fires every overdue timer now (awake again, the timers late). */
  wake(): void {
    this.advance(0);
  }
}
