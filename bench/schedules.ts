/**
 * Schedules (issue 27 §4):
 * - `schedules.mainCpuPercentIdle100`: main's CPU with 100 schedules defined and none due, as a share of one core:
 *   the scheduler (main/schedules/scheduler.ts) over its real file in a temporary data folder, on the real clock,
 *   started, then this process's CPU time over a quiet window. Its one timer is armed for the soonest occurrence (hours
 *   away), so nothing should run at all. Target 0.1 %.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ScheduleStore } from "../src/main/schedules/schedule-store";
import { Scheduler, systemClock, type SchedulerClock } from "../src/main/schedules/scheduler";
import type { Schedule } from "../src/shared/schedules/schedule";
import { metric, type Metric } from "./lib/metrics";

const SCHEDULES = 100;
const WINDOW_MS = 5_000;

export async function benchSchedules(): Promise<Record<string, Metric>> {
  const dir = mkdtempSync(join(tmpdir(), "paddock-bench-schedules-"));
  let timersArmed = 0;
  let runs = 0;
  const clock: SchedulerClock = { ...systemClock, setTimeout: (fire, ms) => (timersArmed++, systemClock.setTimeout(fire, ms)) };
  const scheduler = new Scheduler({
    store: new ScheduleStore(join(dir, "schedules.json")),
    clock,
    timeZone: () => "UTC",
    run: async () => {
      runs++;
      return { outcome: "finished" };
    },
  });
  try {
    scheduler.start();
    const now = Date.now();
    const inHours = (h: number) => new Date(now + h * 3_600_000).toISOString().slice(11, 16);
    for (let i = 0; i < SCHEDULES; i++) {
      const kinds: Schedule["when"][] = [
        { kind: "daily", time: inHours(2 + (i % 20)) },
        { kind: "weekdays", time: inHours(3) },
        { kind: "every", hours: 6 + (i % 5), from: now + 3_600_000 },
        { kind: "cron", expression: `${i % 60} ${new Date(now + 4 * 3_600_000).getUTCHours()} * * *` },
      ];
      await scheduler.save({
        id: `s${i}`, name: `Schedule ${i}`, prompt: "Go", workspace: "", profile: "read-only", budget: {},
        when: kinds[i % kinds.length], target: "new-chat", missed: "skip", enabled: true,
      });
    }
    await sleep(200); // the saves' writes settle
    const armedBefore = timersArmed;
    const before = process.cpuUsage();
    const started = performance.now();
    await sleep(WINDOW_MS);
    const used = process.cpuUsage(before);
    const elapsedMs = performance.now() - started;
    const percent = ((used.user + used.system) / 1000 / elapsedMs) * 100;
    return {
      mainCpuPercentIdle100: metric(percent, "<=", 0.1, "%", {
        note: `${SCHEDULES} schedules (daily, weekdays, every N hours, cron), none due; this process's CPU over ${WINDOW_MS / 1000} s idle`,
        detail: { timersArmedDuringWindow: timersArmed - armedBefore, runs },
      }),
    };
  } finally {
    await scheduler.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
