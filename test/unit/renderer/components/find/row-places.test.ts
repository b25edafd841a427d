import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../../src/shared/agent/types";
import { rowPlaces } from "../../../../../src/renderer/components/find/row-places";

const chat = [
  { role: "user", content: "Build it" },
  { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: {} }, { type: "toolCall", id: "c2", name: "bash", arguments: {} }] },
  { role: "toolResult", toolCallId: "c1", toolName: "bash", isError: false, content: [{ type: "text", text: "ok" }] },
  { role: "toolResult", toolCallId: "c2", toolName: "bash", isError: true, content: [{ type: "text", text: "npm ERR!" }] },
  { role: "toolResult", toolCallId: "orphan", toolName: "bash", isError: false, content: [{ type: "text", text: "alone" }] },
] as unknown as AgentMessage[];

describe("where a message's text is on screen", () => {
  it("is a tool result's call card in the row of the reply that made the call; its own row otherwise", () => {
    const place = rowPlaces(chat, 100);
    expect(place(100)).toEqual({ key: "m100" });
    expect(place(101)).toEqual({ key: "m101" });
    expect(place(102)).toEqual({ key: "m101", part: "c1" });
    expect(place(103)).toEqual({ key: "m101", part: "c2" });
    expect(place(104)).toEqual({ key: "m104" }); // its call is not in the chat: a row of its own
    expect(place(7)).toEqual({ key: "m7" }); // not loaded yet
  });
});
