import { describe, expect, it } from "vitest";
import type { ToolResultMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../../../../src/shared/agent/types";
import { anyChangeCounts, changeCountsOf, doneText, filesRestoredText, pathOfCall, sinceOfKey, turnOfCall, userMessagePoints } from "../../../../../src/renderer/components/changes/chat-changes";
import { sinceKey } from "../../../../../src/renderer/components/changes/changes-panel";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 0 });
const reply = (ids: string[]): AgentMessage => ({
  role: "assistant", api: "openai-completions", provider: "p", model: "m", stopReason: "toolUse", timestamp: 0,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  content: ids.map((id) => ({ type: "toolCall", id, name: "bash", arguments: {} })),
});
const result = (id: string, details: ToolResultMessage["details"]): AgentMessage => ({
  role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: 0, details,
});

describe("the chat page's changes view", () => {
  it("reads what a call changed from its result's details, nothing when it changed nothing", () => {
    expect(changeCountsOf({ fileChanges: { files: 3, added: 40, removed: 12 } })).toEqual({ files: 3, added: 40, removed: 12 });
    expect(changeCountsOf({ fileChanges: { files: 1 } })).toBeUndefined();
    expect(changeCountsOf({ fileChanges: { files: 0, added: 0, removed: 0 } })).toBeUndefined();
    expect(changeCountsOf({ patch: "--- a" })).toBeUndefined();
    expect(changeCountsOf({ fileChanges: { files: -1 } })).toBeUndefined();
    expect(changeCountsOf(undefined)).toBeUndefined();
    expect(anyChangeCounts([user("a"), reply(["c1"]), result("c1", {})])).toBe(false);
    expect(anyChangeCounts([user("a"), reply(["c1"]), result("c1", { fileChanges: { files: 2, added: 1, removed: 0 } })])).toBe(true);
  });

  it("finds a call's turn by the user message before it, session-wide", () => {
    const messages = [user("first"), reply(["c1"]), result("c1", {}), user("second"), reply(["c2", "c3"])];
    expect(turnOfCall(messages, 10, "c1")).toBe(10);
    expect(turnOfCall(messages, 10, "c3")).toBe(13);
    expect(turnOfCall(messages, 10, "nope")).toBeUndefined();
    // The turn's user message is among the older messages not loaded yet.
    expect(turnOfCall(messages.slice(1), 11, "c1")).toBeUndefined();
    expect(userMessagePoints(messages, 10)).toEqual([{ index: 10, text: "first" }, { index: 13, text: "second" }]);
  });

  it("names the file a write or edit wrote, and reads chooser keys back", () => {
    expect(pathOfCall("edit", { path: "./src/a.ts" })).toBe("src/a.ts");
    expect(pathOfCall("write", { path: "b.txt" })).toBe("b.txt");
    expect(pathOfCall("bash", { command: "rm -rf x" })).toBeUndefined();
    for (const since of [{ kind: "chat" }, { kind: "turn" }, { kind: "message", index: 7 }, { kind: "range", from: "run:1a.b-c", to: "tool:2_x" }] as const) {
      expect(sinceOfKey(sinceKey(since))).toEqual(since);
    }
    expect(sinceOfKey("range/a")).toEqual({ kind: "chat" });
    expect(sinceOfKey("bogus")).toEqual({ kind: "chat" });
  });

  it("says what a revert, rewind or redo did", () => {
    expect(doneText("Files rewound", { done: true, actionId: "a", reverted: ["x", "y", "z"], kept: ["k"], noCopy: [] }))
      .toBe("Files rewound: 3 files restored; 1 kept as it is.");
    expect(doneText("Redone", { done: true, actionId: "a", reverted: ["x"], kept: [], noCopy: ["big", "bigger"] }))
      .toBe("Redone: 1 file restored; 2 without a copy left unchanged.");
    expect(doneText("Chat rewound", { done: true, actionId: "a", reverted: [], kept: [], noCopy: [] })).toBe("Chat rewound.");
    expect(filesRestoredText({ action: "rewind", paths: ["a", "b", "c", "d", "e", "f", "g"] })).toBe("Files rewound: a, b, c, d, e and 2 more. The agent is told in its next request.");
    expect(filesRestoredText({ action: "revert", paths: ["src/a.ts"] })).toBe("Changes taken back: src/a.ts. The agent is told in its next request.");
    expect(filesRestoredText({ action: "redo", paths: [] })).toBe("Changes brought back: no files. The agent is told in its next request.");
  });
});
