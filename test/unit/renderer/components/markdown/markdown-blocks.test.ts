import { describe, expect, it } from "vitest";
import { Lexer } from "marked";
import { BLOCKS_PER_CHUNK, finishedChunks, firstPaintSplit, IncrementalBlocks } from "../../../../../src/renderer/components/markdown/blocks";

/** Feeds `text` and returns every block, in order. */
const lexed = (blocks: IncrementalBlocks, text: string) => {
  blocks.update(text);
  return blocks.chunks().flat();
};

const REPLY = "# Title\n\nFirst paragraph with **bold**.\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n\n- one\n- two\n\nLast line.";

describe("IncrementalBlocks", () => {
  it("ends with the same block types and text as lexing the whole reply, when fed one character at a time", () => {
    const blocks = new IncrementalBlocks();
    let last: readonly unknown[] = [];
    for (let i = 1; i <= REPLY.length; i++) last = lexed(blocks, REPLY.slice(0, i));
    const strip = (tokens: readonly any[]) => tokens.filter((t) => t.type !== "space").map((t) => [t.type, t.raw.trim()]);
    expect(strip(last as any[])).toEqual(strip(Lexer.lex(REPLY)));
  });

  it("keeps settled blocks as the same objects while the last block grows", () => {
    const blocks = new IncrementalBlocks();
    const before = lexed(blocks, "Para one.\n\n```js\nlet x");
    const after = lexed(blocks, "Para one.\n\n```js\nlet x = 1;\n");
    expect(after[0]).toBe(before[0]);
    expect(after.at(-1)).not.toBe(before.at(-1));
    expect((after.at(-1) as any).text).toBe("let x = 1;");
  });

  it("starts over when the text is not an extension of the previous one", () => {
    const blocks = new IncrementalBlocks();
    blocks.update("Alpha.\n\nBeta.");
    const replaced = lexed(blocks, "Gamma.");
    expect(replaced.map((t) => t.raw)).toEqual(["Gamma."]);
  });

  it("groups blocks so that full groups keep their identity while the reply grows", () => {
    const paragraphs = Array.from({ length: BLOCKS_PER_CHUNK * 2 + 5 }, (_, i) => `Paragraph ${i}.`);
    const blocks = new IncrementalBlocks();
    blocks.update(paragraphs.slice(0, BLOCKS_PER_CHUNK * 2 + 2).join("\n\n"));
    const before = blocks.chunks();
    blocks.update(paragraphs.join("\n\n"));
    const after = blocks.chunks();
    const fullBefore = before.slice(0, -1);
    expect(fullBefore.length).toBeGreaterThan(1);
    fullBefore.forEach((group, i) => expect(after[i]).toBe(group));
    after.slice(0, -1).forEach((group) => expect(group).toHaveLength(BLOCKS_PER_CHUNK));
    const texts = after.flat().filter((t) => t.type !== "space").map((t) => t.raw.trim());
    expect(texts).toEqual(paragraphs);
  });
});

describe("finishedChunks", () => {
  it("splits a finished reply into full groups and a remainder, the same blocks as lexing it whole", () => {
    const text = Array.from({ length: BLOCKS_PER_CHUNK + 3 }, (_, i) => `Line ${i}.`).join("\n\n");
    const chunks = finishedChunks(text);
    expect(chunks[0]).toHaveLength(BLOCKS_PER_CHUNK);
    expect(chunks.flat().map((t) => t.raw)).toEqual(Lexer.lex(text).map((t) => t.raw));
    expect(finishedChunks(text)).toBe(chunks);
  });
});

describe("firstPaintSplit: where a long text's tail can be lexed first", () => {
  const para = (i: number) => `Paragraph ${i} says something useful about the topic at hand, at some length.`;
  const long = (parts: string[]) => parts.join("\n\n");

  it("leaves short texts whole", () => {
    expect(firstPaintSplit("Short.\n\nText.")).toBe(0);
  });

  it("cuts a long text at a blank line, keeping at least the tail it was asked for, and both halves lex as the whole", () => {
    const text = long(Array.from({ length: 400 }, (_, i) => para(i)));
    const cut = firstPaintSplit(text, 8_000);
    expect(cut).toBeGreaterThan(0);
    expect(text.length - cut).toBeGreaterThanOrEqual(8_000);
    expect(text.slice(cut - 2, cut)).toBe("\n\n");
    const apart = [...Lexer.lex(text.slice(0, cut)), ...Lexer.lex(text.slice(cut))].filter((t) => t.type !== "space").map((t) => t.raw.trim());
    expect(apart).toEqual(Lexer.lex(text).filter((t) => t.type !== "space").map((t) => t.raw.trim()));
  });

  it("never cuts inside a fenced code block, a list, a quote or an indented continuation", () => {
    const code = "```py\n" + Array.from({ length: 800 }, (_, i) => `x${i} = ${i}\n\nprint(x${i})`).join("\n") + "\n```";
    const list = Array.from({ length: 300 }, (_, i) => `${i + 1}. Step ${i}\n\n   Indented explanation of step ${i}.`).join("\n\n");
    const quote = Array.from({ length: 300 }, (_, i) => `> quoted line ${i}\n>\n> more`).join("\n");
    for (const body of [code, list, quote]) {
      const text = `${para(0)}\n\n${body}`;
      const cut = firstPaintSplit(text, 2_000);
      // The only safe place is the blank line after the opening paragraph, far more than 2,000 characters from the end.
      expect(cut === 0 || cut === para(0).length + 2).toBe(true);
    }
  });

  it("treats an unclosed fence as running to the end (a reply still writing its code)", () => {
    const text = `${long(Array.from({ length: 100 }, (_, i) => para(i)))}\n\n\`\`\`js\n${"let a = 1;\n\n".repeat(2_000)}`;
    const cut = firstPaintSplit(text, 1_000);
    // The last safe place is just before the fence opens: nothing inside it.
    expect(text.slice(cut).startsWith("```js\n")).toBe(true);
  });
});

describe("single line breaks", () => {
  const HAIKU = "An old silent pond\nA frog jumps into the pond\nSplash! Silence again.";
  const breaks = (tokens: readonly any[]): number =>
    tokens.reduce((n, t) => n + (t.type === "br" ? 1 : 0) + (Array.isArray(t.tokens) ? breaks(t.tokens) : 0), 0);

  it("keeps a haiku on three lines: one paragraph with two line breaks, finished or streamed", () => {
    const finished = finishedChunks(HAIKU).flat();
    expect(finished.map((t) => t.type)).toEqual(["paragraph"]);
    expect(breaks(finished)).toBe(2);
    const blocks = new IncrementalBlocks();
    let streamed: readonly unknown[] = [];
    for (let i = 1; i <= HAIKU.length; i++) streamed = lexed(blocks, HAIKU.slice(0, i));
    expect(breaks(streamed as any[])).toBe(2);
  });

  it("still starts a new paragraph at a blank line, and keeps code blocks' lines as they are", () => {
    const tokens = finishedChunks("one\n\ntwo\n\n```\na\nb\n```").flat().filter((t) => t.type !== "space");
    expect(tokens.map((t) => t.type)).toEqual(["paragraph", "paragraph", "code"]);
    expect(breaks(tokens)).toBe(0);
  });
});
