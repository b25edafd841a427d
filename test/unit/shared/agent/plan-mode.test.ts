/**
 * Plan mode (issue 27 §1): Shift+Tab's cycle, the instruction approving sends, which reply is a plan awaiting the
 * user's word, and what each tool may do in Plan mode (the Read-only row of the one profile table).
 */
import { describe, expect, it } from "vitest";
import {
  composerMode, composerModeLabel, composerModeTitle, inPlanMode, messageContract, modeLabel, nextComposerMode, pendingPlan, PLAN_PROFILE,
  PLAN_REFUSAL_LABEL, planInstruction, withPlan,
} from "../../../../src/shared/agent/plan-mode";
import { decide, toolKind } from "../../../../src/shared/protocol/permission-profiles";
import { chatOptionsProblem, normalizeChatOptions } from "../../../../src/shared/protocol/chat-options";
import { SESSION_METHOD_SCHEMAS } from "../../../../src/shared/protocol/session-protocol";
import { Value } from "typebox/value";

const marker = (plan: boolean) => ({ role: "permissionProfile", profile: plan ? "read-only" : "edits", ...(plan ? { plan: true } : {}), timestamp: 1 });
const user = { role: "user", content: "Add a login page" };
const reply = (text: string, stopReason = "stop") => ({ role: "assistant", stopReason, content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text }] });

describe("plan mode", () => {
  it("Shift+Tab cycles act → Plan (this message) → Plan mode → act; only Plan mode is the chat's option, every other one kept", () => {
    expect(composerMode(false, false)).toBe("act");
    expect(composerMode(false, true)).toBe("once");
    expect(composerMode(true, true)).toBe("plan"); // the chat's Plan mode wins over the composer's one message
    expect(["act", "once", "plan"].map((m) => nextComposerMode(m as "act"))).toEqual(["once", "plan", "act"]);
    expect(composerModeLabel("act", "edits")).toBe("Edits allowed");
    expect(composerModeLabel("once", "edits")).toBe("Plan (this message)");
    expect(composerModeLabel("plan", "edits")).toBe("Plan mode");
    expect(composerModeTitle("once", "edits")).toMatch(/the next message you send only reads[\s\S]*stays in Edits allowed \(Shift\+Tab: Plan mode\)/);
    expect(composerModeTitle("plan", "ask")).toMatch(/back to Ask\)$/);
    // Only the one message carries a contract; Plan mode is the chat's options.
    expect(messageContract("once")).toEqual({ plan: true });
    expect(messageContract("act")).toBeUndefined();
    expect(messageContract("plan")).toBeUndefined();
    const act = { profile: "edits" as const, temperature: 0.3 };
    const planning = withPlan(act, true);
    expect(planning).toEqual({ profile: "edits", temperature: 0.3, plan: true });
    expect(inPlanMode(planning)).toBe(true);
    expect(withPlan(planning, false)).toEqual(act);
    expect(withPlan({ plan: true }, false)).toEqual({});
    expect(modeLabel(true, "edits")).toBe("Plan");
    expect(modeLabel(false, "edits")).toBe("Edits allowed");
  });

  it("the options accept plan only as true, and keep it", () => {
    expect(chatOptionsProblem({ plan: true })).toBeUndefined();
    expect(chatOptionsProblem({ plan: false })).toMatch(/plan mode/);
    expect(chatOptionsProblem({ plan: "yes" })).toMatch(/plan mode/);
    expect(normalizeChatOptions({ plan: true, profile: "edits" })).toEqual({ profile: "edits", plan: true });
    // The page's setChatOptions reaches the worker with it (the wire's schema admits it, and only as true).
    expect(Value.Check(SESSION_METHOD_SCHEMAS.setChatOptions, [{ profile: "edits", plan: true }])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.setChatOptions, [{ plan: false }])).toBe(false);
  });

  it("approving sends the plan quoted in a user message", () => {
    expect(planInstruction("1. Add login.tsx\n\n2. Test it\n")).toBe("Carry out this plan:\n\n> 1. Add login.tsx\n>\n> 2. Test it");
  });

  it("a planning run's finished reply awaits the user's word; nothing else does", () => {
    const planned = [marker(true), user, { role: "toolResult" }, reply("1. Add login.tsx")];
    expect(pendingPlan(planned, true, false)).toEqual({ index: 3, text: "1. Add login.tsx" });
    // A marker after the reply does not hide it.
    expect(pendingPlan([...planned, marker(true)], true, false)?.index).toBe(3);
    // Not while running, nor once the chat left Plan mode.
    expect(pendingPlan(planned, true, true)).toBeUndefined();
    expect(pendingPlan(planned, false, false)).toBeUndefined();
    // A run that was not planning, a stopped or failed reply, a reply without text, a user message last.
    expect(pendingPlan([marker(false), user, reply("done")], true, false)).toBeUndefined();
    expect(pendingPlan([user, reply("done")], true, false)).toBeUndefined();
    expect(pendingPlan([marker(true), user, reply("1. half", "aborted")], true, false)).toBeUndefined();
    expect(pendingPlan([marker(true), user, reply("  ")], true, false)).toBeUndefined();
    expect(pendingPlan([marker(true), user, reply("1."), user], true, false)).toBeUndefined();
    // The latest marker decides: planning, then acting.
    expect(pendingPlan([marker(true), user, reply("1."), marker(false), user, reply("did it")], true, false)).toBeUndefined();
  });

  it("a message sent in Plan (its run's contract) awaits the user's word though the chat is not in Plan mode", () => {
    const once = { role: "permissionProfile", profile: "read-only", plan: true, run: { plan: true }, timestamp: 1 };
    expect(pendingPlan([once, user, reply("1. Add login.tsx")], false, false)).toEqual({ index: 2, text: "1. Add login.tsx" });
    expect(pendingPlan([once, user, reply("1. Add login.tsx")], false, true)).toBeUndefined();
    // The next message, sent to act: its marker ends it.
    expect(pendingPlan([once, user, reply("1."), marker(false), user, reply("did it")], false, false)).toBeUndefined();
    // A chat-wide plan's reply still needs the chat in Plan mode.
    expect(pendingPlan([marker(true), user, reply("1.")], false, false)).toBeUndefined();
  });

  it("in Plan mode only read-only tools run: writes, edits and other MCP tools are refused, commands only read-only in a sandbox", () => {
    expect(PLAN_PROFILE).toBe("read-only");
    for (const sandboxed of [true, false]) {
      for (const tool of ["read", "ls", "find", "grep"]) expect(decide(PLAN_PROFILE, toolKind(tool), sandboxed)).toEqual({ decision: "settings" });
      expect(decide(PLAN_PROFILE, toolKind("server__lookup", true), sandboxed)).toEqual({ decision: "settings" });
      for (const refused of [toolKind("write"), toolKind("edit"), toolKind("server__drop", false), toolKind("worktree")]) {
        expect(decide(PLAN_PROFILE, refused, sandboxed).decision).toBe("refuse");
      }
    }
    expect(decide(PLAN_PROFILE, toolKind("bash"), true)).toEqual({ decision: "settings", readOnlyWorkspace: true });
    expect(decide(PLAN_PROFILE, toolKind("bash"), false).decision).toBe("refuse");
    // The model is told it is planning.
    expect(decide(PLAN_PROFILE, toolKind("write"), true, PLAN_REFUSAL_LABEL)).toMatchObject({ reason: expect.stringMatching(/^This chat is in Plan mode \(read-only\): Writing and editing files are not allowed/) });
  });
});
