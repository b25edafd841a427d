import { describe, expect, it } from "vitest";
import { snippetOf } from "../../../../src/main/broker/search-snippet";

const marked = (s: { text: string; ranges: [number, number][] } | undefined) => s && s.ranges.map(([a, b]) => s.text.slice(a, b));

describe("search snippets", () => {
  it("shows the text around the first match with every matching word marked", () => {
    const s = snippetOf("Python is great. I like python a lot.", "python");
    expect(s?.text).toBe("Python is great. I like python a lot.");
    expect(marked(s)).toEqual(["Python", "python"]);
  });

  it("starts at a word shortly before the match, ends near a line later, with ellipses where cut", () => {
    const before = "lorem ipsum dolor sit amet ".repeat(10);
    const after = " consectetur adipiscing elit".repeat(20);
    const s = snippetOf(`${before}NEEDLE${after}`, "needle")!;
    expect(s.text.startsWith("… ")).toBe(true);
    expect(s.text.endsWith(" …")).toBe(true);
    expect(s.text.length).toBeLessThan(200);
    expect(marked(s)).toEqual(["NEEDLE"]);
    expect(s.text.indexOf("NEEDLE")).toBeLessThan(50);
  });

  it("collapses whitespace and keeps the marks on their words", () => {
    const s = snippetOf("first   line\n\n\tsecond  word here", "word")!;
    expect(s.text).toBe("first line second word here");
    expect(marked(s)).toEqual(["word"]);
  });

  it("marks words the last query word starts, and accents folded", () => {
    expect(marked(snippetOf("Configure the configuration", "config"))).toEqual(["Configure", "configuration"]);
    expect(marked(snippetOf("un café crème", "creme"))).toEqual(["crème"]);
  });

  it("says so when nothing matches (the message changed since it was indexed)", () => {
    expect(snippetOf("nothing to see", "needle")).toBeUndefined();
    expect(snippetOf("text", "   ")).toBeUndefined();
  });
});
