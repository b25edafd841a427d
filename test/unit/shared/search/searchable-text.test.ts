import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { isSearchableRole, searchableText } from "../../../../src/shared/search/searchable-text";

const message = (value: unknown) => value as AgentMessage;

describe("a message's searchable text", () => {
  it("is a user's text, a reply's text blocks and a tool's text output; never thinking, arguments or images", () => {
    expect(searchableText(message({ role: "user", content: "plain question" }))).toBe("plain question");
    expect(searchableText(message({ role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Run it." }, { type: "toolCall", id: "c", name: "bash", arguments: { command: "npm test" } }] }))).toBe("Run it.");
    expect(searchableText(message({ role: "toolResult", toolCallId: "c", toolName: "bash", isError: true, content: [{ type: "text", text: "npm ERR! code E404" }, { type: "image", data: "AAAA", mimeType: "image/png" }, { type: "text", text: "second part" }] }))).toBe("npm ERR! code E404\nsecond part");
  });

  it("is empty for other kinds of message and malformed ones", () => {
    expect(searchableText(message({ role: "compactionSummary", summary: "old stuff" }))).toBe("");
    expect(searchableText(message({ role: "toolResult", content: "not an array" }))).toBe("");
    expect(searchableText(message({ role: "toolResult", content: [null, 7, { type: "text" }] }))).toBe("");
    expect([isSearchableRole("toolResult"), isSearchableRole("user"), isSearchableRole("custom")]).toEqual([true, true, false]);
  });
});
