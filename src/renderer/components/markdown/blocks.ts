import { Lexer, type Token } from "marked";

/**
 * Blocks are rendered in groups of this many. A full group never changes, so React skips it with one comparison
 * and the browser skips its layout and paint while it is off screen (`content-visibility: auto` on `.md-chunk`):
 * the work per streamed token stays about the size of the last group, however long the reply grows.
 */
export const BLOCKS_PER_CHUNK = 24;

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
    const tokens = Lexer.lex(text.slice(this.settledLength));
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

const finishedCache = new Map<string, readonly (readonly Token[])[]>();
const FINISHED_CACHE_LIMIT = 200;

/**
 * Blocks of a finished text in groups of BLOCKS_PER_CHUNK, cached by content so a message scrolled out of and back
 * into the virtual list is not lexed again. Bounded: the oldest entry goes first.
 */
export function finishedChunks(text: string): readonly (readonly Token[])[] {
  const hit = finishedCache.get(text);
  if (hit) return hit;
  const tokens = Lexer.lex(text);
  const blocks: Token[][] = [];
  for (let i = 0; i < tokens.length; i += BLOCKS_PER_CHUNK) blocks.push(tokens.slice(i, i + BLOCKS_PER_CHUNK));
  finishedCache.set(text, blocks);
  if (finishedCache.size > FINISHED_CACHE_LIMIT) {
    const oldest = finishedCache.keys().next().value;
    if (oldest !== undefined) finishedCache.delete(oldest);
  }
  return blocks;
}
