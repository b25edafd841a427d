/**
 * What a provider's error text leaves out, caught where the request is made. The SDKs turn an HTTP 429 into "429
 * <message>" and drop its Retry-After header (pi-ai's `onResponse` runs only for responses the SDK accepts), and
 * turn a request that never reached its server into "Connection error." without the address or the reason. The
 * worker's `fetch` is wrapped once to note both for the request being made, and `explain` adds them to the failed
 * reply's text in shared/error-text.ts's words, which the page's explainFailure reads.
 *
 * A `run` arms its note and the next fetch takes it: a worker makes one provider request at a time (its run's, or a
 * compaction's summary before it), and makes no other requests. Not AsyncLocalStorage: on Node 20 and 22 it turns
 * on promise hooks for the whole process, which cost the streaming path about a tenth of its throughput
 * (bench: ipc.throughputRatio). A fetch with no note armed behaves exactly as before. The wrapper never changes a
 * request or a response, and never throws anything fetch itself would not.
 */
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { plainProviderText, withNetworkCause, withoutNetworkDetail, withRetryAfter } from "../../../shared/error-text";

interface RequestNote {
  /** Seconds the last error response asked to wait (Retry-After or retry-after-ms). */
  retryAfterSeconds?: number;
  /** Why the request never got a response, and where it was going. */
  unreached?: { code: string; origin: string };
}

/** The note of the provider request about to be made, taken by the next fetch. */
let armed: RequestNote | undefined;
let installed = false;

/** Wraps `globalThis.fetch` (once per process) so that the request a `run` starts leaves its note. */
function installFetchNotes(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  const noted = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> => {
    const note = armed;
    armed = undefined;
    if (!note) return original(input, init);
    let response: Response;
    try {
      response = await original(input, init);
    } catch (error) {
      const code = causeCode(error);
      if (code) note.unreached = { code, origin: originOf(input) };
      throw error;
    }
    if (response.status === 429 || response.status >= 500) {
      const seconds = retryAfter(response.headers, Date.now());
      if (seconds !== undefined) note.retryAfterSeconds = seconds;
    }
    return response;
  };
  globalThis.fetch = Object.assign(noted, original) as typeof fetch;
}

/**
 * One provider request's notes. `run(start)` arms them for the request `start` makes (and returns what it does);
 * `explain(message)` returns the failed reply with the notes added to its text (the same object when there are
 * none), never mutating it.
 */
export function providerCall(): { run<T>(start: () => T): T; explain(message: AssistantMessage): AssistantMessage } {
  const note: RequestNote = {};
  return {
    run: (start) => {
      installFetchNotes();
      armed = note;
      return start();
    },
    explain: (message) => {
      if (message.stopReason !== "error") return message;
      const raw = message.errorMessage ?? "";
      const text = plainProviderText(raw);
      if (note.retryAfterSeconds !== undefined && !/Retry after \d/.test(text)) {
        return { ...message, errorMessage: withRetryAfter(text, note.retryAfterSeconds) };
      }
      if (note.unreached && !/\(\S+ at \S+\)$/.test(text)) {
        const base = withoutNetworkDetail(text) || "Connection error.";
        return { ...message, errorMessage: withNetworkCause(base, note.unreached.code, note.unreached.origin) };
      }
      return text === raw ? message : { ...message, errorMessage: text };
    },
  };
}

/**
 * Seconds a response asks to wait: `retry-after-ms` (OpenAI's), else `Retry-After` as seconds or an HTTP date.
 * Undefined when neither is there or makes sense (negative, not a number).
 */
export function retryAfter(headers: Headers, now: number): number | undefined {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 100) / 10;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Why fetch failed: the system's code (undici puts it on `cause`, sometimes one level deeper), or fetch's own
 * refusal ("bad port": a port fetch never connects to, such as 6000 or 6666).
 */
function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z_]+$/.test(code) && code !== "ABORT_ERR") return code;
    if ((e as { message?: unknown }).message === "bad port") return "bad port";
  }
  return undefined;
}

function originOf(input: Parameters<typeof fetch>[0]): string {
  try {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return new URL(url).origin;
  } catch {
    return "the provider";
  }
}
