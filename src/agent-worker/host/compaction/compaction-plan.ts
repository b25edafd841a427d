/**
 * The pure part of compaction, after pi's coding agent (`core/compaction/`): where to cut a transcript, what to
 * summarise, and the summarising request. `context-compactor.ts` runs it against the live session.
 *
 * The cut: walking back from the newest message, about `keepRecentTokens` stay as they are; the cut lands on a user
 * or assistant message, never on a tool result, so a tool call and its result are never parted (cutting at an
 * assistant message keeps its results after it). A cut inside a turn (one turn larger than the budget) is a split
 * turn: the summary then also covers the start of that turn.
 */
import type { Context, Message, UserMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../../shared/agent/types";
import { compactedView, type CompactionMessage, type CompactionReason } from "../../../shared/agent/compaction";
import { contextTokens, estimateTokens, type CompactionSettings } from "../../../shared/agent/context-tokens";

/** What one compaction will do. Indices are into the transcript given to `planCompaction` (markers counted). */
export interface CompactionPlan {
  /** The messages to summarise: from the previous summary's kept boundary to the cut, markers left out. */
  summarise: AgentMessage[];
  /** The previous marker's summary, which the new one updates. */
  previousSummary?: string;
  previousFiles?: FileLists;
  /** The first message kept after the summary. */
  firstKeptIndex: number;
  /** The cut is inside a turn: its start is summarised, its rest kept. */
  splitTurn: boolean;
  /** Non-marker messages before the cut: what the new summary stands for. */
  summarisedMessages: number;
  /** Their estimated size. */
  summarisedTokens: number;
  /** The context now (see contextTokens). */
  tokensBefore: number;
  /** Estimated context after, without the summary: system prompt and tools plus the kept messages. */
  tokensKept: number;
}

export interface FileLists {
  read: string[];
  modified: string[];
}

function isCutPoint(message: AgentMessage): boolean {
  return message.role === "user" || message.role === "assistant";
}

/**
 * Where the kept messages start, for messages [start, end) of `path`: the first user or assistant message at or
 * after the point where the newest messages reach `keepRecentTokens`. When the budget is reached at a trailing tool
 * result, with no cut point after it, the last cut point before it. `start` when everything fits (nothing to cut).
 */
export function findCutPoint(path: readonly AgentMessage[], start: number, end: number, keepRecentTokens: number): number {
  let kept = 0;
  for (let i = end - 1; i >= start; i--) {
    kept += estimateTokens(path[i]);
    if (kept < keepRecentTokens) continue;
    for (let c = i; c < end; c++) if (isCutPoint(path[c])) return c;
    for (let c = i - 1; c > start; c--) if (isCutPoint(path[c])) return c;
    return start;
  }
  return start;
}

/**
 * The plan for compacting `path` (a transcript, markers included), or why there is nothing to do. Summarising starts
 * at the previous marker's kept boundary (its kept messages are summarised along with what followed them, with
 * the previous summary as the base). When the budget would keep everything, a compaction the user asked for cuts at
 * the start of the newest turn, and one after an overflow (something must give) also inside the newest turn, at
 * its last cut point; an automatic one does nothing.
 */
export function planCompaction(path: AgentMessage[], settings: CompactionSettings, reason: CompactionReason): CompactionPlan | string {
  if (path.length === 0) return "Nothing to compact yet: the chat is empty.";
  if (path[path.length - 1].role === "compaction") return "Already compacted: nothing new has been said since the last summary.";
  let previous: CompactionMessage | undefined;
  for (let i = path.length - 1; i >= 0 && !previous; i--) if (path[i].role === "compaction") previous = path[i] as CompactionMessage;
  const start = previous ? Math.max(0, Math.min(previous.firstKeptIndex, path.length)) : 0;
  let cut = findCutPoint(path, start, path.length, settings.keepRecentTokens);
  if (cut <= start && reason !== "threshold") cut = lastIndex(path, start, (m) => m.role === "user") ?? start;
  if (cut <= start && reason === "overflow") cut = lastIndex(path, start, isCutPoint) ?? start;
  const summarise = path.slice(start, cut).filter((m) => m.role !== "compaction");
  if (summarise.length === 0) {
    return reason !== "threshold"
      ? "Nothing to compact yet: the newest turn is all there is since the last summary."
      : "Nothing to compact: the newest messages alone fill what is kept.";
  }
  const before = compactedView(path);
  const tokensBefore = contextTokens(before).tokens;
  const estimated = before.messages.reduce((sum, m) => sum + estimateTokens(m), 0);
  const overhead = Math.max(0, tokensBefore - estimated); // the system prompt and tools, as far as usage tells
  let kept = 0;
  for (let i = cut; i < path.length; i++) if (path[i].role !== "compaction") kept += estimateTokens(path[i]);
  let summarisedMessages = 0;
  let summarisedTokens = 0;
  for (let i = 0; i < cut; i++) {
    if (path[i].role === "compaction") continue;
    summarisedMessages++;
    summarisedTokens += estimateTokens(path[i]);
  }
  return {
    summarise,
    ...(previous ? { previousSummary: previous.summary, ...(previous.files ? { previousFiles: previous.files } : {}) } : {}),
    firstKeptIndex: cut,
    splitTurn: path[cut]?.role !== "user",
    summarisedMessages,
    summarisedTokens,
    tokensBefore,
    tokensKept: overhead + kept,
  };
}

/** The index of the last message after `start` that passes `test`. */
function lastIndex(path: readonly AgentMessage[], start: number, test: (m: AgentMessage) => boolean): number | undefined {
  for (let i = path.length - 1; i > start; i--) if (test(path[i])) return i;
  return undefined;
}

export const SUMMARY_SYSTEM_PROMPT =
  "You summarise conversations so that another model can carry them on. You read a conversation between a user and " +
  "an AI assistant and write a structured summary in exactly the format asked for.\n\n" +
  "Do not continue the conversation. Do not answer any question in it. Write only the summary.";

const FORMAT = `## Goal
[What the user wants to achieve; several items if the conversation has several tasks.]

## Constraints & Preferences
- [Requirements and preferences the user stated, or "(none)"]

## Progress
### Done
- [x] [What was completed]

### In Progress
- [ ] [What is under way]

### Blocked
- [What stands in the way, if anything]

## Key Decisions
- **[Decision]**: [Why, briefly]

## Next Steps
1. [What should happen next, in order]

## Critical Context
- [Facts, data, names and references needed to go on, or "(none)"]

Keep every section short. Keep exact file paths, names, numbers and error messages.`;

const FIRST_SUMMARY = `The conversation above is to be replaced by a summary that another model will continue from. Write a structured checkpoint in exactly this format:

${FORMAT}`;

const UPDATED_SUMMARY = `The conversation above holds NEW messages. The <previous-summary> holds the summary of everything before them. Update that summary with the new messages:
- keep everything it says that still holds;
- add new progress, decisions and context;
- move finished items from "In Progress" to "Done", and revise "Next Steps";
- drop only what no longer matters.

Use exactly the same format:

${FORMAT}`;

const SPLIT_TURN = `The conversation ends in the middle of a turn: the user's latest request and the work done on it so far are above, and the rest of that turn is kept word for word after your summary. Say what that request was and what has been done for it so far.`;

/** Tool results are cut to this many characters for the summarising request (pi's limit): they are most of a context. */
const TOOL_RESULT_CHARS = 2_000;

/**
 * A conversation as plain text, so the summarising model reads it rather than continuing it: `[User]: ...`,
 * `[Assistant thinking]: ...`, `[Assistant]: ...`, `[Assistant tool calls]: name(arg=value); ...`, `[Tool result]: ...`
 * (pi's format). Failed replies carry nothing worth summarising and are left out.
 */
export function serializeConversation(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = typeof message.content === "string" ? message.content : message.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      if (message.stopReason === "error") continue;
      const text: string[] = [];
      const thinking: string[] = [];
      const calls: string[] = [];
      for (const block of message.content) {
        if (block.type === "text") text.push(block.text);
        else if (block.type === "thinking") thinking.push(block.thinking);
        else if (block.type === "toolCall") {
          const args = Object.entries(block.arguments ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
          calls.push(`${block.name}(${args.join(", ")})`);
        }
      }
      if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join("\n")}`);
      if (text.length > 0) parts.push(`[Assistant]: ${text.join("\n")}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (message.role === "toolResult") {
      const text = message.content.map((p) => (p.type === "text" ? p.text : "")).join("");
      if (text) parts.push(`[Tool result]: ${truncate(text, TOOL_RESULT_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n\n[... ${text.length - max} more characters truncated]`;
}

/**
 * The summarising request for a plan: the conversation (already converted for the model) in `<conversation>`, the
 * previous summary in `<previous-summary>`, then the instructions, as one user message.
 */
export function summaryRequest(plan: CompactionPlan, conversation: readonly Message[], now = Date.now()): Context {
  let text = `<conversation>\n${serializeConversation(conversation)}\n</conversation>\n\n`;
  if (plan.previousSummary !== undefined) text += `<previous-summary>\n${plan.previousSummary}\n</previous-summary>\n\n`;
  text += plan.previousSummary !== undefined ? UPDATED_SUMMARY : FIRST_SUMMARY;
  if (plan.splitTurn) text += `\n\n${SPLIT_TURN}`;
  const message: UserMessage = { role: "user", content: [{ type: "text", text }], timestamp: now };
  return { systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [message] };
}

/** Most tokens the summary may take: pi's four fifths of the reserve, within what the model can write. */
export function summaryMaxTokens(settings: CompactionSettings, modelMaxTokens: number): number {
  const budget = Math.max(256, Math.floor(settings.reserveTokens * 0.8));
  return modelMaxTokens > 0 ? Math.min(budget, modelMaxTokens) : budget;
}

/**
 * The files the summarised part read and changed (pi's `read`, `write` and `edit` tools, which ours are), added to
 * the previous summary's: a summary loses detail, and which files were touched is what a coding agent needs most.
 */
export function fileLists(plan: CompactionPlan): FileLists {
  const read = new Set(plan.previousFiles?.read ?? []);
  const modified = new Set(plan.previousFiles?.modified ?? []);
  for (const message of plan.summarise) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const path = (block.arguments as { path?: unknown } | undefined)?.path;
      if (typeof path !== "string") continue;
      if (block.name === "read") read.add(path);
      else if (block.name === "write" || block.name === "edit") modified.add(path);
    }
  }
  return { read: [...read].filter((f) => !modified.has(f)).sort(), modified: [...modified].sort() };
}
