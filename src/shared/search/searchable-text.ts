/**
 * What search and find look at in a message: the words the chat shows as its text. One definition for main's index
 * (the sidebar's search across chats) and the page's find in a chat, so both find the same messages.
 */
import type { AgentMessage } from "../agent/types";
import { contentText } from "../agent/content-text";

/**
 * The message's text as the chat shows it: a user message's text parts, an assistant reply's text blocks, joined by
 * newlines. Thinking, tool calls and tool results (shown folded in tool cards) are left out, as are messages of other
 * kinds: "" for them. Never throws on a malformed message (a transcript may hold anything).
 */
export function searchableText(message: AgentMessage): string {
  if (message.role !== "user" && message.role !== "assistant") return "";
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return message.role === "user" ? content : "";
  return Array.isArray(content) ? contentText(content.filter(isTextPart), "\n") : "";
}

function isTextPart(part: unknown): part is { type: "text"; text: string } {
  return typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text" && typeof (part as { text?: unknown }).text === "string";
}
