import type { AgentMessage } from "./types";
import { contentText } from "./content-text";

const TITLE_CHARS = 60;

/**
 * A chat's title from its transcript: the first non-blank line of its first user message, whitespace folded, at
 * most 60 characters (a pasted list or log names the chat by its first line, not by all of them run together). The
 * worker names its chat with it; a page names a chat the sidebar does not list (a subagent's) the same way.
 */
export function titleFrom(messages: readonly AgentMessage[]): string | undefined {
  for (const m of messages) {
    if (m.role !== "user") continue;
    const line = contentText(m.content, "\n")
      .split("\n")
      .map((l) => l.replace(/\s+/g, " ").trim())
      .find((l) => l !== "");
    if (line) return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
  }
  return undefined;
}
