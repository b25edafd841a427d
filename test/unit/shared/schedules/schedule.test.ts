import { describe, expect, it } from "vitest";
import { describeWhen, scheduleProblem, type Schedule } from "../../../../src/shared/schedules/schedule";

const valid: Schedule = {
  id: "s1",
  name: "Morning review",
  prompt: "Review yesterday's commits",
  workspace: "/home/u/project",
  profile: "read-only",
  budget: { costUsd: 2, toolCalls: 50 },
  when: { kind: "weekdays", time: "09:00" },
  target: "new-chat",
  missed: "run-once",
  enabled: true,
};

describe("scheduleProblem", () => {
  it("accepts a valid schedule of each kind", () => {
    expect(scheduleProblem(valid)).toBeUndefined();
    for (const when of [
      { kind: "once", at: 1_800_000_000_000 },
      { kind: "daily", time: "23:59" },
      { kind: "every", hours: 6, from: 1_800_000_000_000 },
      { kind: "cron", expression: "*/15 * * * *" },
    ]) {
      expect(scheduleProblem({ ...valid, when })).toBeUndefined();
    }
    expect(scheduleProblem({ ...valid, target: { continue: "abc-123" }, missed: "skip" })).toBeUndefined();
  });

  it("names the problem of each bad field", () => {
    expect(scheduleProblem(null)).toMatch(/object/);
    expect(scheduleProblem({ ...valid, extra: 1 })).toMatch(/unknown schedule field "extra"/);
    expect(scheduleProblem({ ...valid, id: "a/b" })).toMatch(/id/);
    expect(scheduleProblem({ ...valid, prompt: "  " })).toMatch(/needs a prompt/);
    expect(scheduleProblem({ ...valid, profile: "god" })).toMatch(/permission profile/);
    expect(scheduleProblem({ ...valid, budget: { costUsd: -1 } })).toMatch(/money cap/);
    expect(scheduleProblem({ ...valid, when: { kind: "daily", time: "24:00" } })).toMatch(/HH:MM/);
    expect(scheduleProblem({ ...valid, when: { kind: "every", hours: 0, from: 1 } })).toMatch(/whole number/);
    expect(scheduleProblem({ ...valid, when: { kind: "cron", expression: "* * *" } })).toMatch(/five fields/);
    expect(scheduleProblem({ ...valid, when: { kind: "hourly" } })).toMatch(/unknown kind/);
    expect(scheduleProblem({ ...valid, target: { continue: "../x" } })).toMatch(/target/);
    expect(scheduleProblem({ ...valid, missed: "later" })).toMatch(/missed/);
    expect(scheduleProblem({ ...valid, enabled: "yes" })).toMatch(/enabled/);
  });

  it("describes when it runs", () => {
    expect(describeWhen({ kind: "weekdays", time: "09:00" })).toBe("Weekdays at 09:00");
    expect(describeWhen({ kind: "every", hours: 1, from: 1 })).toBe("Every hour");
    expect(describeWhen({ kind: "once", at: 5 }, () => "then")).toBe("Once, then");
  });
});
