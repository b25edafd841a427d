/** What a row's actions work from: the Markdown Copy puts on the clipboard (the row's index: chat-items.test.ts). */
import { describe, expect, it } from "vitest";
import { messageMarkdown } from "../../../../../src/renderer/components/messages/message-actions";
import { reply, user } from "../../../shared/agent/compaction-fixtures";
import type { AgentMessage } from "../../../../../src/shared/agent/types";

describe("message actions", () => {
  it("copies a reply's Markdown as written, tool calls named, thinking left out", () => {
    const message = {
      ...reply(""),
      content: [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "Use **bold**." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.md" } },
        { type: "text", text: "```js\nx()\n```" },
      ],
    } as AgentMessage;
    expect(messageMarkdown(message)).toBe('Use **bold**.\n\n`read({"path":"a.md"})`\n\n```js\nx()\n```');
    expect(messageMarkdown(user("plain *text*"))).toBe("plain *text*");
    expect(messageMarkdown({ role: "user", content: "as a string", timestamp: 0 })).toBe("as a string");
  });
});
