/**
 * Runs schedules at their occurrences (issue 27 §4). Electron-free; the clock and the timer are injected, so tests
 * drive time by hand.
 *
 * No polling: one timer, armed for the soonest next occurrence of all enabled schedules (re-armed at least every
 * ~24 days, the longest a timer waits), and nothing runs in between. Each schedule remembers up to when its
 * occurrences were dealt with (`checkedUntil`); whenever the timer fires (or at start) the occurrences since then are:
 *   - on time (the latest due one at most `lateGraceMs` ago): run; earlier ones missed too are covered by it;
 *   - late (Paddock was closed, the computer asleep, the timer held up): run once, or skipped, as the schedule's
 *     `missed` says; either way one run record says what happened.
 * A schedule never runs twice at once: an occurrence due while its previous run goes on is recorded as skipped,
 * "still running". A run that was going on when Paddock quit is recorded as stopped at the next start.
 * A new schedule, one whose timing changed and one enabled again count from when they were saved: no past occurrence
 * of theirs is "missed".
 */
import { errorText } from "../../shared/error-text";
import { RUNS_KEPT, scheduleProblem, type Schedule, type ScheduleRun, type ScheduleView } from "../../shared/schedules/schedule";
import { isTimeZone, nextOccurrence } from "../../shared/schedules/timing";
import type { ScheduleStore, StoredSchedule } from "./schedule-store";

export interface SchedulerClock {
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: a timer that does not keep the process alive on its own. */
export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimeout: (fire, ms) => {
    const timer = setTimeout(fire, ms);
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How one occurrence's run ended (the runner's answer). */
export interface OccurrenceResult {
  outcome: "finished" | "failed" | "stopped-by-budget" | "stopped";
  reason?: string;
  chatId?: string;
  spend?: ScheduleRun["spend"];
  /** What it changed in the workspace (absent: no file). */
  changes?: ScheduleRun["changes"];
}

/**
 * Runs one occurrence: a chat under the schedule's contract (schedule-runner.ts). Calls `started` with the chat's id
 * once it has one; resolves when the run ends. A rejection is a failed run.
 */
export type RunOccurrence = (schedule: Schedule, started: (chatId: string) => void) => Promise<OccurrenceResult>;

export interface SchedulerOptions {
  store: ScheduleStore;
  run: RunOccurrence;
  clock?: SchedulerClock;
  /** The computer's time zone (IANA), asked at each computation: it may change while Paddock runs. */
  timeZone?: () => string;
  /** An occurrence this late or less is on time; later, it was missed. Default 5 minutes. */
  lateGraceMs?: number;
  /** A write of the schedules file failed (the user is told). */
  onWriteError?(error: unknown): void;
}

/** setTimeout's longest wait; a farther occurrence re-arms the timer when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const MISSED = "missed while Paddock was closed or the computer asleep";
/** Occurrences counted when many were missed (every hour for a year fits). */
const MAX_COUNTED = 10_000;

export class Scheduler {
  readonly #store: ScheduleStore;
  readonly #run: RunOccurrence;
  readonly #clock: SchedulerClock;
  readonly #timeZone: () => string;
  readonly #grace: number;
  readonly #onWriteError: (error: unknown) => void;
  /** Each running schedule's run, by schedule id. */
  readonly #active = new Map<string, Promise<void>>();
  readonly #listeners = new Set<(views: ScheduleView[]) => void>();
  #timer: unknown;
  #started = false;
  #disposed = false;

  constructor(options: SchedulerOptions) {
    this.#store = options.store;
    this.#run = options.run;
    this.#clock = options.clock ?? systemClock;
    this.#timeZone = options.timeZone ?? localTimeZone;
    this.#grace = options.lateGraceMs ?? 5 * 60_000;
    this.#onWriteError = options.onWriteError ?? (() => undefined);
  }

  /** Records runs a quit cut short, deals with what was missed while closed, and arms the timer. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const now = this.#clock.now();
    for (const entry of this.#store.list()) {
      const cut = entry.runs.filter((r) => r.outcome === "running");
      if (cut.length === 0) continue;
      for (const run of cut) Object.assign(run, { outcome: "stopped", reason: "Paddock quit during the run", ended: now });
      this.#put(entry);
    }
    this.#tick();
  }

  /** Every schedule with its runs and next occurrence, in the order they were added. */
  list(): ScheduleView[] {
    const timeZone = this.#zone();
    return this.#store.list().map((entry) => view(entry, timeZone));
  }

  /** Called with the whole list whenever a schedule or its runs change. */
  onChange(listener: (views: ScheduleView[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Adds or replaces a schedule (its runs kept). Throws with the reason for an invalid one, changing nothing. */
  async save(schedule: Schedule): Promise<ScheduleView> {
    const problem = scheduleProblem(schedule);
    if (problem) throw new Error(`Invalid schedule: ${problem}`);
    const now = this.#clock.now();
    const before = this.#store.get(schedule.id);
    const recount = !before || JSON.stringify(before.schedule.when) !== JSON.stringify(schedule.when) || (!before.schedule.enabled && schedule.enabled);
    const entry: StoredSchedule = { schedule: structuredClone(schedule), runs: before?.runs ?? [], checkedUntil: recount ? now : before.checkedUntil };
    await this.#store.put(entry);
    this.#changed();
    this.#arm();
    return view(entry, this.#zone());
  }

  /**
   * Turns a schedule on or off (the list's switch), nothing else of it changed: off, its timer is disarmed at once and
   * it shows no next run; on again, it counts from now (no occurrence while it was off is "missed"). A run going on
   * goes on. Throws when there is no such schedule.
   */
  async setEnabled(id: string, enabled: boolean): Promise<ScheduleView> {
    const entry = this.#store.get(id);
    if (!entry) throw new Error("No such schedule");
    if (entry.schedule.enabled === enabled) return view(entry, this.#zone());
    return this.save({ ...entry.schedule, enabled });
  }

  /** Whether any schedule is enabled: what keeps the desktop app in the tray with no window (lifecycle/stay-in-tray.ts). */
  hasEnabled(): boolean {
    return this.#store.list().some((entry) => entry.schedule.enabled);
  }

  /** Removes a schedule (a run of it going on goes on, and is no longer recorded). False when there was none. */
  async delete(id: string): Promise<boolean> {
    const removed = await this.#store.delete(id);
    if (removed) {
      this.#changed();
      this.#arm();
    }
    return removed;
  }

  /** Runs a schedule now, by hand; refused (recorded as skipped) while it runs. Resolves once the run has started. */
  runNow(id: string): ScheduleRun {
    const entry = this.#store.get(id);
    if (!entry) throw new Error("No such schedule");
    const now = this.#clock.now();
    return this.#fire(entry, now, { byHand: true });
  }

  /** Whether a run of the schedule is going on. */
  isRunning(id: string): boolean {
    return this.#active.has(id);
  }

  /** Resolves once no run is going on (tests, quitting). */
  async idle(): Promise<void> {
    while (this.#active.size > 0) await Promise.all(this.#active.values());
  }

  /**
   * Stops the timer and resolves once the file is written; runs going on are left to the chats they run in (their
   * records end at the next start).
   */
  async dispose(): Promise<void> {
    this.#disposed = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#store.flush();
  }

  /** Deals with every schedule's occurrences due by now, then arms the timer for the next. */
  #tick(): void {
    if (this.#disposed) return;
    const now = this.#clock.now();
    const timeZone = this.#zone();
    for (const entry of this.#store.list()) {
      if (!entry.schedule.enabled) continue;
      const first = nextOccurrence(entry.schedule.when, entry.checkedUntil, timeZone);
      if (first === undefined || first > now) continue;
      let last = first;
      let count = 1;
      for (let next = nextOccurrence(entry.schedule.when, last, timeZone); next !== undefined && next <= now && count < MAX_COUNTED; next = nextOccurrence(entry.schedule.when, last, timeZone)) {
        last = next;
        count++;
      }
      entry.checkedUntil = now;
      const earlier = count - 1;
      if (now - last <= this.#grace) {
        // On time; earlier ones missed are covered by this run, or skipped as the schedule says.
        if (earlier > 0 && entry.schedule.missed === "skip") record(entry, { occurrence: first, at: now, outcome: "skipped", reason: `${MISSED}${times(earlier)}` });
        this.#put(entry);
        this.#fire(entry, last, {});
      } else if (entry.schedule.missed === "run-once") {
        this.#put(entry);
        this.#fire(entry, last, { note: `${MISSED}${times(count)}: ran once` });
      } else {
        record(entry, { occurrence: last, at: now, outcome: "skipped", reason: `${MISSED}${times(count)}` });
        this.#put(entry);
      }
    }
    this.#arm();
  }

  /** Starts a run of `entry` for `occurrence` unless one is going on (then recorded as skipped); returns its record. */
  #fire(entry: StoredSchedule, occurrence: number, how: { byHand?: boolean; note?: string }): ScheduleRun {
    const id = entry.schedule.id;
    const at = this.#clock.now();
    const base = { occurrence, at, ...(how.byHand ? { byHand: true } : {}) };
    if (this.#active.has(id)) {
      const skipped: ScheduleRun = { ...base, outcome: "skipped", reason: "still running" };
      this.#update(id, (e) => record(e, skipped));
      return skipped;
    }
    const running: ScheduleRun = { ...base, outcome: "running", ...(how.note ? { reason: how.note } : {}) };
    this.#update(id, (e) => record(e, running));
    const same = (r: ScheduleRun) => r.at === at && r.occurrence === occurrence && r.outcome === "running";
    const done = (async () => {
      let result: OccurrenceResult;
      try {
        result = await this.#run(entry.schedule, (chatId) => this.#update(id, (e) => {
          const r = e.runs.find(same);
          if (r) r.chatId = chatId;
        }));
      } catch (error) {
        result = { outcome: "failed", reason: errorText(error) };
      }
      // Quitting ends the run: the next start records it as stopped by the quit, not as this run's failure.
      if (this.#disposed) return;
      this.#update(id, (e) => {
        const r = e.runs.find(same);
        if (!r) return;
        const reason = [how.note, result.reason].filter(Boolean).join("; ");
        Object.assign(r, { outcome: result.outcome, ended: this.#clock.now() }, reason ? { reason } : {}, result.chatId ? { chatId: result.chatId } : {}, result.spend ? { spend: result.spend } : {}, result.changes ? { changes: result.changes } : {});
      });
    })().finally(() => this.#active.delete(id));
    this.#active.set(id, done);
    return running;
  }

  /** Changes the stored entry of `id` (if it is still there), writes and tells. */
  #update(id: string, change: (entry: StoredSchedule) => void): void {
    const entry = this.#store.get(id);
    if (!entry) return;
    change(entry);
    this.#put(entry);
  }

  #put(entry: StoredSchedule): void {
    this.#store.put(entry).catch((error) => this.#onWriteError(error));
    this.#changed();
  }

  #changed(): void {
    if (this.#listeners.size === 0) return;
    const views = this.list();
    for (const listener of this.#listeners) listener(views);
  }

  #arm(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#disposed || !this.#started) return;
    const timeZone = this.#zone();
    let soonest: number | undefined;
    for (const entry of this.#store.list()) {
      if (!entry.schedule.enabled) continue;
      const next = nextOccurrence(entry.schedule.when, entry.checkedUntil, timeZone);
      if (next !== undefined && (soonest === undefined || next < soonest)) soonest = next;
    }
    if (soonest === undefined) return;
    const delay = Math.min(Math.max(0, soonest - this.#clock.now()), MAX_TIMER_MS);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#tick();
    }, delay);
  }

  #zone(): string {
    const zone = this.#timeZone();
    return isTimeZone(zone) ? zone : "UTC";
  }
}

function view(entry: StoredSchedule, timeZone: string): ScheduleView {
  const next = entry.schedule.enabled ? nextOccurrence(entry.schedule.when, entry.checkedUntil, timeZone) : undefined;
  return { schedule: entry.schedule, runs: entry.runs, ...(next !== undefined ? { next } : {}) };
}

/** Adds a run, newest first, keeping the last RUNS_KEPT. */
function record(entry: StoredSchedule, run: ScheduleRun): void {
  entry.runs = [run, ...entry.runs].slice(0, RUNS_KEPT);
}

function times(count: number): string {
  return count > 1 ? ` (${count} times)` : "";
}

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
