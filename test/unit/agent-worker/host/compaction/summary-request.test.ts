/** The summarising request: pi's shape (conversation as text, structured checkpoint, update on a previous summary). */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../../src/shared/agent/types";
import { fileLists, serializeConversation, summaryMaxTokens, summaryRequest, SUMMARY_SYSTEM_PROMPT, type CompactionPlan } from "../../../../../src/agent-worker/host/compaction/compaction-plan";
import { summaryForModel } from "../../../../../src/shared/agent/compaction";
import { call, reply, result, user } from "../../../shared/agent/compaction-fixtures";

function planOf(summarise: AgentMessage[], extra: Partial<CompactionPlan> = {}): CompactionPlan {
  return { summarise, firstKeptIndex: summarise.length, splitTurn: false, summarisedMessages: summarise.length, summarisedTokens: 0, tokensBefore: 0, tokensKept: 0, ...extra };
}

describe("serializeConversation", () => {
  it("writes the conversation as labelled text, so the model reads it instead of continuing it", () => {
    const text = serializeConversation([
      user("Fix the bug in a.ts"),
      { ...call("c1", "read", { path: "a.ts" }), content: [{ type: "thinking", thinking: "look first" }, { type: "text", text: "Reading it." }, { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } }] },
      result("c1", "const a = 1;"),
      reply("Done."),
    ]);
    expect(text).toBe(
      '[User]: Fix the bug in a.ts\n\n[Assistant thinking]: look first\n\n[Assistant]: Reading it.\n\n[Assistant tool calls]: read(path="a.ts")\n\n[Tool result]: const a = 1;\n\n[Assistant]: Done.',
    );
  });

  it("cuts long tool results to 2,000 characters and leaves failed replies out", () => {
    const text = serializeConversation([result("c1", "y".repeat(2_500)), reply("", undefined, "error")]);
    expect(text).toBe(`[Tool result]: ${"y".repeat(2_000)}\n\n[... 500 more characters truncated]`);
  });
});

describe("summaryRequest", () => {
  it("asks for a structured checkpoint of the conversation, as one user message under its own system prompt", () => {
    const messages = [user("Plan a trip to Lisbon"), reply("Sure: three days.")];
    const request = summaryRequest(planOf(messages), messages as never);
    expect(request.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(request.messages).toHaveLength(1);
    const text = (request.messages[0].content as { text: string }[])[0].text;
    expect(text.startsWith("<conversation>\n[User]: Plan a trip to Lisbon\n\n[Assistant]: Sure: three days.\n</conversation>\n\n")).toBe(true);
    for (const section of ["## Goal", "## Constraints & Preferences", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"]) {
      expect(text).toContain(section);
    }
    expect(text).not.toContain("<previous-summary>");
  });

  it("updates a previous summary, and says so when the cut splits a turn", () => {
    const messages = [user("And Porto?")];
    const text = (summaryRequest(planOf(messages, { previousSummary: "## Goal\nLisbon", splitTurn: true }), messages as never).messages[0].content as { text: string }[])[0].text;
    expect(text).toContain("<previous-summary>\n## Goal\nLisbon\n</previous-summary>");
    expect(text).toContain("NEW messages");
    expect(text).toContain("middle of a turn");
  });
});

describe("summaryMaxTokens", () => {
  it("is four fifths of the reserve, within what the model can write", () => {
    expect(summaryMaxTokens({ reserveTokens: 16_384, keepRecentTokens: 20_000 }, 32_000)).toBe(13_107);
    expect(summaryMaxTokens({ reserveTokens: 16_384, keepRecentTokens: 20_000 }, 4_096)).toBe(4_096);
    expect(summaryMaxTokens({ reserveTokens: 100, keepRecentTokens: 100 }, 0)).toBe(256);
  });
});

describe("file lists", () => {
  it("collects files read and changed, with the previous summary's, a changed file counted once", () => {
    const summarise = [call("1", "read", { path: "b.ts" }), call("2", "edit", { path: "a.ts" }), call("3", "write", { path: "c.ts" }), call("4", "read", { path: "a.ts" }), call("5", "bash", { command: "ls" })];
    expect(fileLists(planOf(summarise, { previousFiles: { read: ["z.md"], modified: ["y.ts"] } }))).toEqual({ read: ["b.ts", "z.md"], modified: ["a.ts", "c.ts", "y.ts"] });
  });

  it("reach the model with the summary, in pi's tags", () => {
    expect(summaryForModel({ summary: "S", files: { read: ["b.ts"], modified: ["a.ts"] } })).toBe(
      "The conversation before this point was compacted into the following summary:\n\n<summary>\nS\n\n<read-files>\nb.ts\n</read-files>\n\n<modified-files>\na.ts\n</modified-files>\n</summary>",
    );
    expect(summaryForModel({ summary: "S" })).toBe("The conversation before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>");
  });
});
