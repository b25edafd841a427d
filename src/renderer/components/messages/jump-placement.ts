/**
 * Where "Jump to latest" sits: at the bottom of the message list, unless a question's buttons (an approval panel) are
 * there; then above them, and hidden when no room is left above them. The button never covers Allow and Deny.
 */

export interface Span {
  top: number;
  bottom: number;
}

/** The button's usual gap to the list's bottom edge, and the room kept between it and a panel, in px. */
export const JUMP_GAP = 12;
const CLEARANCE = 8;

/**
 * The button's distance from the list's bottom edge (CSS `bottom`), or "hidden": `list` and `panels` are client
 * rectangles' vertical spans, `height` the button's.
 */
export function jumpPlacement(list: Span, height: number, panels: readonly Span[]): number | "hidden" {
  let bottom = JUMP_GAP;
  // Lowest first: moving above one panel may put the button on the next one up.
  const inView = panels.filter((p) => p.bottom > list.top && p.top < list.bottom).sort((a, b) => b.bottom - a.bottom);
  for (const panel of inView) {
    const buttonBottom = list.bottom - bottom;
    const buttonTop = buttonBottom - height;
    if (panel.top < buttonBottom + CLEARANCE && panel.bottom > buttonTop - CLEARANCE) bottom = list.bottom - panel.top + CLEARANCE;
  }
  return list.bottom - bottom - height < list.top + CLEARANCE ? "hidden" : bottom;
}
