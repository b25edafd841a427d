import { useLayoutEffect, useRef, type ReactNode } from "react";
import { noticeCount } from "./notice-groups";
import { ErrorIcon, WarningIcon } from "./icons";
import { noticePlacement } from "./notice-placement";

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
 * chat they never cover a waiting question: they step below its words and buttons (notice-placement.ts).
 */
export function NoticeStack({ children, label = "Notices" }: { children: ReactNode; label?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const stack = ref.current;
    const body = stack?.parentElement;
    if (!stack || !body) return;
    let frame = 0;
    const placeNow = () => placeClearOfQuestions(stack, body);
    const place = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(placeNow);
    };
    placeNow();
    // The list scrolls (its events reach an ancestor only when captured), rows and questions come and go, sizes change.
    body.addEventListener("scroll", place, true);
    const resized = new ResizeObserver(place);
    resized.observe(body);
    resized.observe(stack);
    const changed = new MutationObserver(place);
    changed.observe(body, { childList: true, subtree: true });
    return () => {
      cancelAnimationFrame(frame);
      body.removeEventListener("scroll", place, true);
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
  return <div ref={ref} className="notice-stack" role="region" aria-label={label} data-testid="notice-stack">{children}</div>;
}

/** Puts the stack clear of the approval panels' questions and buttons in the message list beside it (if any). */
function placeClearOfQuestions(stack: HTMLElement, body: HTMLElement): void {
  const list = body.querySelector<HTMLElement>("[data-testid=message-list]");
  const panels = list ? [...list.querySelectorAll<HTMLElement>("[data-approval-id]")] : [];
  if (!stack.style.top && !stack.style.visibility && panels.length === 0) return;
  // Measured where the CSS puts it; moved (or hidden) before the frame is painted.
  stack.style.top = "";
  stack.style.visibility = "";
  if (!list || panels.length === 0) return;
  const questions = panels.flatMap((panel) => {
    const top = panel.getBoundingClientRect().top;
    const asked = panel.querySelector(".approval-summary") ?? panel.querySelector(".approval-question");
    const actions = panel.querySelector(".approval-actions");
    return [{ top, bottom: asked ? asked.getBoundingClientRect().bottom : top }, ...(actions ? [actions.getBoundingClientRect()] : [])];
  });
  const natural = stack.getBoundingClientRect();
  const place = noticePlacement(list.getBoundingClientRect(), { top: natural.top, height: natural.height }, questions);
  if (place === "hidden") stack.style.visibility = "hidden";
  else if (place !== natural.top) stack.style.top = `${place - body.getBoundingClientRect().top}px`;
}
