import { describe, expect, it } from "vitest";
import { Lexer } from "marked";
import { BLOCKS_PER_CHUNK, finishedChunks, IncrementalBlocks } from "../../../src/renderer/components/markdown/blocks";

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
