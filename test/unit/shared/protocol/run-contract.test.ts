import { describe, expect, it } from "vitest";
import { Value } from "typebox/value";
import { hasRunTerms, normalizeRunContract, runContractProblem, runTerms, RunContractSchema } from "../../../../src/shared/protocol/run-contract";
import { SESSION_METHOD_SCHEMAS } from "../../../../src/shared/protocol/session-protocol";

describe("a run's contract", () => {
  it("admits what a run can be bound by: unattended, plan, a profile, run caps", () => {
    expect(runContractProblem({})).toBeUndefined();
    expect(runContractProblem({ unattended: true, plan: true, profile: "read-only", budget: { costUsd: 2, toolCalls: 5, minutes: 10, tokens: 1000 } })).toBeUndefined();
    expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi", [], { plan: true, profile: "edits", budget: { toolCalls: 3 } }])).toBe(true);
  });

  it("refuses a malformed contract, saying what is wrong", () => {
    expect(runContractProblem(null)).toMatch(/^Not a valid run contract: contract: /);
    expect(runContractProblem("unattended")).toMatch(/^Not a valid run contract/);
    expect(runContractProblem({ profile: "root" })).toMatch(/: profile: must be one of "read-only", "ask", "edits", "sandboxed-auto"/);
    expect(runContractProblem({ plan: false })).toMatch(/: plan: /);
    expect(runContractProblem({ budget: { toolCalls: 0 } })).toMatch(/budget\.toolCalls: /);
    expect(runContractProblem({ budget: { dollars: 2 } })).toMatch(/budget: unknown field\(s\) dollars/);
    expect(runContractProblem({ unattended: true, sudo: true })).toMatch(/contract: unknown field\(s\) sudo/);
    for (const bad of [{ profile: "root" }, { budget: { costUsd: -1 } }, { plan: "yes" }, { extra: 1 }]) {
      expect(Value.Check(RunContractSchema, bad)).toBe(false);
      expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi", [], bad])).toBe(false);
    }
  });

  it("is kept without empty terms; an empty one binds nothing", () => {
    expect(normalizeRunContract({ unattended: false, budget: {} })).toEqual({});
    expect(hasRunTerms({ unattended: false, budget: {} })).toBe(false);
    expect(hasRunTerms(undefined)).toBe(false);
    expect(normalizeRunContract({ unattended: true, profile: "ask", budget: { toolCalls: 2 } })).toEqual({ unattended: true, profile: "ask", budget: { toolCalls: 2 } });
  });

  it("puts its terms in place of the chat's for its run: profile, plan, run caps; the chat's own caps still count", () => {
    const chat = { profile: "sandboxed-auto" as const, budget: { chat: { costUsd: 10 }, run: { toolCalls: 50 } } };
    expect(runTerms(chat, undefined)).toEqual({ profile: "sandboxed-auto", plan: false, budget: { chat: { costUsd: 10 }, run: { toolCalls: 50 } } });
    expect(runTerms(chat, { profile: "read-only", budget: { minutes: 5 } })).toEqual({ profile: "read-only", plan: false, budget: { chat: { costUsd: 10 }, run: { minutes: 5 } } });
    expect(runTerms(chat, { plan: true })).toMatchObject({ profile: "sandboxed-auto", plan: true, budget: { run: { toolCalls: 50 } } });
    // A chat in Plan mode plans whatever the contract says (it can only add Plan).
    expect(runTerms({ plan: true }, {}).plan).toBe(true);
    expect(runTerms(undefined, undefined)).toEqual({ profile: undefined, plan: false, budget: {} });
  });
});
