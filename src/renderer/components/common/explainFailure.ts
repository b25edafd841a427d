import { networkCode, parseTimeout, retryAfterSeconds, waitInWords } from "../../../shared/error-text";

/**
 * Turns a failed reply's error text (as pi-ai and the provider SDKs word it: "401 Invalid API key", "Request timed
 * out.", "Connection error."..., with what the worker adds: see shared/error-text.ts) into a headline a user can
 * act on, plus what to do next. The original text is still shown beside it: this adds meaning, it never hides
 * detail, except where the headline already says all of it (`detail`).
 */
export interface FailureExplanation {
  /** One short sentence: what went wrong. */
  title: string;
  /** What the user can do about it, when there is something specific. */
  hint?: string;
  /** Shown instead of the error text, where the text would only repeat the title ("" shows nothing). */
  detail?: string;
}

type Rule = (text: string) => FailureExplanation | undefined;

/** A rule that always explains a matching text the same way. */
const when = (test: RegExp, explanation: FailureExplanation): Rule => (text) => (test.test(text) ? explanation : undefined);

const RETRY_AGAIN = "Retry asks again from your message.";

/** In order: the first rule that explains a text wins. */
const RULES: Rule[] = [
  // Paddock's own text for a reply cut off by a crash (INTERRUPTED_REPLY_ERROR); first, as it names no provider.
  when(/^Interrupted\b/, { title: "The reply was interrupted.", detail: "Paddock stopped before it finished.", hint: RETRY_AGAIN }),
  // The worker's text when a context overflow survived compacting once (agent-worker/host/compaction/context-compactor.ts).
  when(/^Context overflow\b/, {
    title: "The chat no longer fits this model's context window.",
    hint: "Earlier messages were summarised and it still did not fit: pick a model with a larger context window, or start a new chat.",
  }),
  // The worker's own timeouts carry their seconds; the headline says it all, so the text is not repeated.
  (text) => {
    const timeout = parseTimeout(text);
    if (!timeout) return undefined;
    const after = `${timeout.seconds} s`;
    return timeout.kind === "stalled"
      ? {
        title: `The request timed out: the provider sent nothing for ${after}.`,
        detail: "",
        hint: `${RETRY_AGAIN} If the model is just slow, allow more time under Settings → Request timeout.`,
      }
      : {
        title: `The request timed out after ${after}: the provider did not answer.`,
        detail: "",
        hint: "Retry. A local model may need longer to load: allow more time under Settings → Request timeout.",
      };
  },
  when(/^401\b|unauthori[sz]ed|invalid (x-)?api[ _-]?key|incorrect api key|authentication/i, {
    title: "The provider rejected the API key.",
    hint: "Check the key in Settings (or its environment variable), then Retry.",
  }),
  when(/^403\b|permission denied|forbidden/i, {
    title: "The provider refused this request.",
    hint: "Your key may not have access to this model; pick another or check your account.",
  }),
  when(/^404\b|model[^.]*(not found|does not exist)/i, {
    title: "The provider does not know this model.",
    hint: "Pick another model, or check the model ids of your custom endpoint.",
  }),
  // Used-up credit comes as a 429 too, but waiting does not help.
  when(/insufficient[_ ]quota|exceeded your current quota|billing/i, {
    title: "The provider says the account's quota is used up.",
    hint: "Check your plan and billing with the provider, or pick another model.",
  }),
  (text) => {
    if (!/^429\b|rate.?limit|too many requests|quota/i.test(text)) return undefined;
    const wait = retryAfterSeconds(text);
    return {
      title: "The provider is rate-limiting requests.",
      hint: wait === undefined
        ? "Wait a moment, then Retry. If it keeps happening, check your plan's limits."
        : `It asks you to wait ${waitInWords(wait)}, then Retry.`,
    };
  },
  (text) => {
    if (!/^5\d\d\b|overloaded|internal server error|bad gateway|service unavailable/i.test(text)) return undefined;
    const wait = retryAfterSeconds(text);
    return {
      title: "The provider had a server error.",
      hint: wait === undefined ? "This is usually temporary: Retry." : `This is usually temporary: it asks you to wait ${waitInWords(wait)}, then Retry.`,
    };
  },
  // Never reached: the request did not get to a server (the SDKs' "Connection error.", fetch's "fetch failed").
  (text) => {
    const code = networkCode(text);
    const refused = code === "ECONNREFUSED";
    const unknownHost = code === "ENOTFOUND" || code === "EAI_AGAIN";
    const certificate = code !== undefined && /CERT|SIGNED|VERIFY/.test(code);
    const badPort = /\(bad port at /.test(text);
    if (!refused && !unknownHost && !certificate && !badPort && !/^Connection error\b|fetch failed|getaddrinfo|EHOSTUNREACH|ENETUNREACH/i.test(text)) return undefined;
    return {
      title: "Paddock could not reach the provider.",
      hint: badPort
        ? "Its port is one that Paddock (like browsers) never connects to, as it belongs to another service: run the server on another port and change the address in Settings."
        : refused
        ? "Nothing answered at its address: check that the server is running and that the address in Settings is right, then Retry."
        : unknownHost
          ? "Its host name was not found: check the address in Settings and your network, then Retry."
          : certificate
            ? "Its certificate was not accepted: check the address (https or http?) in Settings, then Retry."
            : "Check the address in Settings (a custom endpoint's base URL), that the server is running, and your network, then Retry.",
    };
  },
  // Reached, then lost: the stream broke off in the middle of the reply ("terminated" is undici's word for it).
  when(/terminated|ECONNRESET|EPIPE|socket hang up|premature close|other side closed|network_error|connection (was )?(lost|closed|reset)/i, {
    title: "The connection dropped in the middle of the reply.",
    hint: `${RETRY_AGAIN} If it keeps happening, check your network or the server.`,
  }),
  // An SDK's own timeout ("Request timed out.") says nothing the headline does not.
  (text) => {
    if (!/timed? ?out|timeout|ETIMEDOUT/i.test(text)) return undefined;
    return {
      title: "The request timed out.",
      hint: "Retry, or allow more time under Settings → Request timeout.",
      ...(/^Request timed out\.?$/i.test(text) ? { detail: "" } : {}),
    };
  },
];

export function explainFailure(message: string): FailureExplanation {
  const text = message.trim();
  for (const rule of RULES) {
    const explanation = rule(text);
    if (explanation) return explanation;
  }
  return { title: "The last reply failed." };
}
