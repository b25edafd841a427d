import { useEffect, useState } from "react";
import { retryWaitText, type RetryWait } from "../../../shared/protocol/retry-wait";

interface RetryBannerProps {
  wait: RetryWait;
  /** Stops the run (the wait, and the retry it leads to). */
  onStop(): void;
  /** Nothing can be stopped now (the link to the agent is down). */
  disabled?: boolean;
}

/**
 * Shown while a run waits to ask the model again after a rate limit, a server error or a dropped connection:
 * "Rate limited: retrying in 18 s…", counting down, the failed attempt's text, which retry this is, and Stop.
 * The count is for the eye; a screen reader hears the sentence once, as the wait begins.
 */
export function RetryBanner({ wait, onStop, disabled = false }: RetryBannerProps) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [wait]);
  const [announced] = useState(() => retryWaitText(wait, Date.now()));
  return (
    <div className="retry-banner" data-testid="retry-banner">
      <span className="retry-icon" aria-hidden="true">↻</span>
      <div className="retry-text">
        <strong data-testid="retry-countdown" aria-hidden="true">{retryWaitText(wait, now)}</strong>
        <span className="visually-hidden" role="status">{announced}</span>
        {/* The countdown says the provider's Retry-After already; the rest of the text is the provider's own. */}
        <span className="retry-detail"> {wait.error.replace(/\s*Retry after \d+(?:\.\d+)? s\.$/, "")}</span>
        <div className="retry-attempt" data-testid="retry-attempt">Retry {wait.attempt} of {wait.attempts}.</div>
      </div>
      <button type="button" className="btn btn-secondary" data-testid="retry-stop" onClick={onStop} disabled={disabled}>Stop</button>
    </div>
  );
}
