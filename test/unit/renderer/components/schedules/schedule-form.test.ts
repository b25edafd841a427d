import { describe, expect, it } from "vitest";
import { formOf, newForm, previewOccurrences, scheduleOf } from "../../../../../src/renderer/components/schedules/schedule-form";
import { SCHEDULE_START as NOW } from "../../../../../testkit/fake-clock";

describe("schedule form", () => {
  it("a filled form is a schedule, and the schedule gives the form back", () => {
    const form = { ...newForm("s1", NOW, "/w", "edits"), prompt: "Review the PRs", kind: "weekdays" as const, time: "07:30", costUsd: "2.5", continueChat: "chat-1" };
    const built = scheduleOf(form);
    if (!built.ok) throw new Error(built.error);
    expect(built.schedule).toEqual({
      id: "s1",
      name: "Review the PRs",
      prompt: "Review the PRs",
      workspace: "/w",
      profile: "edits",
      budget: { costUsd: 2.5 },
      when: { kind: "weekdays", time: "07:30" },
      target: { continue: "chat-1" },
      missed: "run-once",
      enabled: true,
    });
    expect(scheduleOf(formOf(built.schedule, NOW))).toEqual(built);
  });

  it("carries every kind of cap on a run: money, tokens, minutes and tool calls", () => {
    // Money is all a model without pricing could not reach: the editor offered money and minutes only.
    const form = { ...newForm("s1", NOW), prompt: "Tidy", costUsd: "1", tokens: "50000", minutes: "20", toolCalls: "40" };
    const built = scheduleOf(form);
    if (!built.ok) throw new Error(built.error);
    expect(built.schedule.budget).toEqual({ costUsd: 1, tokens: 50000, minutes: 20, toolCalls: 40 });
    expect(formOf(built.schedule, NOW)).toMatchObject({ costUsd: "1", tokens: "50000", minutes: "20", toolCalls: "40" });
    expect(scheduleOf({ ...form, tokens: "-5" })).toMatchObject({ ok: false });
    expect(scheduleOf({ ...form, tokens: "", toolCalls: "" })).toMatchObject({ ok: true, schedule: { budget: { costUsd: 1, minutes: 20 } } });
  });

  it("says what is missing or wrong", () => {
    expect(scheduleOf(newForm("s1", NOW))).toEqual({ ok: false, error: "A schedule needs a prompt." });
    const cron = scheduleOf({ ...newForm("s1", NOW), prompt: "x", kind: "cron", cron: "* * *" });
    expect(cron.ok || cron.error).toMatch(/^A cron expression has five fields/);
    expect(scheduleOf({ ...newForm("s1", NOW), prompt: "x", costUsd: "-1" })).toMatchObject({ ok: false });
  });

  it("previews the next three occurrences, none while the form is invalid", () => {
    const form = { ...newForm("s1", NOW), kind: "cron" as const, cron: "0 12 * * *" };
    expect(previewOccurrences(form, NOW, "UTC").map((t) => new Date(t).toISOString())).toEqual([
      "2026-01-15T12:00:00.000Z",
      "2026-01-16T12:00:00.000Z",
      "2026-01-17T12:00:00.000Z",
    ]);
    expect(previewOccurrences({ ...form, cron: "bad" }, NOW, "UTC")).toEqual([]);
  });
});
