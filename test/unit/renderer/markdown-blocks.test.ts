import { describe, expect, it } from "vitest";
import { Lexer } from "marked";
import { IncrementalBlocks } from "../../../src/renderer/components/markdown/blocks";

const REPLY = "# Title\n\nFirst paragraph with **bold**.\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n\n- one\n- two\n\nLast line.";

describe("IncrementalBlocks", () => {
  it("ends with the same block types and text as lexing the whole reply, when fed one character at a time", () => {
    const blocks = new IncrementalBlocks();
    let last: readonly unknown[] = [];
    for (let i = 1; i <= REPLY.length; i++) last = blocks.update(REPLY.slice(0, i));
    const strip = (tokens: readonly any[]) => tokens.filter((t) => t.type !== "space").map((t) => [t.type, t.raw.trim()]);
    expect(strip(last as any[])).toEqual(strip(Lexer.lex(REPLY)));
  });

  it("keeps settled blocks as the same objects while the last block grows", () => {
    const blocks = new IncrementalBlocks();
    const before = blocks.update("Para one.\n\n```js\nlet x");
    const after = blocks.update("Para one.\n\n```js\nlet x = 1;\n");
    expect(after[0]).toBe(before[0]);
    expect(after.at(-1)).not.toBe(before.at(-1));
    expect((after.at(-1) as any).text).toBe("let x = 1;");
  });

  it("starts over when the text is not an extension of the previous one", () => {
    const blocks = new IncrementalBlocks();
    blocks.update("Alpha.\n\nBeta.");
    const replaced = blocks.update("Gamma.");
    expect(replaced.map((t) => t.raw)).toEqual(["Gamma."]);
  });
});
