/**
 * The piece of a message a search result shows: about a line of text around the first word that matches the query,
 * whitespace collapsed, with where each matching word sits in it (the page highlights those ranges).
 */
import { forEachTerm, queryTerms } from "./search-tokens";

export interface Snippet {
  text: string;
  /** [start, end) of each matching word in `text`. */
  ranges: [number, number][];
}

/** Characters shown before the first match and in all (about one line of the sidebar's result). */
const BEFORE = 40;
const WIDTH = 160;

/**
 * The snippet of `text` for `query` (terms as the index cuts them; the last one also as a prefix while typed), or
 * undefined when no word of `text` matches: the message changed since it was indexed.
 */
export function snippetOf(text: string, query: string): Snippet | undefined {
  const { terms, lastIsPrefix } = queryTerms(query);
  if (terms.length === 0) return undefined;
  const exact = new Set(lastIsPrefix ? terms.slice(0, -1) : terms);
  const prefix = lastIsPrefix ? terms[terms.length - 1] : undefined;
  const matches: [number, number][] = [];
  forEachTerm(text, (term, start, end) => {
    if (exact.has(term) || (prefix !== undefined && term.startsWith(prefix))) matches.push([start, end]);
  });
  if (matches.length === 0) return undefined;
  const first = matches[0][0];
  let from = Math.max(0, first - BEFORE);
  // Start at a word: past the first space after `from`, unless that would pass the match.
  if (from > 0) {
    const space = text.slice(from, first).search(/\s/);
    from = space === -1 ? first : from + space + 1;
  }
  let to = Math.min(text.length, from + WIDTH);
  if (to < text.length) {
    const space = text.slice(to, to + 20).search(/\s/);
    if (space !== -1) to += space;
  }
  return collapse(text, from, to, matches);
}

/** `text[from, to)` with runs of whitespace as one space, the matches inside it moved to match, and ellipses. */
function collapse(text: string, from: number, to: number, matches: [number, number][]): Snippet {
  const lead = from > 0 ? "… " : "";
  let out = lead;
  /** Where each character of the slice landed in `out`. */
  const at = new Int32Array(to - from + 1);
  let inSpace = false;
  for (let i = from; i < to; i++) {
    at[i - from] = out.length;
    const space = /\s/.test(text[i]);
    if (space) {
      if (!inSpace && out.length > lead.length) out += " ";
      inSpace = true;
    } else {
      out += text[i];
      inSpace = false;
    }
  }
  at[to - from] = out.length;
  const body = out.trimEnd();
  const ranges: [number, number][] = [];
  for (const [start, end] of matches) {
    if (start < from || end > to) continue;
    ranges.push([at[start - from], Math.min(at[end - from], body.length)]);
  }
  return { text: to < text.length ? `${body} …` : body, ranges };
}
