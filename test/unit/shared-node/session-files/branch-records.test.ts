/**
 * Branch records in the transcript: appended, never rewriting; replayed to the same active path and versions the
 * Agent had; bad ones skipped and reported; files written before branches existed load as they did.
 */
import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { loadTranscript, type TranscriptRecord } from "../../../../src/shared-node/session-files/transcript-store";
import { useTempTranscript } from "../../../../testkit/temp-transcript";
import { createAgentStateData, reduceAgentState, type AgentStateEvent } from "../../../../src/shared/agent/state";
import { branchAt } from "../../../../src/shared/agent/branches";
import { marker } from "../../shared/agent/compaction-fixtures";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const reply = (text: string): AgentMessage => ({
  role: "assistant", content: [{ type: "text", text }], api: "x", provider: "x", model: "x", stopReason: "stop", timestamp: 2,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
});
const text = (m: AgentMessage) => (m.role === "user" ? (m.content as string) : m.role === "assistant" ? (m.content[0] as { text: string }).text : m.role);

const temp = useTempTranscript("paddock-branches-", "s.jsonl");
const write = temp.write;

const message = (m: AgentMessage): TranscriptRecord => ({ t: "message", message: m });

describe("branch records", () => {
  it("replay to the state the Agent's reducer reached with the same steps", async () => {
    const steps: [TranscriptRecord, AgentStateEvent][] = [
      [message(user("u1")), { type: "message_end", message: user("u1") }],
      [message(reply("a1")), { type: "message_end", message: reply("a1") }],
      [{ t: "branch", at: 1 }, { type: "branch", at: 1 }],
      [message(reply("a1'")), { type: "message_end", message: reply("a1'") }],
      [message(user("u2")), { type: "message_end", message: user("u2") }],
      [message(reply("a2")), { type: "message_end", message: reply("a2") }],
      [{ t: "branch", at: 0 }, { type: "branch", at: 0 }],
      [message(user("u1 edited")), { type: "message_end", message: user("u1 edited") }],
      [message(reply("b1")), { type: "message_end", message: reply("b1") }],
      [{ t: "switch", at: 0, version: 0 }, { type: "switch_branch", at: 0, version: 0 }],
      [{ t: "delete", start: 2, count: 2 }, { type: "delete_messages", start: 2, count: 2 }],
    ];
    await write(...steps.map(([record]) => record));
    const state = steps.reduce((s, [, event]) => reduceAgentState(s, event), createAgentStateData());
    const loaded = await loadTranscript(temp.file);
    expect(loaded.problems).toEqual([]);
    expect(loaded.messages.map(text)).toEqual(["u1", "a1'"]);
    expect(loaded.messages).toEqual(state.messages);
    expect(loaded.branches).toEqual(state.branches);
    expect(branchAt(loaded.branches, 0)).toEqual({ active: 0, count: 2 });
    expect(branchAt(loaded.branches, 1)).toEqual({ active: 1, count: 2 });
  });

  it("skip and report records that do not fit the transcript, keeping the rest", async () => {
    await write(
      message(user("u1")),
      { t: "branch", at: 5 },
      { t: "switch", at: 0, version: 1 },
      { t: "delete", start: 1, count: 3 },
      message(reply("a1")),
    );
    await writeFile(temp.file, '{"t":"branch","at":-1}\n{"t":"switch","at":0}\n', { flag: "a" });
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages.map(text)).toEqual(["u1", "a1"]);
    expect(loaded.branches).toBeUndefined();
    expect(loaded.problems.map((p) => [p.line, p.kind])).toEqual([[2, "corrupt-line"], [3, "corrupt-line"], [4, "corrupt-line"], [6, "corrupt-line"], [7, "corrupt-line"]]);
  });

  it("an edit before a compaction takes the marker into the old version: no summary of changed messages stays in force", async () => {
    const m = marker({ firstKeptIndex: 2 });
    const { role: _role, ...fields } = m;
    await write(
      message(user("u1")), message(reply("a1")), message(user("u2")), message(reply("a2")), { t: "compaction", ...fields }, message(user("u3")),
      { t: "branch", at: 2 }, message(user("u2 edited")),
    );
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages.map(text)).toEqual(["u1", "a1", "u2 edited"]);
    expect(loaded.messages.some((x) => x.role === "compaction")).toBe(false);
    expect(loaded.branches?.[0].stored[0].messages.map(text)).toEqual(["u2", "a2", "compaction", "u3"]);
  });

  it("a transcript from before branches loads as it did, with no versions", async () => {
    await writeFile(temp.file, [message(user("old")), message(reply("answer")), { t: "drop", count: 1 }, message(reply("again"))].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const loaded = await loadTranscript(temp.file);
    expect(loaded.problems).toEqual([]);
    expect(loaded.messages.map(text)).toEqual(["old", "again"]);
    expect(loaded.branches).toBeUndefined();
  });
});
