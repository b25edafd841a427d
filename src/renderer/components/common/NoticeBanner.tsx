import { useContext, useLayoutEffect, useRef, type ReactNode } from "react";
import { noticeCount } from "./notice-groups";
import { ErrorIcon, WarningIcon } from "./icons";
import { noticePlacement } from "./notice-placement";
import type { Placement } from "./layout-frame";
import { LayoutFrameContext } from "./LayoutFrameScope";

interface NoticeBannerProps {
  level: "info" | "warning" | "error";
  text: string;
  onDismiss(): void;
  /** One thing to do about it, as a button beside the text ("Use Claude Opus 4.7"). */
  action?: { label: string; onClick(): void; testId?: string };
  /** How many identical notices this one stands for (notice-groups.ts): "×3" beside the text; dismissing goes for all. */
  count?: number;
}

/**
 * A one-time message from the app or the session (settings restored, worker restarted...). A warning (amber, a
 * triangle) is a status the screen reader reads when it can; only an error (red, a circle) interrupts, as an alert.
 */
export function NoticeBanner({ level, text, onDismiss, action, count = 1 }: NoticeBannerProps) {
  return (
    <div className={`notice notice-${level}`} data-testid="notice" data-level={level} data-count={count} role={level === "error" ? "alert" : "status"}>
      {level === "warning" ? <span className="notice-icon" aria-label="Warning:" role="img"><WarningIcon /></span>
        : level === "error" ? <span className="notice-icon" aria-label="Error:" role="img"><ErrorIcon /></span> : null}
      <span className="notice-text">{text}</span>
      {count > 1 ? <span className="notice-count" data-testid="notice-count" aria-label={`${count} times`}>{noticeCount(count)}</span> : null}
      {action ? <button type="button" className="btn btn-secondary notice-action" data-testid={action.testId} onClick={action.onClick}>{action.label}</button> : null}
      <button type="button" className="icon-button" onClick={onDismiss} aria-label={count > 1 ? `Dismiss notice (all ${count})` : "Dismiss notice"}>✕</button>
    </div>
  );
}

/**
 * Notices floating over the top of the chat (or the page), newest last: they never push the chat down, stack when
 * there are several, and scroll among themselves past about a third of the height, so the chat always shows. Over a
 * chat they never cover a waiting question: they step below its words and buttons (notice-placement.ts), placed in
 * the chat body's one layout pass per frame (layout-frame.ts) with "Jump to latest".
 */
export function NoticeStack({ children, label = "Notices" }: { children: ReactNode; label?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const frame = useContext(LayoutFrameContext);
  useLayoutEffect(() => {
    const stack = ref.current;
    if (!stack || !frame) return;
    const remove = frame.add(clearOfQuestions(stack));
    // Notices coming, going or growing change the stack's height.
    const resized = new ResizeObserver(frame.schedule);
    resized.observe(stack);
    return () => {
      remove();
      resized.disconnect();
      stack.style.top = "";
      stack.style.visibility = "";
    };
  }, [frame]);
  return <div ref={ref} className="notice-stack" role="region" aria-label={label} data-testid="notice-stack">{children}</div>;
}

/**
 * The stack's placement (layout-frame.ts): clear of the approval panels' questions and buttons in the message list
 * (if any), moved (or hidden) before the frame is painted. Where the CSS puts it is measured while it is not moved and
 * remembered while it is, so a pass never writes before it reads.
 */
function clearOfQuestions(stack: HTMLElement): Placement {
  let naturalOffset: number | undefined;
  return () => {
    const box = stack.getBoundingClientRect();
    const moved = stack.style.top !== "";
    return (layout) => {
      if (!moved || naturalOffset === undefined) naturalOffset = box.top - layout.bodyTop;
      const natural = layout.bodyTop + naturalOffset;
      const questions = layout.panels.flatMap((p) => [{ top: p.top, bottom: p.askedBottom }, ...(p.actions ? [p.actions] : [])]);
      const place = questions.length === 0 ? natural : noticePlacement(layout.list, { top: natural, height: box.height }, questions);
      const top = place === "hidden" || place === natural ? "" : `${place - layout.bodyTop}px`;
      const visibility = place === "hidden" ? "hidden" : "";
      if (stack.style.top !== top) stack.style.top = top;
      if (stack.style.visibility !== visibility) stack.style.visibility = visibility;
    };
  };
}
