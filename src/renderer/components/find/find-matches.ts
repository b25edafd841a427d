/**
 * Find in a chat: every place a query occurs in the chat's messages, as the page holds them. Case-insensitive plain
 * text, like a browser's find, over each message's searchable text (the text the chat shows; see
 * shared/search/searchable-text.ts). O(text) per query; each message's lower-cased text is kept while the message
 * object lives, so typing a longer query costs a scan, not a rebuild.
 */
import type { AgentMessage } from "../../../shared/agent/types";
import { searchableText } from "../../../shared/search/searchable-text";

/** One occurrence: in message number `messageIndex` (session-wide), the `occurrence`-th (from 0) in its text. */
export interface FindMatch {
  messageIndex: number;
  occurrence: number;
}

/** Past this many the count says "10000+": a one-letter query in a long chat matches everywhere. */
export const MAX_MATCHES = 10_000;

const lowered = new WeakMap<AgentMessage, string>();

function lowerText(message: AgentMessage): string {
  let text = lowered.get(message);
  if (text === undefined) {
    text = searchableText(message).toLowerCase();
    lowered.set(message, text);
  }
  return text;
}

/** Occurrences of `query` in `messages` (message `i` is number `firstIndex + i`), oldest first, at most MAX_MATCHES. */
export function findMatches(messages: readonly AgentMessage[], firstIndex: number, query: string): FindMatch[] {
  const needle = query.toLowerCase();
  const matches: FindMatch[] = [];
  if (needle.trim() === "") return matches;
  for (let i = 0; i < messages.length && matches.length < MAX_MATCHES; i++) {
    const text = lowerText(messages[i]);
    let occurrence = 0;
    for (let at = text.indexOf(needle); at !== -1 && matches.length < MAX_MATCHES; at = text.indexOf(needle, at + needle.length)) {
      matches.push({ messageIndex: firstIndex + i, occurrence: occurrence++ });
    }
  }
  return matches;
}

/** Where `match` is in `matches` now, or the nearest one after it (-1 when there are none). */
export function positionOf(matches: readonly FindMatch[], match: FindMatch | undefined): number {
  if (matches.length === 0) return -1;
  if (!match) return matches.length - 1;
  let lo = 0;
  let hi = matches.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const m = matches[mid];
    if (m.messageIndex < match.messageIndex || (m.messageIndex === match.messageIndex && m.occurrence < match.occurrence)) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, matches.length - 1);
}
