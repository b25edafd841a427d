import { createContext, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { followScrolls, LayoutFrame, type Frames, type ListLayout, type PanelLayout } from "./layout-frame";

/** The chat body's one layout pass (layout-frame.ts); null outside a chat (the page's own notices place nothing). */
export const LayoutFrameContext = createContext<LayoutFrame | null>(null);

const animationFrames: Frames = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * The chat's body (`.chat-body`): the message list and what floats over it (the notices, "Jump to latest"), which
 * place themselves in its one layout pass per frame, asked for when anything in it scrolls, it resizes, or rows and
 * panels come and go; watched only while something floats.
 */
export function ChatBody({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [frame] = useState(() => new LayoutFrame(() => (ref.current ? readListLayout(ref.current) : undefined), animationFrames));
  // After the children's layout effects (their placements may already be there): the body's ref is set by now.
  useLayoutEffect(() => {
    const body = ref.current;
    if (body) frame.followWith((schedule) => followLayout(body, schedule));
    return () => frame.dispose();
  }, [frame]);
  return (
    <div className="chat-body" ref={ref}>
      <LayoutFrameContext.Provider value={frame}>{children}</LayoutFrameContext.Provider>
    </div>
  );
}

/** What may move the placements: anything in the body scrolling, the body resizing, rows and panels coming and going. */
function followLayout(body: HTMLElement, schedule: () => void): () => void {
  const stop = followScrolls(body, schedule);
  const resized = new ResizeObserver(schedule);
  resized.observe(body);
  const changed = new MutationObserver(schedule);
  changed.observe(body, { childList: true, subtree: true });
  return () => {
    stop();
    resized.disconnect();
    changed.disconnect();
  };
}

/**
 * The layout of the message list inside `body`: its approval panels (`[data-approval-id]`), their question
 * (`.approval-summary` or `.approval-question`) and buttons (`.approval-actions`). With no list (an empty chat) the
 * body's own span and no panels: whatever was moved goes back to its place.
 */
function readListLayout(body: HTMLElement): ListLayout {
  const bodyBox = body.getBoundingClientRect();
  const list = body.querySelector<HTMLElement>("[data-testid=message-list]");
  if (!list) return { list: { top: bodyBox.top, bottom: bodyBox.bottom }, bodyTop: bodyBox.top, panels: [] };
  const panels = [...list.querySelectorAll<HTMLElement>("[data-approval-id]")].map((panel): PanelLayout => {
    const { top, bottom } = panel.getBoundingClientRect();
    const asked = panel.querySelector(".approval-summary") ?? panel.querySelector(".approval-question");
    const actions = panel.querySelector(".approval-actions")?.getBoundingClientRect();
    return { top, bottom, askedBottom: asked ? asked.getBoundingClientRect().bottom : top, ...(actions ? { actions: { top: actions.top, bottom: actions.bottom } } : {}) };
  });
  const { top, bottom } = list.getBoundingClientRect();
  return { list: { top, bottom }, bodyTop: bodyBox.top, panels };
}
