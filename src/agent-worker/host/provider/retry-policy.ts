/**
 * Which failed replies are worth asking again after a wait, and how long to wait: pi coding-agent's auto-retry
 * (`_isRetryableError`, `retryDelayMs`: exponential backoff from 2 s) with Paddock's error texts, and the provider's
 * Retry-After honoured. Pure: the session's retries (session/run-retries.ts) apply it.
 *
 * Retried: a rate limit (429), a server error (5xx, "overloaded"), a connection that dropped (ECONNRESET, "socket
 * hang up", undici's "terminated", a bare "Connection error."). Not retried: any other status (400, 401, 403, 404:
 * asking again gets the same answer), a used-up quota or billing limit (a 429 that waiting does not cure), an address
 * nothing answers at or whose name or certificate is wrong (ECONNREFUSED, ENOTFOUND, a bad port: the user must fix
 * Settings), the worker's own timeouts (Settings → Request timeout already said how long to wait), and a Stop.
 */
import type { AgentMessage } from "../../../shared/agent/types";
import { networkCode, retryAfterSeconds } from "../../../shared/error-text";
import type { RetryReason } from "../../../shared/protocol/retry-wait";

/** The first retry's wait; each next one doubles it (pi's `retry.baseDelayMs`). */
export const RETRY_BASE_DELAY_MS = 2_000;

/** Settings' limits: at most `attempts` retries, none that needs a longer wait than `maxWaitMs`. */
export interface RetryLimits {
  attempts: number;
  maxWaitMs: number;
}

const NOT_CURED_BY_WAITING = /insufficient[_ ]quota|exceeded your current quota|quota exceeded|billing|usage limit/i;
const RATE_LIMITED = /rate.?limit|too many requests/i;
const SERVER_TROUBLE = /overloaded|internal server error|bad gateway|service unavailable|gateway time-?out/i;
const DROPPED =
  /ECONNRESET|ECONNABORTED|EPIPE|socket hang up|\bterminated\b|other side closed|premature close|connection (?:was )?(?:lost|closed|reset)|network.?error|^Connection error\.?$|^fetch failed$/i;
/** Network reasons no wait cures: nothing listens there, the name or the certificate is wrong. */
const UNREACHABLE = /^(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|CERT_|UNABLE_TO_VERIFY|DEPTH_ZERO|SELF_SIGNED)/;

/** Why a failed reply is worth asking again (with its HTTP status), or undefined when it is not. */
export function retryableFailure(message: AgentMessage | undefined): { reason: RetryReason; status?: number } | undefined {
  if (message?.role !== "assistant" || message.stopReason !== "error") return undefined;
  const text = (message.errorMessage ?? "").trim();
  if (!text || NOT_CURED_BY_WAITING.test(text)) return undefined;
  const status = /^(\d{3})\b/.exec(text)?.[1];
  if (status !== undefined) {
    const code = Number(status);
    if (code === 429) return { reason: "rate-limit", status: code };
    if (code >= 500 && code <= 599) return { reason: "server", status: code };
    return undefined;
  }
  if (RATE_LIMITED.test(text)) return { reason: "rate-limit" };
  if (SERVER_TROUBLE.test(text)) return { reason: "server" };
  const code = networkCode(text);
  if ((code && UNREACHABLE.test(code)) || /\(bad port at /.test(text)) return undefined;
  if (DROPPED.test(text) || /^Connection error\. \(/.test(text)) return { reason: "connection" };
  return undefined;
}

/**
 * How long to wait before retry number `attempt` (1 for the first) after a failure worded `errorText`: the wait the
 * provider asked for (Retry-After, retry-after-ms, or its own words), else 2 s doubled per earlier retry, at most
 * `maxWaitMs`. Undefined when the provider asks for longer than `maxWaitMs`: the run fails at once, its error saying
 * how long to wait.
 */
export function retryDelayMs(attempt: number, errorText: string, maxWaitMs: number): number | undefined {
  const asked = retryAfterSeconds(errorText);
  if (asked !== undefined) {
    const ms = Math.round(asked * 1000);
    return ms > maxWaitMs ? undefined : ms;
  }
  const backoff = RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1);
  return Math.min(Number.isSafeInteger(backoff) ? backoff : Number.MAX_SAFE_INTEGER, maxWaitMs);
}
