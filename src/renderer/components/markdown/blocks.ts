import { Lexer, type Token } from "marked";
import { BoundedCache } from "./bounded-cache";

/**
 * Blocks are rendered in groups of this many. A full group never changes, so React skips it with one comparison
 * and the browser skips its layout and paint while it is off screen (`content-visibility: auto` on `.md-chunk`):
 * the work per streamed token stays about the size of the last group, however long the reply grows.
 */
export const BLOCKS_PER_CHUNK = 24;

/**
 * How messages are lexed: GitHub's flavour with single line breaks kept (`breaks`), as chat apps show them. A model's
 * haiku, an address or a list of lines typed without blank lines between them stays on its lines instead of running
 * into one paragraph; a blank line still starts a new one.
 */
const LEX_OPTIONS = { gfm: true, breaks: true } as const;

function lex(text: string): Token[] {
  return Lexer.lex(text, LEX_OPTIONS);
}

/**
 * Splits markdown into top-level blocks incrementally, for text that grows at its end while a reply streams.
 *
 * Every block but the last one found is final: its token object never changes again, so memoized block components
 * skip it. Each `update` lexes only the text after the last final block, so the cost per streamed delta is about
 * the size of the block being written, not the size of the message.
 *
 * Text that does not extend the previous text (an edit, a different message) restarts from scratch.
 */
export class IncrementalBlocks {
  private text = "";
  private settled: Token[] = [];
  private settledLength = 0;
  private tail: Token[] = [];
  private frozen: Token[][] = [];

  /** Takes the text as it is now; read the blocks with `chunks()`. Settled tokens keep their identity. */
  update(text: string): void {
    if (text === this.text) return;
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    const tokens = lex(text.slice(this.settledLength));
    // The last block may still grow (an open code fence, a paragraph mid-sentence); all earlier ones are done.
    // A trailing "space" token does not make the block before it final: a list can continue after a blank line.
    let open = tokens.length - 1;
    while (open > 0 && tokens[open].type === "space") open--;
    for (let i = 0; i < open; i++) {
      this.settled.push(tokens[i]);
      this.settledLength += tokens[i].raw.length;
    }
    this.tail = tokens.slice(Math.max(open, 0));
  }

  /**
   * The blocks of the last `update` in groups of BLOCKS_PER_CHUNK. Every group but the last is full and keeps its
   * array identity across updates; the last group holds the remaining settled blocks and the open tail.
   */
  chunks(): readonly (readonly Token[])[] {
    while ((this.frozen.length + 1) * BLOCKS_PER_CHUNK <= this.settled.length) {
      const start = this.frozen.length * BLOCKS_PER_CHUNK;
      this.frozen.push(this.settled.slice(start, start + BLOCKS_PER_CHUNK));
    }
    const rest = this.settled.slice(this.frozen.length * BLOCKS_PER_CHUNK).concat(this.tail);
    return rest.length === 0 ? this.frozen : [...this.frozen, rest];
  }

  private reset(): void {
    this.text = "";
    this.settled = [];
    this.settledLength = 0;
    this.tail = [];
    this.frozen = [];
  }
}

/** At most 200 texts and 200k characters of them (with their tokens about 1 MB of heap). */
const finishedCache = new BoundedCache<readonly (readonly Token[])[]>(200, 200_000, (text) => text.length);

/**
 * Blocks of a finished text in groups of BLOCKS_PER_CHUNK, cached by content so a message scrolled out of and back
 * into the virtual list is not lexed again. Bounded by count and characters: the least recently used goes first.
 */
export function finishedChunks(text: string): readonly (readonly Token[])[] {
  const hit = finishedCache.get(text);
  if (hit) return hit;
  const tokens = lex(text);
  const blocks: Token[][] = [];
  for (let i = 0; i < tokens.length; i += BLOCKS_PER_CHUNK) blocks.push(tokens.slice(i, i + BLOCKS_PER_CHUNK));
  finishedCache.set(text, blocks);
  return blocks;
}

/** Whether `finishedChunks` has lexed this text already (then rendering it whole costs little). */
export function isLexed(text: string): boolean {
  return finishedCache.has(text);
}

/**
 * A rough rendered height for markdown not lexed yet, by the same measure as lexed blocks (Markdown's
 * estimateHeight): about 90 characters per 26 px line, a margin per paragraph, 21 px per line of fenced code.
 */
export function estimateTextHeight(text: string): number {
  let px = 0;
  let inCode = false;
  for (const line of text.split("\n")) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) {
      inCode = !inCode;
      if (inCode) px += 56;
      continue;
    }
    if (inCode) px += 21;
    else if (line.trim() === "") px += 16;
    else px += 26 * Math.ceil(line.length / 90);
  }
  return Math.round(px);
}

/** Texts longer than this are shown tail first when they first appear (a chat opened on a long reply). */
export const LONG_TEXT_CHARS = 16_000;
/** About how much of the end of a long text is lexed and rendered for the first paint (several screens). */
export const FIRST_PAINT_TAIL_CHARS = 8_000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/gm;
/** A line that opens a block on its own: not indented, not a list item, quote or table row continuing something. */
const FRESH_BLOCK_LINE = /^[^\s\-*+>|\d]/;

/**
 * Where a long text can be cut into a head, lexed later, and a tail, lexed now, without changing how either reads:
 * a blank line outside any fenced code block, followed by a line that starts a block by itself (so no list, quote,
 * table or indented continuation is cut). Returns the tail's start, at least `tailChars` from the end, or 0 when
 * the text is short or has no such place. The same approximation IncrementalBlocks makes when it lexes only what
 * follows its settled blocks; it differs only for reference-style links defined before the cut and used after it.
 */
export function firstPaintSplit(text: string, tailChars = FIRST_PAINT_TAIL_CHARS): number {
  if (text.length <= LONG_TEXT_CHARS) return 0;
  const limit = text.length - tailChars;
  // Fenced regions [open, close) in text order; an unclosed fence runs to the end.
  const fences: [number, number][] = [];
  let open: { at: number; marker: string } | undefined;
  for (const match of text.matchAll(FENCE)) {
    const marker = match[1];
    if (!open) open = { at: match.index, marker };
    else if (marker[0] === open.marker[0] && marker.length >= open.marker.length) {
      fences.push([open.at, match.index]);
      open = undefined;
    }
  }
  if (open) fences.push([open.at, text.length]);
  const fenced = (at: number) => fences.some(([from, to]) => at > from && at < to);
  for (let blank = text.lastIndexOf("\n\n", limit); blank > 0; blank = text.lastIndexOf("\n\n", blank - 1)) {
    const start = blank + 2;
    if (!fenced(blank) && FRESH_BLOCK_LINE.test(text.slice(start, start + 1))) return start;
  }
  return 0;
}
