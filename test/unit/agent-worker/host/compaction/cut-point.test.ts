/** Where a compaction cuts, and what it summarises: pi's rules (turn boundaries, never between a call and its result). */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../../src/shared/agent/types";
import { findCutPoint, planCompaction, type CompactionPlan } from "../../../../../src/agent-worker/host/compaction/compaction-plan";
import type { CompactionReason } from "../../../../../src/shared/agent/compaction";
import { call, marker, reply, result, usage, user, words } from "../../../shared/agent/compaction-fixtures";

const keep = (keepRecentTokens: number) => ({ reserveTokens: 500, keepRecentTokens });

function plan(path: AgentMessage[], keepRecentTokens: number, reason: CompactionReason = "threshold"): CompactionPlan {
  const planned = planCompaction(path, keep(keepRecentTokens), reason);
  if (typeof planned === "string") throw new Error(planned);
  return planned;
}

describe("findCutPoint", () => {
  it("keeps the newest turns up to the budget and cuts at the user message that starts a turn", () => {
    // Turns of 100 tokens each: user 50 + reply 50.
    const path = [user(words(50)), reply(words(50)), user(words(50)), reply(words(50)), user(words(50)), reply(words(50))];
    expect(findCutPoint(path, 0, path.length, 200)).toBe(2);
    expect(findCutPoint(path, 0, path.length, 100)).toBe(4);
  });

  it("keeps everything when everything fits", () => {
    const path = [user("a"), reply("b")];
    expect(findCutPoint(path, 0, 2, 1_000)).toBe(0);
  });

  it("never cuts at a tool result: the call before it stays with it", () => {
    // The budget runs out at the tool result (index 4): the cut moves forward to the next user or assistant message.
    const path = [user(words(50)), call("c1", "read", { path: "a" }), result("c1", words(200)), call("c2", "read", { path: "b" }), result("c2", words(10)), reply(words(10))];
    const cut = findCutPoint(path, 0, path.length, 15);
    expect(path[cut].role).not.toBe("toolResult");
    expect(cut).toBe(5);
    // Cutting at an assistant with tool calls keeps its results after it.
    const atCall = findCutPoint(path, 0, path.length, 22);
    expect(atCall).toBe(3);
    expect(path[atCall + 1]).toEqual(result("c2", words(10)));
  });

  it("falls back to the last cut point before a huge trailing tool result, rather than keeping everything", () => {
    const path = [user(words(10)), reply(words(10)), user(words(10)), call("c1", "read", { path: "big" }), result("c1", words(5_000))];
    expect(findCutPoint(path, 0, path.length, 800)).toBe(3);
  });
});

describe("planCompaction", () => {
  it("summarises the turns before the cut and keeps the rest, with the context size before", () => {
    const path = [user(words(50)), reply(words(50), usage(1_000, 50)), user(words(50)), reply(words(50), usage(1_600, 50))];
    const p = plan(path, 100);
    expect(p.firstKeptIndex).toBe(2);
    expect(p.summarise).toEqual(path.slice(0, 2));
    expect(p.splitTurn).toBe(false);
    expect(p.summarisedMessages).toBe(2);
    expect(p.summarisedTokens).toBe(100);
    expect(p.tokensBefore).toBe(1_650);
    // The system prompt and tools (what usage counts beyond the estimates) stay, and the kept messages.
    expect(p.tokensKept).toBe(1_650 - 200 + 100);
  });

  it("marks a cut inside a turn as split (one turn larger than the budget)", () => {
    const path = [user(words(20)), reply(words(20)), user(words(50)), call("c1", "read", { path: "a" }), result("c1", words(300)), reply(words(50))];
    const p = plan(path, 100);
    expect(p.firstKeptIndex).toBe(5);
    expect(p.splitTurn).toBe(true);
    expect(p.summarise).toEqual(path.slice(0, 5));
  });

  it("starts at the previous summary's kept boundary and updates that summary", () => {
    const first = marker({ firstKeptIndex: 2, summary: "the first summary", files: { read: ["a.ts"], modified: [] } });
    const path: AgentMessage[] = [user(words(50)), reply(words(50)), user(words(50)), reply(words(50)), first, user(words(50)), reply(words(50)), user(words(50)), reply(words(50))];
    const p = plan(path, 100);
    expect(p.previousSummary).toBe("the first summary");
    expect(p.previousFiles).toEqual({ read: ["a.ts"], modified: [] });
    // From the old kept messages (2, 3) to the new cut, the old marker itself left out.
    expect(p.summarise).toEqual([path[2], path[3], path[5], path[6]]);
    expect(p.firstKeptIndex).toBe(7);
    expect(p.summarisedMessages).toBe(6);
  });

  it("refuses when nothing new was said since the last summary", () => {
    const path: AgentMessage[] = [user("a"), reply("b"), user("c"), marker({ firstKeptIndex: 2 })];
    expect(planCompaction(path, keep(10), "manual")).toMatch(/^Already compacted/);
  });

  it("automatically, leaves alone a chat whose newest messages all fit what is kept", () => {
    expect(planCompaction([user("a"), reply("b"), user("c"), reply("d")], keep(1_000), "threshold")).toMatch(/^Nothing to compact/);
  });

  it("when asked (Compact now, an overflow), keeps only the last turn of a small chat", () => {
    const path = [user("first"), reply("one"), user("second"), reply("two")];
    for (const reason of ["manual", "overflow"] as const) {
      const p = plan(path, 1_000, reason);
      expect(p.firstKeptIndex).toBe(2);
      expect(p.summarise).toEqual(path.slice(0, 2));
    }
  });

  it("when asked, refuses a chat that is a single turn", () => {
    expect(planCompaction([user("only"), reply("one")], keep(1_000), "manual")).toMatch(/^Nothing to compact yet/);
    expect(planCompaction([], keep(1_000), "manual")).toMatch(/^Nothing to compact yet/);
  });

  it("after an overflow, cuts inside a single long turn rather than give up", () => {
    const path = [user("do it"), call("c1", "read", { path: "a" }), result("c1", "aaa"), call("c2", "read", { path: "b" }), result("c2", "bbb")];
    const p = plan(path, 1_000, "overflow");
    expect(p.firstKeptIndex).toBe(3);
    expect(p.splitTurn).toBe(true);
  });
});
