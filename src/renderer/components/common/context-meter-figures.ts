/**
 * The context meter's figures, from the mirrored state alone (no worker round trip): the same rules the worker
 * compacts by (shared/agent/context-tokens.ts), so the meter turns red when the next request would compact.
 */
import type { AgentMessage } from "../../../shared/agent/types";
import { compactedView } from "../../../shared/agent/compaction";
import { compactionThreshold, contextTokens, estimateTokens } from "../../../shared/agent/context-tokens";

export interface ContextFigures {
  /** Tokens the model would be sent next, the reply streaming now included. */
  tokens: number;
  /** The model's window; 0 when unknown. */
  contextWindow: number;
  /** Past this many, the next request compacts first; 0 when the window is unknown. */
  threshold: number;
  /** Whether a reply's reported usage is part of `tokens` (else all estimated). */
  fromUsage: boolean;
  /** "ok" below 80% of the threshold, "near" from there, "full" past it (the next request compacts). */
  level: "ok" | "near" | "full";
}

/** The transcript part (memoize on the messages: it changes only when a message ends). */
export function transcriptTokens(messages: AgentMessage[], historyStart: number): { tokens: number; fromUsage: boolean } {
  return contextTokens(compactedView(messages, historyStart));
}

/** The figures, adding the streaming reply (O(its blocks), fine per frame). */
export function contextFigures(transcript: { tokens: number; fromUsage: boolean }, streaming: AgentMessage | undefined, contextWindow: number): ContextFigures {
  const tokens = transcript.tokens + (streaming ? estimateTokens(streaming) : 0);
  const threshold = compactionThreshold(contextWindow);
  const level = threshold <= 0 ? "ok" : tokens > threshold ? "full" : tokens >= threshold * 0.8 ? "near" : "ok";
  return { tokens, contextWindow, threshold, fromUsage: transcript.fromUsage, level };
}

/** "850", "12.3k", "128k", "1.0M": at most six characters, so the meter keeps its width. */
export function shortTokens(n: number): string {
  if (n < 1_000) return String(Math.round(n));
  if (n < 99_950) return `${(n / 1_000).toFixed(1)}k`;
  if (n < 999_500) return `${Math.round(n / 1_000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
