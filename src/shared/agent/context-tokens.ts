/**
 * How full a chat's context is, in tokens, and when it is compacted. One set of rules for the worker (which
 * compacts) and the page (whose header shows the meter), so the two agree. Pure; no tokenizer: the last reply's
 * reported usage counts exactly, whatever came after it is estimated at four characters a token (pi's rule, which
 * over-counts slightly, the safe side).
 */
import type { Usage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "./types";
import { summaryForModel, type CompactedView } from "./compaction";
import { filesRestoredForModel } from "./files-restored";
import { attachmentKind, attachmentsOf } from "../protocol/attachments";

/** What pi's coding agent reserves for the reply and keeps unsummarised, for windows large enough to afford it. */
export const PI_RESERVE_TOKENS = 16_384;
export const PI_KEEP_RECENT_TOKENS = 20_000;

/** An image costs about this many tokens (pi's estimate). */
const IMAGE_TOKENS = 1_200;

export interface CompactionSettings {
  /** Room left for the reply: compaction starts once the context passes `contextWindow - reserveTokens`. */
  reserveTokens: number;
  /** About how many of the newest tokens stay as they are (not summarised). */
  keepRecentTokens: number;
}

/**
 * pi's numbers (16,384 reserved, 20,000 kept) for a window of 64k tokens or more. Smaller windows (local models
 * often have 4k-32k) get a quarter reserved and two fifths kept: pi's fixed numbers would leave such a window
 * compacting on every request, or never able to fit what it keeps.
 */
export function compactionSettings(contextWindow: number): CompactionSettings {
  return {
    reserveTokens: Math.min(PI_RESERVE_TOKENS, Math.floor(contextWindow / 4)),
    keepRecentTokens: Math.min(PI_KEEP_RECENT_TOKENS, Math.floor((contextWindow * 2) / 5)),
  };
}

/** The context size past which the next request compacts first; 0 when the window is unknown (never). */
export function compactionThreshold(contextWindow: number): number {
  return contextWindow > 0 ? contextWindow - compactionSettings(contextWindow).reserveTokens : 0;
}

/**
 * A message's size in tokens, estimated at four characters a token; an image at 1,200; a user message's attached
 * files as what the model gets (a text file's bytes, an image); a marker as what the model gets of it.
 */
export function estimateTokens(message: AgentMessage): number {
  let chars = 0;
  let images = 0;
  switch (message.role) {
    case "user":
    case "toolResult":
      if (typeof message.content === "string") chars = message.content.length;
      else {
        for (const part of message.content) {
          if (part.type === "text") chars += part.text.length;
          else images++;
        }
      }
      for (const file of attachmentsOf(message)) {
        if (attachmentKind(file) === "text") chars += file.size;
        else images++;
      }
      break;
    case "assistant":
      for (const block of message.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else if (block.type === "toolCall") chars += block.name.length + (JSON.stringify(block.arguments) ?? "").length;
      }
      break;
    case "compaction":
      chars = summaryForModel(message).length;
      break;
    case "filesRestored":
      chars = filesRestoredForModel(message).length;
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/** The tokens a reply's usage says the context held (prompt plus reply). */
export function usageTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** A reply whose usage describes its context: finished, not failed or stopped, with figures. */
function reportedTokens(message: AgentMessage): number | undefined {
  if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted" || !message.usage) return undefined;
  const tokens = usageTokens(message.usage);
  return tokens > 0 ? tokens : undefined;
}

export interface ContextTokens {
  /** The estimate: what the model would be sent next, in tokens. */
  tokens: number;
  /** Whether a reply's reported usage is part of it (else it is all estimated). */
  fromUsage: boolean;
}

/**
 * The tokens in a context (see compactedView): the newest usable reply's usage plus estimates for what came after
 * it. Before any such reply, after a compaction: the marker's own after-figure plus estimates for what followed it;
 * with neither, estimates of every message. O(messages since the last usable reply).
 */
export function contextTokens(view: CompactedView): ContextTokens {
  const { messages, marker, freshFrom } = view;
  let trailing = 0;
  for (let i = messages.length - 1; i >= freshFrom; i--) {
    const reported = reportedTokens(messages[i]);
    if (reported !== undefined) return { tokens: reported + trailing, fromUsage: true };
    trailing += estimateTokens(messages[i]);
  }
  if (marker) return { tokens: marker.tokensAfter + trailing, fromUsage: false };
  return { tokens: trailing, fromUsage: false };
}
