import type { AgentMessage } from "../src/shared/agent/types";
import { contentText } from "../src/shared/agent/content-text";

/** The plain text of a user or assistant message (text blocks joined), for assertions on transcripts. */
export function messageText(message: AgentMessage): string {
  if (message.role === "user") {
    return contentText(message.content, "");
  }
  if (message.role === "assistant") return message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return "";
}
