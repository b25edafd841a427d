import type { SessionSummary } from "../../shared/protocol/app-api";
import { newestFirst } from "../components/sidebar/groupSessions";

/**
 * The sidebar's chat list as plain data: each change main pushes or the user makes, and what deleting a chat does
 * (useSessionList.ts holds the list and calls these). No React here: Node tests load this file.
 */

/** `sessions` with `changed` put in (replacing the same id), newest first as the sidebar lists them. */
export function upsertSession(sessions: readonly SessionSummary[], changed: SessionSummary): SessionSummary[] {
  const rest = sessions.filter((s) => s.id !== changed.id);
  return [...rest, changed].sort(newestFirst);
}

/** `sessions` without the chat `id`. */
export function withoutSession(sessions: readonly SessionSummary[], id: string): SessionSummary[] {
  return sessions.filter((s) => s.id !== id);
}

/** `sessions` with the chat `id` renamed to `title` (shown at once, before main has it). */
export function withTitle(sessions: readonly SessionSummary[], id: string, title: string): SessionSummary[] {
  return sessions.map((s) => (s.id === id ? { ...s, title } : s));
}

/** `sessions` with no chat running: nothing runs while the host is away (its workers stop with it). */
export function withoutActivity(sessions: readonly SessionSummary[]): SessionSummary[] {
  return sessions.map(({ activity: _activity, ...rest }) => rest);
}

/** The newest chat in the list (the one a page opens at start), if any. */
export function newestSession(sessions: readonly SessionSummary[]): SessionSummary | undefined {
  return [...sessions].sort((a, b) => b.updated - a.updated)[0];
}

/** What the "Deleted …" toast offers to undo. */
export interface UndoDelete {
  sessionId: string;
  title: string;
  /** A worktree chat's branch: its worktree goes with the chat once the undo window is over (branch kept if changed). */
  worktreeBranch?: string;
}

/** What deleting the chat `id` does to the page, decided before main deletes it. */
export interface DeletePlan {
  /**
   * Deleting the open chat: the chat this window moves to first, its neighbour in the list (the next one, the
   * previous at the end), where the keyboard's focus goes too. Deleting ends the chat's worker, and a page still
   * showing it would try to reconnect to a chat that is gone.
   */
  next: string | undefined;
  /** The open chat was the only one: once it is deleted, "New chat" gives the window a chat to show. */
  newChatAfter: boolean;
  /** The toast offered once main has deleted it. */
  undo: UndoDelete;
}

export function planDelete(sessions: readonly SessionSummary[], id: string, activeId: string | undefined): DeletePlan {
  const victim = sessions.find((s) => s.id === id);
  const listed = [...sessions].sort(newestFirst);
  const at = listed.findIndex((s) => s.id === id);
  const next = id === activeId && at >= 0 ? (listed[at + 1] ?? listed[at - 1])?.id : undefined;
  return { next, newChatAfter: id === activeId && next === undefined, undo: { sessionId: id, title: victim?.title || "Chat", ...(victim?.worktree ? { worktreeBranch: victim.worktree.branch } : {}) } };
}
