import type { ReactNode } from "react";
import { noticeCount } from "./notice-groups";

interface NoticeBannerProps {
  level: "info" | "warning" | "error";
  text: string;
  onDismiss(): void;
  /** One thing to do about it, as a button beside the text ("Use Claude Opus 4.7"). */
  action?: { label: string; onClick(): void; testId?: string };
  /** How many identical notices this one stands for (notice-groups.ts): "×3" beside the text; dismissing goes for all. */
  count?: number;
}

/** A one-time message from the app or the session (settings restored, worker restarted...). */
export function NoticeBanner({ level, text, onDismiss, action, count = 1 }: NoticeBannerProps) {
  return (
    <div className={`notice notice-${level}`} data-testid="notice" data-count={count} role={level === "error" ? "alert" : "status"}>
      <span className="notice-text">{text}</span>
      {count > 1 ? <span className="notice-count" data-testid="notice-count" aria-label={`${count} times`}>{noticeCount(count)}</span> : null}
      {action ? <button type="button" className="btn btn-secondary notice-action" data-testid={action.testId} onClick={action.onClick}>{action.label}</button> : null}
      <button type="button" className="icon-button" onClick={onDismiss} aria-label={count > 1 ? `Dismiss notice (all ${count})` : "Dismiss notice"}>✕</button>
    </div>
  );
}

/**
 * Notices floating over the top of the chat (or the page), newest last: they never push the chat down, stack when
 * there are several, and scroll among themselves past about a third of the height, so the chat always shows.
 */
export function NoticeStack({ children, label = "Notices" }: { children: ReactNode; label?: string }) {
  return <div className="notice-stack" role="region" aria-label={label} data-testid="notice-stack">{children}</div>;
}
