/** A chat's title: what the sidebar and the window say a chat is about. */
import { describe, expect, it } from "vitest";
import { titleFrom } from "../../../../src/shared/agent/chat-title";
import type { UserMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../../../src/shared/agent/types";

const user = (content: UserMessage["content"]): AgentMessage => ({ role: "user", content, timestamp: 0 });

describe("titleFrom", () => {
  it("is the first user message's first non-blank line, trimmed, whitespace folded", () => {
    expect(titleFrom([user("\n\n  Fix the   build \nLine 2: details\nLine 3")])).toBe("Fix the build");
    expect(titleFrom([user([{ type: "text", text: "   " }, { type: "text", text: "Summarise this log\nERROR a\nERROR b" }])])).toBe("Summarise this log");
  });

  it("is cut at 60 characters with an ellipsis", () => {
    const title = titleFrom([user("x".repeat(100))])!;
    expect(title).toHaveLength(60);
    expect(title.endsWith("…")).toBe(true);
  });

  it("skips messages without text, and is undefined when there is none", () => {
    expect(titleFrom([user("  \n "), user("Second try")])).toBe("Second try");
    expect(titleFrom([])).toBeUndefined();
  });
});
