/**
 * Where the floating notices sit (NoticeStack) while a question waits in the chat: at the top of the message list,
 * unless a question's words or buttons (an approval panel's) are there; then just below them, and hidden while no
 * room is left below (the notices come back as the question scrolls on). A question is never under the notices.
 * The counterpart of jump-placement.ts, which keeps "Jump to latest" off the buttons. No DOM here: Node tests load it.
 */
import type { Span } from "../messages/jump-placement";

/** Room kept between the notices and a question, in px. */
const CLEARANCE = 8;

/**
 * The stack's top (client coordinates), or "hidden": `list` is the message list's vertical span, `stack` the
 * notices' own place (their CSS top) and height, `questions` the spans to keep clear (each panel's question with
 * what it asks, and its buttons).
 */
export function noticePlacement(list: Span, stack: { top: number; height: number }, questions: readonly Span[]): number | "hidden" {
  let top = stack.top;
  // Top first: moving below one question may put the notices on the next one down.
  const inView = questions.filter((q) => q.bottom > list.top && q.top < list.bottom).sort((a, b) => a.top - b.top);
  for (const question of inView) {
    if (question.top < top + stack.height + CLEARANCE && question.bottom > top - CLEARANCE) top = question.bottom + CLEARANCE;
  }
  return top + stack.height > list.bottom - CLEARANCE ? "hidden" : top;
}
