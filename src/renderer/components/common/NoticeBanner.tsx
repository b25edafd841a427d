interface NoticeBannerProps {
  level: "info" | "warning" | "error";
  text: string;
  onDismiss(): void;
  /** One thing to do about it, as a button beside the text ("Use Claude Opus 4.7"). */
  action?: { label: string; onClick(): void; testId?: string };
}

/** A one-time message from the app or the session (settings restored, worker restarted...). */
export function NoticeBanner({ level, text, onDismiss, action }: NoticeBannerProps) {
  return (
    <div className={`notice notice-${level}`} data-testid="notice" role={level === "error" ? "alert" : "status"}>
      <span className="notice-text">{text}</span>
      {action ? <button type="button" className="btn btn-secondary notice-action" data-testid={action.testId} onClick={action.onClick}>{action.label}</button> : null}
      <button type="button" className="icon-button" onClick={onDismiss} aria-label="Dismiss notice">✕</button>
    </div>
  );
}
