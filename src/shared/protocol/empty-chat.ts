import type { SessionSummary } from "./session-summary";

/** The title main gives a chat it creates (app-service.ts), until its first message names it. */
export const NEW_CHAT_TITLE = "New chat";

/**
 * Whether a listed chat is an untouched new one that "New chat" may open instead of creating another: no messages,
 * nothing running or waiting, not a subagent's, not renamed, no workspace chosen (a chat set up for a folder is
 * the user's on purpose).
 */
export function isUntouchedChat(session: SessionSummary): boolean {
  return session.messageCount === 0 && !session.activity && !session.parent && !session.workspace && session.title === NEW_CHAT_TITLE;
}

/**
 * The chat "New chat" should open rather than create a new one, or undefined when there is none: the newest
 * untouched chat in `sessions` (see isUntouchedChat), skipping `except` (for the current chat, which the caller
 * judges from its live state, fresher than the list's).
 */
export function emptyChatToReuse(sessions: readonly SessionSummary[], except?: string): SessionSummary | undefined {
  let best: SessionSummary | undefined;
  for (const s of sessions) {
    if (s.id === except || !isUntouchedChat(s)) continue;
    if (!best || s.updated > best.updated) best = s;
  }
  return best;
}
