/**
 * The composer's `@` menu, its plain parts (Node tests load this file): which `@word` the caret is in, and what the
 * draft becomes when an entry is chosen.
 */

import type { McpResourceInfo } from "../../../shared/protocol/mcp-host-protocol";

/** The `@` mention being typed: the text after `@` up to the caret, and where the `@` is. */
export interface MentionAt {
  query: string;
  /** Index of the `@` in the draft. */
  start: number;
  /** Index just past the mention (the caret). */
  end: number;
}

/**
 * The mention the caret is at the end of: an `@` at the draft's start or after white space, then no white space up to
 * the caret. Undefined otherwise (an e-mail address, `@` inside a word, a caret elsewhere).
 */
export function mentionAt(draft: string, caret: number): MentionAt | undefined {
  const before = draft.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  const start = caret - match[2]!.length - 1;
  return { query: match[2]!, start, end: caret };
}

/**
 * The draft with the mention replaced by the chosen path, `@src/csv.ts ` (a folder's with its "/"), so the message
 * still says which file it means; and the caret just after it.
 */
export function withMention(draft: string, at: MentionAt, path: string, folder: boolean): { draft: string; caret: number } {
  const inserted = `@${path}${folder ? "/" : ""} `;
  const rest = draft.slice(at.end).replace(/^ /, "");
  return { draft: draft.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length };
}

/** Most resources the menu shows at once. */
const MAX_RESOURCE_ROWS = 20;

/** Resources whose name or address holds `query` (case aside), names starting with it first. */
export function matchResources(resources: readonly McpResourceInfo[], query: string): McpResourceInfo[] {
  const q = query.toLowerCase();
  const holds = resources.filter((r) => r.name.toLowerCase().includes(q) || r.uri.toLowerCase().includes(q));
  return [...holds.filter((r) => r.name.toLowerCase().startsWith(q)), ...holds.filter((r) => !r.name.toLowerCase().startsWith(q))].slice(0, MAX_RESOURCE_ROWS);
}
