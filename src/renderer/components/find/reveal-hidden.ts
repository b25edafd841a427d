/**
 * Find in a chat must never land on text the user cannot see. A part of a row that hides some of its text (a long
 * user message shown collapsed) marks itself with `data-collapsed` and listens for REVEAL_EVENT: when the current
 * match lies in its hidden part, it is asked to open. Text inside `data-find-skip` (the part's own "Show more"
 * button) is the page's, not the message's, and is never matched (see text-highlight.ts).
 */

export const REVEAL_EVENT = "paddock-reveal";

/** Asks the collapsed part holding `range`, if any, to open, when the range lies below what it shows. */
export function revealHiddenAround(range: Range): void {
  const start = range.startContainer;
  const holder = (start.nodeType === Node.ELEMENT_NODE ? (start as Element) : start.parentElement)?.closest("[data-collapsed]");
  if (!holder) return;
  if (range.getBoundingClientRect().bottom > holder.getBoundingClientRect().bottom) holder.dispatchEvent(new Event(REVEAL_EVENT));
}
