import type { AgentMessage } from "../../src/shared/agent/types";

/** The plain text of a user or assistant message (text blocks joined), for assertions on transcripts. */
export function messageText(message: AgentMessage): string {
  if (message.role === "user") {
    const content = message.content;
    return typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "")).join("");
  }
  if (message.role === "assistant") return message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return "";
}
