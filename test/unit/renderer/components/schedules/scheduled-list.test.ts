import { describe, expect, it } from "vitest";
import type { Schedule, ScheduleView } from "../../../../../src/shared/schedules/schedule";
import { runChangesText, runSummary, scheduleSwitchLabel, scheduleTitle, scheduleWhenLine } from "../../../../../src/renderer/components/schedules/scheduled-list";

const schedule = (overrides: Partial<Schedule> = {}): Schedule => ({
  id: "s1",
  name: "Morning summary",
  prompt: "Summarize what changed",
  workspace: "",
  profile: "read-only",
  budget: {},
  when: { kind: "daily", time: "09:00" },
  target: "new-chat",
  missed: "run-once",
  enabled: true,
  ...overrides,
});
const format = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const NEXT = Date.parse("2026-01-16T09:00:00Z");

describe("the Scheduled list's lines", () => {
  it("an enabled schedule says when it runs next; a paused one says Paused and no next run", () => {
    expect(scheduleWhenLine({ schedule: schedule(), runs: [], next: NEXT }, format)).toBe("Daily at 09:00 · next 09:00");
    expect(scheduleWhenLine({ schedule: schedule({ enabled: false }), runs: [], next: NEXT }, format)).toBe("Daily at 09:00 · Paused");
    expect(scheduleWhenLine({ schedule: schedule({ when: { kind: "once", at: NEXT } }), runs: [] }, format)).toBe("Once, 09:00");
    // A once schedule's time is its next run: not said twice ("Once, 09:00 · next 09:00").
    expect(scheduleWhenLine({ schedule: schedule({ when: { kind: "once", at: NEXT } }), runs: [], next: NEXT }, format)).toBe("Once, 09:00");
  });

  it("a last run reads as its status and a sentence of why; a budget stop's reason is its status, not said twice", () => {
    expect(runSummary({ outcome: "finished" })).toEqual({ status: "Finished", showSpend: true });
    expect(runSummary({ outcome: "skipped", reason: "still running" })).toEqual({ status: "Skipped", reason: "Still running", showSpend: true });
    expect(runSummary({ outcome: "stopped-by-budget", reason: "Stopped at the 500-token budget: 1 tool call, cost unknown" }))
      .toEqual({ status: "Stopped at the 500-token budget: 1 tool call, cost unknown", showSpend: false });
    expect(runSummary({ outcome: "stopped-by-budget" })).toEqual({ status: "Stopped at its budget", showSpend: true });
  });

  it("the switch is named after the schedule (its name, else its prompt's first words)", () => {
    const view: ScheduleView = { schedule: schedule(), runs: [] };
    expect(scheduleSwitchLabel(view)).toBe("Run “Morning summary” on its schedule");
    expect(scheduleTitle({ schedule: schedule({ name: " ", prompt: "Check\nthe   build" }) })).toBe("Check the build");
    expect(scheduleTitle({ schedule: schedule({ name: "", prompt: "x".repeat(100) }) })).toHaveLength(60);
  });

  it("a run's Changes link shows only when it changed files, counting them", () => {
    const changes = (files: number) => ({ changes: { from: "a", to: "b", files, added: 4, removed: 1 } });
    expect(runChangesText({})).toBeUndefined();
    expect(runChangesText(changes(0))).toBeUndefined();
    expect(runChangesText(changes(1))).toBe("1 file changed");
    expect(runChangesText(changes(1200))).toBe("1,200 files changed");
  });
});
