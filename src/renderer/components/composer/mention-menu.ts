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
export function withMention(draft: string, at: MentionAt, path: string, folder: boolean): { draft: string; caret: number; inserted: string } {
  const inserted = `@${path}${folder ? "/" : ""} `;
  const rest = draft.slice(at.end).replace(/^ /, "");
  return { draft: draft.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length, inserted };
}

/**
 * The draft without a mention `withMention` inserted (`inserted`, put at `start`) whose file was refused: the
 * occurrence nearest `start` (the user may have typed before it since), with the caret moved as the text before it
 * shrank. Undefined when the draft no longer holds it as inserted (the user edited it: theirs to keep).
 *
 * Removed rather than left as text: in the message an `@path` says "this file is attached", so a model sent
 * `@logo.bin` with no file would look for it or guess; Cursor and Claude Code users see a mention that did not
 * attach go away, with the reason said once above the box.
 */
export function withoutMention(draft: string, inserted: string, start: number, caret: number): { draft: string; caret: number } | undefined {
  let at = -1;
  for (let i = draft.indexOf(inserted); i >= 0; i = draft.indexOf(inserted, i + 1)) {
    if (at < 0 || Math.abs(i - start) < Math.abs(at - start)) at = i;
  }
  if (at < 0) return undefined;
  const end = at + inserted.length;
  return { draft: draft.slice(0, at) + draft.slice(end), caret: caret >= end ? caret - inserted.length : Math.min(caret, at) };
}

/** Most resources the menu shows at once. */
const MAX_RESOURCE_ROWS = 20;

/** Resources whose name or address holds `query` (case aside), names starting with it first. */
export function matchResources(resources: readonly McpResourceInfo[], query: string): McpResourceInfo[] {
  const q = query.toLowerCase();
  const holds = resources.filter((r) => r.name.toLowerCase().includes(q) || r.uri.toLowerCase().includes(q));
  return [...holds.filter((r) => r.name.toLowerCase().startsWith(q)), ...holds.filter((r) => !r.name.toLowerCase().startsWith(q))].slice(0, MAX_RESOURCE_ROWS);
}
