import { explainFailure } from "./explainFailure";

interface ErrorBannerProps {
  message: string;
  onRetry(): void;
  retrying: boolean;
}

/** Shown when the last turn failed; Retry continues the run from the transcript as it stands. */
export function ErrorBanner({ message, onRetry, retrying }: ErrorBannerProps) {
  const { title, hint } = explainFailure(message);
  return (
    <div className="error-banner" data-testid="error-banner" role="alert">
      <span className="error-icon" aria-hidden="true">!</span>
      <div className="error-text">
        <strong>{title}</strong> <span className="error-detail">{message}</span>
        {hint ? <div className="error-hint">{hint}</div> : null}
      </div>
      <button type="button" className="btn btn-secondary" data-testid="retry-button" onClick={onRetry} disabled={retrying}>
        {retrying ? "Retrying…" : "Retry"}
      </button>
    </div>
  );
}
