/**
 * What search and find look at in a message: the words the chat shows for it. One definition for main's index
 * (the sidebar's search across chats) and the page's find in a chat, so both find the same messages.
 */
import type { AgentMessage } from "../agent/types";
import { contentText } from "../agent/content-text";

/**
 * The message's text as the chat shows it: a user message's text parts, an assistant reply's text blocks, a tool
 * result's text output (shown in its tool card: an npm error in a command's output must be findable), joined by
 * newlines. Thinking, tool calls' arguments and images are left out, as are messages of other kinds: "" for them.
 * Never throws on a malformed message (a transcript may hold anything).
 */
export function searchableText(message: AgentMessage): string {
  if (message.role !== "user" && message.role !== "assistant" && message.role !== "toolResult") return "";
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return message.role === "user" ? content : "";
  return Array.isArray(content) ? contentText(content.filter(isTextPart), "\n") : "";
}

/** The roles whose messages have searchable text (see searchableText). */
export type SearchableRole = "user" | "assistant" | "toolResult";

export function isSearchableRole(role: unknown): role is SearchableRole {
  return role === "user" || role === "assistant" || role === "toolResult";
}

function isTextPart(part: unknown): part is { type: "text"; text: string } {
  return typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text" && typeof (part as { text?: unknown }).text === "string";
}
