/**
 * Which Settings section the reader is in, for the side index's highlight: pure, so unit tests pin it down.
 */

/** A section's place, in pixels relative to the top of the scrolling view. */
export interface SectionBox {
  id: string;
  top: number;
  bottom: number;
}

export interface SectionView {
  /** The view's height. */
  height: number;
  /** The line a heading must have passed to count as read (a little below the top, below a sticky index). */
  readingLine: number;
  /** Scrolled to the end: the last sections may never reach the reading line. */
  atBottom: boolean;
}

/**
 * The current section: the one the user just chose in the index while any of it is on screen (a short section
 * near the end cannot scroll to the top); else, at the very end, the last section; else the last whose top has
 * passed the reading line, or the first. `boxes` in page order; undefined only when there are none.
 */
export function currentSection(boxes: readonly SectionBox[], view: SectionView, chosen?: string): string | undefined {
  const picked = boxes.find((b) => b.id === chosen);
  if (picked && picked.top < view.height && picked.bottom > 0) return picked.id;
  if (boxes.length === 0) return undefined;
  if (view.atBottom) return boxes[boxes.length - 1].id;
  let current = boxes[0].id;
  for (const box of boxes) if (box.top <= view.readingLine) current = box.id;
  return current;
}
