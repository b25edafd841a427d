interface ToastProps {
  text: string;
  actionLabel?: string;
  onAction?(): void;
  onDismiss(): void;
  testId?: string;
}

/** A transient message at the bottom of the window, optionally with one action (Undo). */
export function Toast({ text, actionLabel, onAction, onDismiss, testId = "toast" }: ToastProps) {
  return (
    <div className="toast" role="status" data-testid={testId}>
      <span>{text}</span>
      {actionLabel && onAction ? (
        <button type="button" className="link-button toast-action" onClick={onAction}>{actionLabel}</button>
      ) : null}
      <button type="button" className="icon-button" onClick={onDismiss} aria-label="Dismiss">✕</button>
    </div>
  );
}
