import { useEffect, useRef, type RefObject } from "react";
import type { SessionSummary } from "../../../shared/protocol/app-api";
import { holdFocus } from "../../context/focus-hold";

/** How long a deletion may take to show in the list and still bring the focus back to it. */
const WAIT_MS = 5000;

/**
 * Keeps the keyboard in the chat list when a chat is deleted from it (Delete on the chat, or its menu's Delete):
 * once the chat has left `sessions`, the focus goes to the chat that was after it in `order` (the list as shown),
 * or before it when it was the last, and is held there (`holdFocus`) so the chat opened in its place does not take
 * it. A deletion started while the focus was elsewhere (the chat view's menu) moves no focus. Returns the delete
 * to call in place of `onDelete`.
 */
export function useFocusAfterDelete(list: RefObject<HTMLElement | null>, order: readonly string[], sessions: readonly SessionSummary[],
  onDelete: (id: string) => void): (id: string) => void {
  const pending = useRef<{ deleted: string; next: string | undefined; until: number } | null>(null);

  useEffect(() => {
    const wanted = pending.current;
    if (!wanted || sessions.some((s) => s.id === wanted.deleted)) return;
    if (Date.now() > wanted.until) {
      pending.current = null;
      return;
    }
    const root = list.current;
    const button = (wanted.next ? root?.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(wanted.next)}"] .session-open`) : null)
      ?? root?.querySelector<HTMLElement>(".session-open");
    // The last chat gone: the list is empty until the new chat made in its place arrives; wait for it.
    if (!button) return;
    pending.current = null;
    holdFocus(button);
  }, [sessions, list]);

  return (id) => {
    const focusInList = list.current?.contains(document.activeElement) ?? false;
    if (focusInList) {
      const at = order.indexOf(id);
      pending.current = { deleted: id, next: order[at + 1] ?? order[at - 1], until: Date.now() + WAIT_MS };
    }
    onDelete(id);
  };
}
