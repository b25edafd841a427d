interface NoticeBannerProps {
  level: "info" | "warning" | "error";
  text: string;
  onDismiss(): void;
}

/** A one-time message from the app or the session (settings restored, worker restarted...). */
export function NoticeBanner({ level, text, onDismiss }: NoticeBannerProps) {
  return (
    <div className={`notice notice-${level}`} data-testid="notice" role={level === "error" ? "alert" : "status"}>
      <span className="notice-text">{text}</span>
      <button type="button" className="icon-button" onClick={onDismiss} aria-label="Dismiss notice">✕</button>
    </div>
  );
}
