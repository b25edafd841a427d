/**
 * A run waiting to ask the model again after a failure that waiting may cure (agent-worker/host/session/run-retries.ts):
 * what the page shows in its place ("Rate limited: retrying in 18 s…", with Stop) until the next attempt starts.
 */

/** Why the attempt failed: the provider limited the rate (429), had a server error (5xx), or the connection dropped. */
export type RetryReason = "rate-limit" | "server" | "connection";

export interface RetryWait {
  reason: RetryReason;
  /** The HTTP status the provider answered with, when it answered. */
  status?: number;
  /** Which retry comes next (1 for the first), of at most `attempts` (Settings). */
  attempt: number;
  attempts: number;
  /** How long the wait is (the provider's Retry-After, else the backoff), and when it ends (ms since epoch). */
  delayMs: number;
  until: number;
  /** The failed attempt's error text (it is not kept in the chat: the next attempt replaces it). */
  error: string;
}

/** Whole seconds left until `until`, never below 0 (a countdown shows "18 s", then "17 s"...). */
export function secondsLeft(wait: Pick<RetryWait, "until">, now: number): number {
  return Math.max(0, Math.ceil((wait.until - now) / 1000));
}

/** "Rate limited: retrying in 18 s…", "Server error 503: retrying in 4 s…", "Connection dropped: retrying…" (at 0 s). */
export function retryWaitText(wait: Pick<RetryWait, "reason" | "status" | "until">, now: number): string {
  const what =
    wait.reason === "rate-limit" ? "Rate limited" : wait.reason === "server" ? `Server error${wait.status ? ` ${wait.status}` : ""}` : "Connection dropped";
  const left = secondsLeft(wait, now);
  return left > 0 ? `${what}: retrying in ${left} s…` : `${what}: retrying…`;
}
