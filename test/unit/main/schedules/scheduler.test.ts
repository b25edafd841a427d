import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import type { Schedule, ScheduleRun } from "../../../../src/shared/schedules/schedule";
import { ScheduleStore } from "../../../../src/main/schedules/schedule-store";
import { Scheduler, type OccurrenceResult } from "../../../../src/main/schedules/scheduler";
import { FakeClock, HOUR, MINUTE, SCHEDULE_START as START, scheduleClock, testSchedule } from "../../../../testkit/fake-clock";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-schedules-");
afterEach(() => temp.removeAll());

const schedule = testSchedule;

/** A runner whose runs end when the test says; each run's schedule and chat recorded. */
class Runs {
  started: { id: string; chat: string; end(result?: Partial<OccurrenceResult>): void }[] = [];
  run = (s: Schedule, started: (chat: string) => void): Promise<OccurrenceResult> =>
    new Promise((resolve) => {
      const chat = `chat-${this.started.length + 1}`;
      started(chat);
      this.started.push({ id: s.id, chat, end: (result = {}) => resolve({ outcome: "finished", chatId: chat, spend: { cost: 0.01, costUnknown: false, tokens: 42 }, ...result }) });
    });
}

function rig(options: { clock?: FakeClock; dir?: string } = {}) {
  const dir = options.dir ?? temp.make();
  const clock = options.clock ?? scheduleClock();
  const store = new ScheduleStore(join(dir, "schedules.json"));
  const runs = new Runs();
  const scheduler = new Scheduler({ store, run: runs.run, clock, timeZone: () => "UTC" });
  return { dir, clock, store, runs, scheduler };
}

const outcomes = (runs: ScheduleRun[]) => runs.map((r) => r.outcome);

describe("Scheduler", () => {
  it("runs a daily schedule at its time, once a day, with one timer and no polling", async () => {
    const { clock, runs, scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule());
    expect(clock.pending).toBe(1);
    expect(clock.nextDue).toBe(Date.parse("2026-01-15T09:00:00Z"));
    clock.advance(HOUR - 1);
    expect(runs.started).toHaveLength(0);
    clock.advance(1);
    expect(runs.started).toHaveLength(1);
    runs.started[0].end();
    await scheduler.idle();
    const [view] = scheduler.list();
    expect(view.runs[0]).toMatchObject({ outcome: "finished", chatId: "chat-1", spend: { tokens: 42 }, occurrence: Date.parse("2026-01-15T09:00:00Z") });
    expect(view.next).toBe(Date.parse("2026-01-16T09:00:00Z"));
    clock.advance(24 * HOUR);
    expect(runs.started).toHaveLength(2);
    expect(clock.pending).toBe(1);
  });

  it("weekdays skip the weekend; every N hours and cron fire at theirs", async () => {
    const { clock, runs, scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule({ id: "wd", when: { kind: "weekdays", time: "09:00" } }));
    await scheduler.save(schedule({ id: "ev", when: { kind: "every", hours: 6, from: START } }));
    await scheduler.save(schedule({ id: "cr", when: { kind: "cron", expression: "30 12 * * sat" } }));
    const fired: string[] = [];
    // Thursday 08:00 to Monday 10:00: each run ends at once.
    for (let t = 0; t < 4 * 24 + 2; t++) {
      clock.advance(HOUR);
      for (const r of runs.started.splice(0)) {
        fired.push(`${r.id}@${new Date(clock.now()).toISOString().slice(5, 13)}`);
        r.end();
      }
      await scheduler.idle();
    }
    expect(fired.filter((f) => f.startsWith("wd"))).toEqual(["wd@01-15T09", "wd@01-16T09", "wd@01-19T09"]);
    expect(fired.filter((f) => f.startsWith("cr"))).toEqual(["cr@01-17T13"]);
    expect(fired.filter((f) => f.startsWith("ev"))).toHaveLength(16);
  });

  it("never runs two occurrences of one schedule at once: the overlapping one is recorded as skipped, still running", async () => {
    const { clock, runs, scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule({ when: { kind: "every", hours: 1, from: START + HOUR } }));
    clock.advance(HOUR);
    expect(runs.started).toHaveLength(1);
    clock.advance(HOUR);
    expect(runs.started).toHaveLength(1);
    expect(scheduler.list()[0].runs[0]).toMatchObject({ outcome: "skipped", reason: "still running" });
    // By hand too.
    expect(scheduler.runNow("s1")).toMatchObject({ outcome: "skipped", reason: "still running", byHand: true });
    runs.started[0].end();
    await scheduler.idle();
    clock.advance(HOUR);
    expect(runs.started).toHaveLength(2);
    expect(outcomes(scheduler.list()[0].runs)).toEqual(["running", "skipped", "skipped", "finished"]);
  });

  it("missed while closed: run once on the next start, recorded; or skipped, as the schedule says", async () => {
    const first = rig();
    first.scheduler.start();
    await first.scheduler.save(schedule({ id: "once", missed: "run-once" }));
    await first.scheduler.save(schedule({ id: "skip", missed: "skip" }));
    await first.scheduler.dispose();
    // Closed from Thursday 08:00 to Sunday 10:00: four 09:00s missed.
    const clock = scheduleClock(3 * 24 * HOUR + 2 * HOUR);
    const second = rig({ clock, dir: first.dir });
    second.scheduler.start();
    expect(second.runs.started.map((r) => r.id)).toEqual(["once"]);
    second.runs.started[0].end();
    await second.scheduler.idle();
    const [once, skip] = second.scheduler.list();
    expect(once.runs).toHaveLength(1);
    expect(once.runs[0]).toMatchObject({ outcome: "finished", reason: "missed while Paddock was closed or the computer asleep (4 times): ran once" });
    expect(skip.runs).toEqual([expect.objectContaining({ outcome: "skipped", reason: "missed while Paddock was closed or the computer asleep (4 times)" })]);
    // Both go on at their next time.
    expect(once.next).toBe(Date.parse("2026-01-19T09:00:00Z"));
    clock.advance(23 * HOUR);
    expect(second.runs.started.map((r) => r.id)).toEqual(["once", "once", "skip"]);
  });

  it("missed while asleep: the late timer counts as missed; on waking on time it just runs", async () => {
    const { clock, runs, scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule({ id: "skip", missed: "skip" }));
    clock.sleep(5 * HOUR);
    clock.wake();
    expect(runs.started).toHaveLength(0);
    expect(scheduler.list()[0].runs[0]).toMatchObject({ outcome: "skipped", reason: expect.stringMatching(/asleep$/) });
    // Asleep until a minute after the next 09:00: on time (within the grace), it runs.
    clock.sleep(20 * HOUR + MINUTE);
    clock.wake();
    expect(runs.started).toHaveLength(1);
  });

  it("a run that was going on when Paddock quit is recorded as stopped at the next start; records survive restarts", async () => {
    const first = rig();
    first.scheduler.start();
    await first.scheduler.save(schedule());
    first.clock.advance(HOUR);
    expect(first.runs.started).toHaveLength(1);
    await await first.scheduler.dispose();
    const second = rig({ dir: first.dir, clock: scheduleClock(HOUR + MINUTE) });
    second.scheduler.start();
    expect(second.scheduler.list()[0].runs[0]).toMatchObject({ outcome: "stopped", reason: "Paddock quit during the run", chatId: "chat-1" });
    expect(second.runs.started).toHaveLength(0);
  });

  it("a new, retimed or re-enabled schedule has no past occurrences; a disabled one never runs", async () => {
    const { clock, runs, scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule({ when: { kind: "daily", time: "07:00" } }));
    expect(runs.started).toHaveLength(0);
    await scheduler.save(schedule({ enabled: false }));
    clock.advance(2 * HOUR);
    expect(runs.started).toHaveLength(0);
    expect(clock.pending).toBe(0);
    await scheduler.save(schedule({ enabled: true }));
    expect(runs.started).toHaveLength(0);
    expect(scheduler.list()[0].runs).toEqual([]);
  });

  it("the list's switch: off disarms at once (no next run, none fires); on again counts from then and re-arms", async () => {
    const { clock, runs, scheduler, store } = rig();
    scheduler.start();
    await scheduler.save(schedule({ workspace: "/gone/folder" }));
    await scheduler.save(schedule({ id: "s2", when: { kind: "daily", time: "12:00" }, enabled: false }));
    expect(scheduler.hasEnabled()).toBe(true);
    const seen: boolean[][] = [];
    scheduler.onChange((views) => seen.push(views.map((v) => v.schedule.enabled)));

    const off = await scheduler.setEnabled("s1", false);
    expect(off.schedule.enabled).toBe(false);
    expect(off.next).toBeUndefined();
    expect(clock.pending).toBe(0);
    expect(scheduler.hasEnabled()).toBe(false);
    expect(seen).toEqual([[false, false]]);
    // Only `enabled` changed (its workspace, gone, is not checked again), and it is on disk.
    expect(store.get("s1")?.schedule).toEqual(schedule({ workspace: "/gone/folder", enabled: false }));
    clock.advance(26 * HOUR);
    expect(runs.started).toHaveLength(0);

    const on = await scheduler.setEnabled("s1", true);
    expect(on.next).toBe(Date.parse("2026-01-17T09:00:00Z"));
    expect(clock.nextDue).toBe(on.next);
    expect(scheduler.hasEnabled()).toBe(true);
    // The occurrence while it was off is not "missed".
    expect(scheduler.list()[0].runs).toEqual([]);
    clock.advance(on.next! - clock.now());
    expect(runs.started).toHaveLength(1);
    // Setting what is already so changes nothing; an unknown id says so.
    const before = seen.length;
    await scheduler.setEnabled("s2", false);
    expect(seen).toHaveLength(before);
    await expect(scheduler.setEnabled("nope", true)).rejects.toThrow("No such schedule");
  });

  it("refuses an invalid schedule with its reason, keeping what was there", async () => {
    const { scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule());
    await expect(scheduler.save(schedule({ when: { kind: "cron", expression: "61 * * * *" } }))).rejects.toThrow(/minute field's "61"/);
    expect(scheduler.list()[0].schedule.when).toEqual({ kind: "daily", time: "09:00" });
  });

  it("a failed or budget-stopped run is recorded so", async () => {
    const { clock, runs, scheduler } = rig();
    scheduler.start();
    await scheduler.save(schedule({ when: { kind: "every", hours: 1, from: START + HOUR } }));
    clock.advance(HOUR);
    runs.started[0].end({ outcome: "stopped-by-budget", reason: "Stopped at the $1.00 budget" });
    await scheduler.idle();
    clock.advance(HOUR);
    runs.started[1].end({ outcome: "failed", reason: "No model" });
    await scheduler.idle();
    expect(scheduler.list()[0].runs.map((r) => [r.outcome, r.reason])).toEqual([
      ["failed", "No model"],
      ["stopped-by-budget", "Stopped at the $1.00 budget"],
    ]);
  });

  it("a run's changes are recorded with it (the list's Changes link); a run without any records none", async () => {
    const { clock, runs, scheduler, dir } = rig();
    scheduler.start();
    await scheduler.save(schedule({ when: { kind: "every", hours: 1, from: START + HOUR } }));
    clock.advance(HOUR);
    const changes = { from: "cp-1", to: "cp-2", files: 3, added: 40, removed: 12 };
    runs.started[0].end({ changes });
    await scheduler.idle();
    clock.advance(HOUR);
    runs.started[1].end();
    await scheduler.idle();
    expect(scheduler.list()[0].runs.map((r) => r.changes)).toEqual([undefined, changes]);
    // Kept on disk, and read back as it was.
    await scheduler.dispose();
    const again = rig({ dir });
    expect(again.scheduler.list()[0].runs[1].changes).toEqual(changes);
  });
});
