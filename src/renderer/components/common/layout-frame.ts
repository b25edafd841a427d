/**
 * One layout read per frame for what floats over the message list: the notices (notice-placement.ts) and "Jump to
 * latest" (messages/jump-placement.ts) both keep clear of a waiting question, so both need the list's place and its
 * approval panels'. Scrolling, resizing and rows coming and going ask for a pass (`schedule`); however many ask in
 * one frame, the pass runs once, in the next animation frame: every placement measures its own element, the list's
 * layout is read once (`read`), then every placement writes. Reads all come before writes, so the browser
 * lays out once per frame, never once per scroll event or per placement. No DOM here (the DOM's part, reading the
 * list and watching it, is LayoutFrameScope.tsx): Node tests load it with their own frames.
 */
import type { Span } from "../messages/jump-placement";

/** An approval panel in the list: its whole span, where its question's words end, and its buttons (if shown). */
export interface PanelLayout extends Span {
  /** The bottom of the question with what it asks (the panel's top when it has none). */
  askedBottom: number;
  actions?: Span;
}

/** The message list's place (client coordinates) and its panels', and the top of the element holding both. */
export interface ListLayout {
  list: Span;
  /** The top of the chat's body (the notices' CSS `top` counts from it). */
  bodyTop: number;
  panels: readonly PanelLayout[];
}

/**
 * A placement: measures its own element (the frame's read phase) and returns what to write once every placement has
 * measured, given the list's layout; nothing to do: undefined.
 */
export type Placement = () => ((layout: ListLayout) => void) | undefined;

/** requestAnimationFrame and its cancel; tests pass their own. */
export interface Frames {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

export class LayoutFrame {
  private readonly placements = new Set<Placement>();
  private frame: number | undefined;

  private follow?: (schedule: () => void) => () => void;
  private stopFollowing?: () => void;

  /** `read`: the list's layout now; undefined when there is nothing to read (unmounted), and the pass is skipped. */
  constructor(private readonly read: () => ListLayout | undefined, private readonly frames: Frames) {}

  /**
   * How to watch for what may move the placements (scrolls, resizes, rows coming and going), calling `schedule`; its
   * returned function stops it. It runs only while there are placements (none while nothing floats, as while a reply
   * streams at the bottom). Undefined: nothing is watched (the body went away).
   */
  followWith(follow: ((schedule: () => void) => () => void) | undefined): void {
    this.stopFollowing?.();
    this.stopFollowing = undefined;
    this.follow = follow;
    if (this.placements.size > 0) this.stopFollowing = follow?.(this.schedule);
  }

  /** Adds a placement, placed in the next pass; returns its removal. */
  add(placement: Placement): () => void {
    this.placements.add(placement);
    if (this.placements.size === 1 && !this.stopFollowing) this.stopFollowing = this.follow?.(this.schedule);
    this.schedule();
    return () => {
      if (!this.placements.delete(placement) || this.placements.size > 0) return;
      this.stopFollowing?.();
      this.stopFollowing = undefined;
    };
  }

  /** Asks for a pass in the next frame (one, however often asked before it runs). */
  readonly schedule = (): void => {
    if (this.frame !== undefined || this.placements.size === 0) return;
    this.frame = this.frames.request(() => {
      this.frame = undefined;
      this.run();
    });
  };

  /**
   * The pass: every placement's measure, one read of the list (none when no placement has anything to place: no
   * notices, no "Jump to latest", as while a reply streams at the bottom), then every placement's write.
   */
  run(): void {
    const writes = [...this.placements].map((measure) => measure()).filter((write) => write !== undefined);
    if (writes.length === 0) return;
    const layout = this.read();
    if (!layout) return;
    for (const write of writes) write(layout);
  }

  /** Cancels a pass asked for and stops following (the placements are removed by their owners). */
  dispose(): void {
    if (this.frame !== undefined) this.frames.cancel(this.frame);
    this.frame = undefined;
    this.followWith(undefined);
  }
}

/**
 * Calls `schedule` whenever anything inside `body` scrolls (the list's scroll events reach an ancestor only when
 * captured). Returns the stop function.
 */
export function followScrolls(body: EventTarget, schedule: () => void): () => void {
  // The options as an object: Node's EventTarget (the tests') removes a boolean-captured listener only so.
  body.addEventListener("scroll", schedule, { capture: true });
  return () => body.removeEventListener("scroll", schedule, { capture: true });
}
