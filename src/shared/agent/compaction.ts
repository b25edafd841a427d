/**
 * Compaction markers: how a chat longer than its model's context window goes on. Older turns are summarised by the
 * chat's model; the transcript keeps every message and gains a marker, a message of its own kind
 * (`role: "compaction"`), where the summary was made. What the model is sent from then on is the marker's summary
 * followed by the messages from `firstKeptIndex` on (`compactedView`). The worker makes markers (see
 * agent-worker/host/compaction/context-compactor.ts); the page shows them as rows and measures the context with the same view.
 */
import type { Usage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "./types";

/** Why a compaction was made: the context passed its threshold, the provider said it overflowed, or the user asked. */
export type CompactionReason = "threshold" | "overflow" | "manual";

/** A transcript entry standing for the summarised older messages. Never sent as it is (see `compactedView`). */
export interface CompactionMessage {
  role: "compaction";
  /** The summary the model is given in place of the messages before `firstKeptIndex` (Markdown). */
  summary: string;
  /**
   * Session-wide index (in the transcript, markers counted) of the first message the model still gets after the
   * summary. Always before the marker itself: the kept messages are the newest ones at the time.
   */
  firstKeptIndex: number;
  /** How many messages (markers not counted) the summary stands for: every one before `firstKeptIndex`. */
  summarisedMessages: number;
  /** Their size, estimated (see context-tokens.ts). */
  summarisedTokens: number;
  /** The context as the model would have been sent it just before, in tokens (usage plus estimates). */
  tokensBefore: number;
  /** The same right after: an estimate, until the next reply reports real usage. */
  tokensAfter: number;
  reason: CompactionReason;
  /** Files the summarised messages read and changed (with the previous summary's): shown to the model with it. */
  files?: { read: string[]; modified: string[] };
  /** The summarising request's usage (it costs tokens like any reply); absent when unknown. */
  usage?: Usage;
  timestamp: number;
}

declare module "./types" {
  interface CustomAgentMessages {
    compaction: CompactionMessage;
  }
}

/** The context the model is sent for a transcript, and which part of it has real usage figures. */
export interface CompactedView {
  /** Without a marker: the transcript itself (the same array). With one: the marker, then the kept messages. */
  messages: AgentMessage[];
  /** The latest marker, if any. */
  marker?: CompactionMessage;
  /**
   * Index in `messages` of the first message that came after the marker. Replies before it reported usage for the
   * longer context they were sent with, so their figures no longer say anything about this one.
   */
  freshFrom: number;
}

/**
 * What the model sees of `messages` (a transcript, markers included): everything, until a compaction; after one,
 * the latest marker (as its summary) and the messages from its `firstKeptIndex` on, other markers left out.
 * `firstIndex` is the session-wide index of `messages[0]` (a page may not have loaded the oldest messages yet; kept
 * messages it lacks are then left out, which only makes an estimate smaller). Pure; O(messages after the kept ones)
 * once there is a marker, O(1) without one beyond finding out.
 */
export function compactedView(messages: AgentMessage[], firstIndex = 0): CompactedView {
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "compaction") {
      at = i;
      break;
    }
  }
  if (at === -1) return { messages, freshFrom: 0 };
  const marker = messages[at] as CompactionMessage;
  const from = Math.min(at, Math.max(0, marker.firstKeptIndex - firstIndex));
  const view: AgentMessage[] = [marker];
  for (let i = from; i < messages.length; i++) if (messages[i].role !== "compaction") view.push(messages[i]);
  let keptBefore = 0;
  for (let i = from; i < at; i++) if (messages[i].role !== "compaction") keptBefore++;
  return { messages: view, marker, freshFrom: 1 + keptBefore };
}

/**
 * The marker as the model gets it, a user message's text: the summary in pi's wrapping, so the model knows what it
 * is, and the files touched so far in pi's tags.
 */
export function summaryForModel(marker: Pick<CompactionMessage, "summary" | "files">): string {
  const sections: string[] = [];
  if (marker.files?.read.length) sections.push(`<read-files>\n${marker.files.read.join("\n")}\n</read-files>`);
  if (marker.files?.modified.length) sections.push(`<modified-files>\n${marker.files.modified.join("\n")}\n</modified-files>`);
  const files = sections.length > 0 ? `\n\n${sections.join("\n\n")}` : "";
  return `The conversation before this point was compacted into the following summary:\n\n<summary>\n${marker.summary}${files}\n</summary>`;
}
