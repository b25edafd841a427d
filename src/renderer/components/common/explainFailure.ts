/**
 * Turns a failed reply's error text (as pi-ai and the provider SDKs word it: "401 Invalid API key", "Request timed
 * out.", "Connection error."...) into a headline a user can act on, plus what to do next. The original text is
 * still shown beside it: this adds meaning, it never hides detail.
 */
export interface FailureExplanation {
  /** One short sentence: what went wrong. */
  title: string;
  /** What the user can do about it, when there is something specific. */
  hint?: string;
  /** Shown instead of the error text, for Paddock's own texts, which would only repeat the title. */
  detail?: string;
}

const RULES: { test: RegExp; explanation: FailureExplanation }[] = [
  {
    // Paddock's own text for a reply cut off by a crash (INTERRUPTED_REPLY_ERROR); first, as it names no provider.
    test: /^Interrupted\b/,
    explanation: {
      title: "The reply was interrupted.",
      detail: "Paddock stopped before it finished.",
      hint: "Retry asks again from your message.",
    },
  },
  {
    // The worker's text when a context overflow survived compacting once (agent-worker/host/context-compactor.ts).
    test: /^Context overflow\b/,
    explanation: {
      title: "The chat no longer fits this model's context window.",
      hint: "Earlier messages were summarised and it still did not fit: pick a model with a larger context window, or start a new chat.",
    },
  },
  {
    test: /^401\b|unauthori[sz]ed|invalid (x-)?api[ _-]?key|incorrect api key|authentication/i,
    explanation: { title: "The provider rejected the API key.", hint: "Check the key in Settings (or its environment variable), then Retry." },
  },
  {
    test: /^403\b|permission denied|forbidden/i,
    explanation: { title: "The provider refused this request.", hint: "Your key may not have access to this model; pick another or check your account." },
  },
  {
    test: /^404\b|model[^.]*(not found|does not exist)/i,
    explanation: { title: "The provider does not know this model.", hint: "Pick another model, or check the model ids of your custom endpoint." },
  },
  {
    test: /^429\b|rate.?limit|too many requests|quota/i,
    explanation: { title: "The provider is rate-limiting requests.", hint: "Wait a moment, then Retry. If it keeps happening, check your plan's limits." },
  },
  {
    test: /^5\d\d\b|overloaded|internal server error|bad gateway|service unavailable/i,
    explanation: { title: "The provider had a server error.", hint: "This is usually temporary: Retry." },
  },
  {
    test: /timed? ?out|timeout|ETIMEDOUT/i,
    explanation: { title: "The request timed out.", hint: "Retry, or allow more time under Settings → Request timeout." },
  },
  {
    test: /connection|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|fetch failed|terminated|socket hang up|premature close|network/i,
    explanation: { title: "The connection to the provider was lost.", hint: "Check your network, or the base URL of a local endpoint, then Retry." },
  },
];

export function explainFailure(message: string): FailureExplanation {
  const text = message.trim();
  for (const rule of RULES) if (rule.test.test(text)) return rule.explanation;
  return { title: "The last reply failed." };
}
