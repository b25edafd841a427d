/**
 * How the sidebar's search cuts text into terms, for the index and for snippets alike: lower-cased runs of letters
 * and digits, accents folded ("Café" -> "cafe"), each Han, Hiragana or Katakana character a term of its own (those
 * scripts put no spaces between words). Terms are at most MAX_TERM characters; long runs that look like hashes or
 * ids (digits mixed in, past MAX_CODE_TERM) are not indexed at all: nobody types them, and each would be a term of
 * its own in the dictionary.
 */

const MAX_TERM = 32;
const MAX_CODE_TERM = 16;

/** Runs of letters, marks and digits; CJK ideographs and kana one by one. */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}]+/gu;
const NON_ASCII = /[^ -~\s]/u;
const MARKS = /\p{M}+/gu;

/** The term a word stands for, or undefined when it is not indexed (see above). */
function termOf(word: string): string | undefined {
  let term = word.toLowerCase();
  if (NON_ASCII.test(term)) term = term.normalize("NFD").replace(MARKS, "");
  if (term.length === 0) return undefined;
  if (term.length > MAX_CODE_TERM && /\d/.test(term)) return undefined;
  return term.length > MAX_TERM ? term.slice(0, MAX_TERM) : term;
}

/** Calls `each` with every indexed term of `text`, in order, with where its word starts and ends in `text`. */
export function forEachTerm(text: string, each: (term: string, start: number, end: number) => void): void {
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const term = termOf(m[0]);
    if (term !== undefined) each(term, m.index, m.index + m[0].length);
  }
}

/** The terms of `text` with how often each occurs, and how many terms it has in all. */
export function termCounts(text: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  forEachTerm(text, (term) => {
    counts.set(term, (counts.get(term) ?? 0) + 1);
    length++;
  });
  return { counts, length };
}

/**
 * A query as terms: every word must match a term exactly, except the last one, which may also be the start of a
 * term while the user is still typing it (`prefix`: the query does not end with a space).
 */
export function queryTerms(query: string): { terms: string[]; lastIsPrefix: boolean } {
  const terms: string[] = [];
  forEachTerm(query, (term) => terms.push(term));
  return { terms, lastIsPrefix: terms.length > 0 && !/\s$/.test(query) };
}
