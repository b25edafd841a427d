import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../../src/shared/agent/types";
import { findMatches } from "../../../../../src/renderer/components/find/find-matches";

const chat = [
  { role: "user", content: "Install the packages" },
  { role: "assistant", content: [{ type: "text", text: "Running npm install." }, { type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm install" } }] },
  { role: "toolResult", toolCallId: "c1", toolName: "bash", isError: true, content: [{ type: "text", text: "npm ERR! code E404\nnpm ERR! 404 Not Found" }] },
] as unknown as AgentMessage[];

describe("find in a chat", () => {
  it("finds text in a tool's output (an npm error), counting each occurrence in its message", () => {
    expect(findMatches(chat, 0, "e404")).toEqual([{ messageIndex: 2, occurrence: 0 }]);
    expect(findMatches(chat, 10, "npm err")).toEqual([{ messageIndex: 12, occurrence: 0 }, { messageIndex: 12, occurrence: 1 }]);
    expect(findMatches(chat, 0, "npm")).toEqual([
      { messageIndex: 1, occurrence: 0 },
      { messageIndex: 2, occurrence: 0 },
      { messageIndex: 2, occurrence: 1 },
    ]);
  });
});
