import { describe, expect, it } from "vitest";
import type { ChangeSet, ChangesSince } from "../../../../src/shared/protocol/changes";
import { resultOf, runChanges, scheduleContract } from "../../../../src/main/schedules/schedule-runner";
import { runContractProblem } from "../../../../src/shared/protocol/run-contract";

const usage = (cost: number, tokens = 100) => ({ input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, cost, turns: 1 });

describe("resultOf", () => {
  it("a run that answered is finished, with its spend", () => {
    expect(resultOf({ ok: true, usage: usage(0.25) })).toEqual({ outcome: "finished", spend: { cost: 0.25, costUnknown: false, tokens: 100 } });
  });

  it("a model without pricing spends an unknown cost, not $0", () => {
    expect(resultOf({ ok: true, usage: usage(0) }).spend).toEqual({ cost: 0, costUnknown: true, tokens: 100 });
    expect(resultOf({ ok: true, usage: usage(0, 0) }).spend?.costUnknown).toBe(false);
  });

  it("a stop at a budget cap, a plain stop and a failure are told apart, with their reason", () => {
    const budget = resultOf({ ok: false, stopReason: "aborted", errorMessage: "Stopped at the $2.00 budget: 41 tool calls", usage: usage(2) });
    expect(budget).toMatchObject({ outcome: "stopped-by-budget", reason: "Stopped at the $2.00 budget: 41 tool calls" });
    expect(resultOf({ ok: false, stopReason: "aborted", usage: usage(0) })).toMatchObject({ outcome: "stopped" });
    expect(resultOf({ ok: false, stopReason: "error", errorMessage: "401 Unauthorized", usage: usage(0) })).toMatchObject({ outcome: "failed", reason: "401 Unauthorized" });
    expect(resultOf({ ok: false, stopReason: "error", usage: usage(0) })).toMatchObject({ outcome: "failed", reason: "The run failed" });
  });
});

describe("runChanges", () => {
  const set = (files: number): ChangeSet => ({
    since: { kind: "turn" },
    from: "cp-before",
    to: "cp-after",
    files: [],
    authors: [],
    totals: { files, added: 12, removed: 3 },
  });

  it("records the run's turn as its span of checkpoints, with the counts the list shows", async () => {
    const asked: ChangesSince[] = [];
    const changes = await runChanges(async (since) => (asked.push(since), set(3)));
    expect(asked).toEqual([{ kind: "turn" }]);
    expect(changes).toEqual({ from: "cp-before", to: "cp-after", files: 3, added: 12, removed: 3 });
  });

  it("records nothing when no file changed, or the chat records no changes (the run's result stands)", async () => {
    expect(await runChanges(async () => set(0))).toBeUndefined();
    expect(await runChanges(async () => Promise.reject(new Error("Checkpoints are off for this chat: it has no workspace.")))).toBeUndefined();
  });
});

describe("scheduleContract", () => {
  it("binds the run: unattended, under the schedule's profile, its budget as the run's caps (none: no caps of its own)", () => {
    const contract = scheduleContract({ profile: "edits", budget: { costUsd: 1.5, toolCalls: 10 } });
    expect(contract).toEqual({ unattended: true, profile: "edits", budget: { costUsd: 1.5, toolCalls: 10 } });
    expect(runContractProblem(contract)).toBeUndefined();
    expect(scheduleContract({ profile: "read-only", budget: {} })).toEqual({ unattended: true, profile: "read-only" });
  });
});
