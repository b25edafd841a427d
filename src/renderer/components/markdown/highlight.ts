import hljs from "highlight.js/lib/common";
import { BoundedCache } from "./bounded-cache";

/** Code longer than this is shown plain: highlighting it would block the frame for too long. */
const MAX_HIGHLIGHT_CHARS = 60_000;
/** At most 100 blocks and 300k characters of code and its HTML. */
const cache = new BoundedCache<string | null>(100, 300_000, (key, html) => key.length + (html?.length ?? 0));

/**
 * Highlighted HTML for a finished code block, or null when the language is unknown or the code too long (then the
 * caller shows plain text). highlight.js escapes the code, so the result is safe to insert as HTML. Never guesses
 * the language: auto-detection runs every grammar and is too slow for the render path.
 */
export function highlightCode(code: string, lang: string | undefined): string | null {
  const known = cachedHighlight(code, lang);
  if (known !== undefined) return known;
  const language = languageOf(lang)!;
  const key = `${language}\u0000${code}`;
  let html: string | null;
  try {
    html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    html = null;
  }
  cache.set(key, html);
  return html;
}

/**
 * What `highlightCode` would answer, when that is known without highlighting: from the cache, or null (plain) for
 * an unknown language or over-long code. Undefined when the code still has to be highlighted.
 */
export function cachedHighlight(code: string, lang: string | undefined): string | null | undefined {
  const language = languageOf(lang);
  if (!language || code.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(language)) return null;
  return cache.get(`${language}\u0000${code}`);
}

function languageOf(lang: string | undefined): string | undefined {
  return lang?.trim().split(/\s+/)[0]?.toLowerCase() || undefined;
}
