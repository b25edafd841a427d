import type { SessionSummary } from "../../shared/protocol/app-api";
import { emptyChatToReuse, isUntouchedChat } from "../../shared/protocol/empty-chat";
import type { SessionView } from "../store/session-view";

/**
 * Which chat "New chat" opens instead of creating one, or undefined to create one: the chat shown now if it is
 * untouched, else the newest untouched chat in the list (see isUntouchedChat), so that empty chats never pile up.
 * The chat shown now is judged by its live view where that is loaded (the list learns of a first message only when
 * the worker reports it), so a chat whose first prompt is on its way is never taken for an empty one.
 */
export function chatForNewChat(sessions: readonly SessionSummary[], activeId: string | undefined, view: SessionView | undefined): string | undefined {
  const current = activeId === undefined ? undefined : sessions.find((s) => s.id === activeId);
  if (current && isUntouchedChat(current) && !(view !== undefined && view.sessionId === activeId && touched(view))) return current.id;
  return emptyChatToReuse(sessions, activeId)?.id;
}

/** Whether the live view shows anything in the chat: a message, a run, or queued messages. */
function touched(view: SessionView): boolean {
  return view.historyStart > 0 || view.state.messages.length > 0 || view.state.isStreaming
    || view.steering.length > 0 || view.followUp.length > 0 || (view.held?.length ?? 0) > 0;
}
