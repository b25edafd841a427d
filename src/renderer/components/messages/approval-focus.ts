/**
 * When a question (an approval) may have the keyboard, so that no key meant for something else answers it. A key
 * typed into a field never reaches a question: the question does not take the focus from one (nor from a button
 * or the message list, where Space and Enter mean something else), and its buttons ignore keys and clicks that come
 * right after it appeared or got the focus (the focus may have moved just before a key press; browsers delay their
 * own security dialogs' buttons the same way). Ctrl/Cmd+Shift+A (`go-to-question`) brings the focus to it.
 */

/** How long after a question appears, or gets the focus from elsewhere, its buttons ignore keys and clicks. */
export const ACTIVATION_DELAY_MS = 600;

/**
 * Whether a question that just appeared may take the focus: only when nothing has it (the page's body). An input
 * method composes only in a field, so a composition in progress keeps the focus where it is too.
 */
export function mayTakeFocus(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement;
}

/** How many frames `focusQuestion` waits for the question's card to render (the list renders rows near the view). */
const MAX_WAIT_FRAMES = 60;

/**
 * Moves the focus to the question asked for `toolCallId` (its first button, or its reason field while denying), in
 * view; waits a second at most for its card to render. Returns at once; does nothing when the question is gone.
 */
export function focusQuestion(toolCallId: string, waited = 0): void {
  const card = document.querySelector(`[data-approval-id="${CSS.escape(toolCallId)}"]`);
  const target = card?.querySelector<HTMLElement>(".approval-reason, .approval-actions button");
  if (target) {
    target.focus();
    target.scrollIntoView({ block: "nearest" });
  } else if (waited < MAX_WAIT_FRAMES) {
    requestAnimationFrame(() => focusQuestion(toolCallId, waited + 1));
  }
}
