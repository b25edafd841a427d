export interface ToastProps {
  text: string;
  actionLabel?: string;
  onAction?(): void;
  onDismiss(): void;
  testId?: string;
}

/**
 * A transient message, optionally with one action (Undo). It sits in the page's flow at the top of the main area,
 * so it covers nothing while it shows (the composer, the header, the messages all stay in reach); the page moves
 * down by its height meanwhile. It is not itself a live region: `ToastAnnouncer` says its text.
 */
export function Toast({ text, actionLabel, onAction, onDismiss, testId = "toast" }: ToastProps) {
  return (
    <div className="toast-row">
      <div className="toast" data-testid={testId}>
        <span className="toast-text" dir="auto">{text}</span>
        {actionLabel && onAction ? (
          <button type="button" className="link-button toast-action" onClick={onAction}>{actionLabel}</button>
        ) : null}
        <button type="button" className="icon-button" onClick={onDismiss} aria-label="Dismiss">✕</button>
      </div>
    </div>
  );
}

/**
 * Says each toast's text to screen readers: a polite live region that is always in the page (a region that
 * appears together with its text is often not read), kept outside anything that may turn inert (the main area
 * while the narrow window's drawer is open, where chats get deleted).
 */
export function ToastAnnouncer({ text }: { text: string | undefined }) {
  return <div className="visually-hidden" role="status" aria-live="polite" data-testid="toast-announcer">{text ?? ""}</div>;
}
