import type { AgentMessage } from "./types";
import { contentText } from "./content-text";

const TITLE_CHARS = 60;

/**
 * A chat's title from its transcript: its first user message's text, whitespace folded, at most 60 characters. The
 * worker names its chat with it; a page names a chat the sidebar does not list (a subagent's) the same way.
 */
export function titleFrom(messages: readonly AgentMessage[]): string | undefined {
  for (const m of messages) {
    if (m.role !== "user") continue;
    const text = contentText(m.content, " ").replace(/\s+/g, " ").trim();
    if (text) return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
  }
  return undefined;
}
