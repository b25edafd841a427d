/** What to show for a caught value: an Error's message, anything else as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/*
 * What the worker adds to a provider's error text, and how the page reads it back (explainFailure). The SDKs' texts
 * leave out what a user needs ("Connection error." names neither the address nor why; "429 Slow down" drops the
 * Retry-After header), so the worker appends it in these words, and the page finds it by these patterns: one
 * place for both sides, so they cannot drift apart.
 */

/**
 * A provider's error text in the words the SDKs used before pi-ai 1.6.0, which the page's explainFailure and the
 * user know: pi-ai 1.6.0 puts an error response's JSON body after the status ("429: {"message":"Slow down",...}")
 * where the text was "429 Slow down", and appends the network error to "Connection error." ("Connection error.:
 * connect ECONNREFUSED 127.0.0.1:9"), which the worker words itself (withNetworkCause). Any other text is unchanged.
 */
export function plainProviderText(text: string): string {
  const body = /^(\d{3}): (\{[\s\S]*\})\s*$/.exec(text);
  if (body) {
    const message = bodyMessage(body[2]);
    if (message) return `${body[1]} ${message}`;
  }
  return text;
}

/** The message of an error response's JSON body: `message`, or `error.message` (OpenAI's and Anthropic's shape). */
function bodyMessage(json: string): string | undefined {
  try {
    const parsed = JSON.parse(json) as { message?: unknown; error?: { message?: unknown } | string };
    const message = parsed.message ?? (typeof parsed.error === "object" ? parsed.error?.message : parsed.error);
    return typeof message === "string" && message.trim() ? message.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** "Connection error." and whatever pi-ai 1.6.0 appended to it, for the worker to word the cause itself. */
export function withoutNetworkDetail(text: string): string {
  return /^Connection error\.: /.test(text) ? "Connection error." : text;
}

/** Seconds as the texts show them: whole seconds, or tenths below ten. */
function formatSeconds(seconds: number): string {
  return String(seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10);
}

/** A failed request's text with the provider's Retry-After (in seconds) appended: "429 Slow down. Retry after 20 s." */
export function withRetryAfter(message: string, seconds: number): string {
  return `${message.trim().replace(/\.$/, "")}. Retry after ${formatSeconds(seconds)} s.`;
}

/**
 * How long the error text says to wait before retrying, in seconds: the worker's note (withRetryAfter), or the
 * provider's own words ("Please try again in 20s.", "retry after 3 seconds", "try again in 1m30s"). Undefined when
 * it says nothing about it.
 */
export function retryAfterSeconds(text: string): number | undefined {
  const ours = /\bRetry after (\d+(?:\.\d+)?) s\.$/.exec(text.trim());
  if (ours) return Number(ours[1]);
  const theirs = /\b(?:try again|retry)(?: after| in)\s+(?:(\d+)\s*m(?:in(?:utes?)?)?\s*)?(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?)\b/i.exec(text);
  if (theirs) {
    const value = Number(theirs[2]) / (theirs[3].toLowerCase() === "ms" ? 1000 : 1);
    return Number(theirs[1] ?? 0) * 60 + value;
  }
  const minutes = /\b(?:try again|retry)(?: after| in)\s+(\d+(?:\.\d+)?)\s*(?:m|min|minutes?)\b/i.exec(text);
  return minutes ? Number(minutes[1]) * 60 : undefined;
}

/** Why a request timed out: no response within the time, or a reply that stopped arriving. */
export type TimeoutKind = "no-response" | "stalled";

/** The worker's text for a request it gave up on after `seconds` (Settings → Request timeout). */
export function timeoutText(kind: TimeoutKind, seconds: number): string {
  const s = formatSeconds(seconds);
  return kind === "stalled" ? `Request timed out: the provider sent nothing for ${s} s.` : `Request timed out: no response within ${s} s.`;
}

/** The kind and seconds of a timeoutText, or undefined for any other text. */
export function parseTimeout(text: string): { kind: TimeoutKind; seconds: number } | undefined {
  const match = /^Request timed out: (?:the provider sent nothing for|no response within) (\d+(?:\.\d+)?) s\.$/.exec(text.trim());
  if (!match) return undefined;
  return { kind: text.includes("sent nothing") ? "stalled" : "no-response", seconds: Number(match[1]) };
}

/**
 * A request that never reached its server, with the network's reason and the address: "Connection error.
 * (ECONNREFUSED at http://127.0.0.1:9)". The SDKs say only "Connection error." or "fetch failed".
 */
export function withNetworkCause(message: string, code: string, origin: string): string {
  return `${message.trim()} (${code} at ${origin})`;
}

/** The network reason (ECONNREFUSED, ENOTFOUND...) in an error text, if it names one. */
export function networkCode(text: string): string | undefined {
  return /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT|EPIPE|CERT_[A-Z_]+|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\b/.exec(text)?.[1];
}

/** "20 seconds", "1 second", "about 3 minutes": a wait as a sentence says it. */
export function waitInWords(seconds: number): string {
  if (seconds < 90) {
    const s = Math.max(1, Math.ceil(seconds));
    return `${s} second${s === 1 ? "" : "s"}`;
  }
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
}
