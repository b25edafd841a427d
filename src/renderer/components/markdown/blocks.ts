import { Lexer, type Token } from "marked";

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

  /** Returns the blocks of `text`: settled tokens keep their identity across calls. */
  update(text: string): readonly Token[] {
    if (text === this.text) return this.blocks();
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
    return this.blocks();
  }

  private blocks(): readonly Token[] {
    return this.tail.length === 0 ? this.settled : [...this.settled, ...this.tail];
  }

  private reset(): void {
    this.text = "";
    this.settled = [];
    this.settledLength = 0;
    this.tail = [];
  }
}

const finishedCache = new Map<string, readonly Token[]>();
const FINISHED_CACHE_LIMIT = 200;

/**
 * Blocks of a finished text, cached by content so a message scrolled out of and back into the virtual list is not
 * lexed again. Bounded: the oldest entry goes first.
 */
export function finishedBlocks(text: string): readonly Token[] {
  const hit = finishedCache.get(text);
  if (hit) return hit;
  const blocks = Lexer.lex(text);
  finishedCache.set(text, blocks);
  if (finishedCache.size > FINISHED_CACHE_LIMIT) {
    const oldest = finishedCache.keys().next().value;
    if (oldest !== undefined) finishedCache.delete(oldest);
  }
  return blocks;
}
