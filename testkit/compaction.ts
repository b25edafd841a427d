/**
 * The loopback model as a summariser, for compaction tests and figures: a request with the summarising system
 * prompt (agent-worker/host/compaction/compaction-plan.ts) gets a short scripted summary; any other request the server's
 * default answer (echo, directives).
 */
import { defaultFallback, type ScriptedTurn } from "../src/web-host/openai-test-server";
import { SUMMARY_SYSTEM_PROMPT } from "../src/agent-worker/host/compaction/compaction-plan";

/** Whether an OpenAI chat-completions body is a compaction's summarising request. */
export function isSummaryRequest(body: { messages?: { role?: string; content?: unknown }[] }): boolean {
  const first = body.messages?.[0];
  return first?.role === "system" && typeof first.content === "string" && first.content === SUMMARY_SYSTEM_PROMPT;
}

/** A fallback answering summarising requests with `summary` (or its turn), everything else as the server would. */
export function summarisingFallback(summary: string | ScriptedTurn = "## Goal\nThe earlier conversation, summarised."): (body: any) => ScriptedTurn {
  const turn = typeof summary === "string" ? { text: summary } : summary;
  return (body) => (isSummaryRequest(body) ? turn : defaultFallback(body));
}

/** Text of about `tokens` tokens at four characters a token, starting with `tag`. */
export function tokensOf(tokens: number, tag: string): string {
  return `${tag} ${"lorem ".repeat(tokens)}`.slice(0, tokens * 4);
}
