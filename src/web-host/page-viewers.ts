/**
 * Which viewers each browser page holds, so a page that vanishes without a word (a crashed tab, a killed browser)
 * lets go of them. A page says goodbye on `pagehide`, but not always; its events WebSocket is the sure sign of life:
 * a page with viewers and no open events socket for PAGE_GONE_MS is taken for gone, and its viewers are detached
 * (which never stops a run; an idle worker then stops after its grace period, and finished runs count as unread).
 */
export const PAGE_GONE_MS = 15_000;

export class PageViewers {
  /** page id -> viewer id -> session id */
  private readonly viewers = new Map<string, Map<string, string>>();
  private readonly openSockets = new Map<string, number>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly detach: (sessionId: string, viewerId: string) => void,
    private readonly goneAfterMs = PAGE_GONE_MS,
  ) {}

  /** The page attached a viewer. */
  add(pageId: string, sessionId: string, viewerId: string): void {
    let held = this.viewers.get(pageId);
    if (!held) this.viewers.set(pageId, (held = new Map()));
    held.set(viewerId, sessionId);
    this.watch(pageId);
  }

  /** The page detached a viewer itself. */
  remove(pageId: string, viewerId: string): void {
    const held = this.viewers.get(pageId);
    held?.delete(viewerId);
    if (held?.size === 0) this.forget(pageId);
  }

  /** The page's events socket opened; returns the function to call when it closes. */
  connected(pageId: string): () => void {
    this.openSockets.set(pageId, (this.openSockets.get(pageId) ?? 0) + 1);
    this.watch(pageId);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      const left = (this.openSockets.get(pageId) ?? 1) - 1;
      if (left > 0) this.openSockets.set(pageId, left);
      else this.openSockets.delete(pageId);
      this.watch(pageId);
    };
  }

  /** Stops every timer (the host is closing; the broker stops the workers anyway). */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Runs the page's "gone" timer exactly while it holds viewers and has no events socket open. */
  private watch(pageId: string): void {
    const silent = this.viewers.has(pageId) && !this.openSockets.has(pageId);
    const timer = this.timers.get(pageId);
    if (silent && !timer) {
      const next = setTimeout(() => this.release(pageId), this.goneAfterMs);
      next.unref?.();
      this.timers.set(pageId, next);
    } else if (!silent && timer) {
      clearTimeout(timer);
      this.timers.delete(pageId);
    }
  }

  private release(pageId: string): void {
    const held = this.viewers.get(pageId);
    this.forget(pageId);
    for (const [viewerId, sessionId] of held ?? []) this.detach(sessionId, viewerId);
  }

  private forget(pageId: string): void {
    this.viewers.delete(pageId);
    clearTimeout(this.timers.get(pageId));
    this.timers.delete(pageId);
  }
}
