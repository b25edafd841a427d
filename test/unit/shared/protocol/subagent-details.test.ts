/**
 * A `subagent` card reads its call's details as pi 1.6.0's statuses, also from chats saved before them ("waiting",
 * "done", and a stop recorded as a failure): nothing is lost, each reads as the status it was.
 */
import { describe, expect, it } from "vitest";
import { isFailedRun, subagentDetails, type SubagentRun } from "../../../../src/shared/protocol/subagent-details";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0 };
const run = (status: string, extra: Partial<SubagentRun> = {}) => ({ agent: "scout", task: "t", status, usage, ...extra }) as SubagentRun;
const result = (runs: SubagentRun[]) => ({ content: [], details: { mode: "parallel", agentScope: "user", runs, usage } });

describe("a subagent call's details", () => {
  it("are read as they are when they carry pi 1.6.0's statuses", () => {
    const value = result(["pending", "running", "completed", "failed", "aborted"].map((s) => run(s)));
    expect(subagentDetails(value)).toBe(value.details);
  });

  it("from an older chat read waiting as pending, done as completed, and a stop as aborted", () => {
    const details = subagentDetails(result([run("waiting"), run("done", { output: "x" }), run("failed", { stopReason: "aborted" }), run("failed", { stopReason: "error" })]));
    expect(details!.runs.map((r) => r.status)).toEqual(["pending", "completed", "aborted", "failed"]);
    expect(details!.runs[1].output).toBe("x");
  });

  it("are absent when the value carries none", () => {
    expect(subagentDetails(undefined)).toBeUndefined();
    expect(subagentDetails({ details: { runs: "no" } })).toBeUndefined();
  });

  it("count failed and aborted tasks as failed, as pi's isFailedResult does", () => {
    expect(["pending", "running", "completed", "failed", "aborted"].map((s) => isFailedRun(run(s)))).toEqual([false, false, false, true, true]);
  });
});
