import type { AssistantMessage, ToolResultMessage, UserMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../../shared/agent/types";

/**
 * One row of the message list. A message's row carries `index`, its message's session-wide index (what its actions
 * work on), and `key`, made from it (`messageRowKey`): the same when a streaming message joins the transcript.
 */
export type ChatItem =
  | { kind: "user"; key: string; index: number; message: UserMessage }
  | { kind: "assistant"; key: string; index: number; message: AssistantMessage; streaming: boolean }
  | { kind: "toolResult"; key: string; index: number; message: ToolResultMessage }
  | { kind: "other"; key: string; index: number; message: AgentMessage }
  /** Stands for the older messages still loading (a long chat opens with its newest ones). */
  | { kind: "history"; key: string; count: number };

/** The list row key of the message at session-wide `index` (find and search scroll to rows by it). */
export function messageRowKey(index: number): string {
  return `m${index}`;
}

export interface Transcript {
  items: ChatItem[];
  /** Tool results by tool-call id, shown inside the assistant's tool card rather than as rows of their own. */
  toolResults: ReadonlyMap<string, ToolResultMessage>;
}

/**
 * Turns the transcript into list rows. Tool results whose call appears in an assistant message are folded into
 * that message's tool card; orphans keep a row. `firstIndex` is the session-wide index of `messages[0]` (older
 * messages may still be loading), so a row keeps its key when they arrive. O(messages): callers memoize on the
 * messages array, which changes only when a message ends, not per streamed token.
 */
export function buildTranscript(messages: readonly AgentMessage[], firstIndex = 0): Transcript {
  const callIds = new Set<string>();
  const toolResults = new Map<string, ToolResultMessage>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "toolCall") callIds.add(block.id);
    } else if (message.role === "toolResult") {
      toolResults.set(message.toolCallId, message);
    }
  }
  const items: ChatItem[] = [];
  messages.forEach((message, index) => {
    const at = firstIndex + index;
    const key = messageRowKey(at);
    switch (message.role) {
      case "user":
        items.push({ kind: "user", key, index: at, message });
        break;
      case "assistant":
        items.push({ kind: "assistant", key, index: at, message, streaming: false });
        break;
      case "toolResult":
        if (!callIds.has(message.toolCallId)) items.push({ kind: "toolResult", key, index: at, message });
        break;
      default:
        items.push({ kind: "other", key, index: at, message });
    }
  });
  return { items, toolResults };
}

/** The streaming message as a row, keyed by the index it will take in the transcript. */
export function streamingItem(message: AgentMessage | undefined, index: number): ChatItem | null {
  if (!message) return null;
  const key = messageRowKey(index);
  if (message.role === "assistant") return { kind: "assistant", key, index, message, streaming: true };
  if (message.role === "user") return { kind: "user", key, index, message };
  return null;
}

/** "1234" -> "1.2k"; keeps small numbers exact. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * What tokens spent cost, as a reply's footer and a subagent's line say it: dollars from the model's pricing, or
 * "cost unknown" when it came to nothing (a model without pricing: a custom endpoint, a local model), never "$0".
 */
export function spentCost(dollars: number | undefined): string {
  return dollars !== undefined && dollars > 0 ? formatCost(dollars) : "cost unknown";
}

/** Dollars with enough precision to see the cost of a single small reply. */
export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}
