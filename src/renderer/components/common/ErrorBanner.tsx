import { explainFailure } from "./explainFailure";

interface ErrorBannerProps {
  message: string;
  onRetry(): void;
  /** Offered when the reply was interrupted: the model goes on from what it had said. */
  onContinue?(): void;
  /** A Retry or Continue is on its way. */
  busy: "retry" | "continue" | null;
}

/** Shown when the last turn failed; Retry continues the run from the transcript as it stands. */
export function ErrorBanner({ message, onRetry, onContinue, busy }: ErrorBannerProps) {
  const explained = explainFailure(message);
  const { title, detail } = explained;
  const hint = onContinue ? `${explained.hint ?? ""} Continue picks up where it stopped.`.trim() : explained.hint;
  return (
    <div className="error-banner" data-testid="error-banner" role="alert">
      <span className="error-icon" aria-hidden="true">!</span>
      <div className="error-text">
        <strong>{title}</strong>
        {(detail ?? message) ? <> <span className="error-detail">{detail ?? message}</span></> : null}
        {hint ? <div className="error-hint">{hint}</div> : null}
      </div>
      <div className="error-actions">
        <button type="button" className="btn btn-secondary" data-testid="retry-button" onClick={onRetry} disabled={busy !== null}>
          {busy === "retry" ? "Retrying…" : "Retry"}
        </button>
        {onContinue ? (
          <button type="button" className="btn btn-secondary" data-testid="continue-button" onClick={onContinue} disabled={busy !== null}>
            {busy === "continue" ? "Continuing…" : "Continue"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
