/**
 * Characters that do not show as themselves (shared/security/hidden-characters.ts): which ones count, and how a text
 * holding them is split for the page, so an approval question cannot read as another command than the one that runs.
 */
import { describe, expect, it } from "vitest";
import { hasHiddenCharacters, visibleSegments, visibleText } from "../../../../src/shared/security/hidden-characters";

describe("hasHiddenCharacters", () => {
  it("finds controls, bidi overrides and isolates, zero-width and other invisible characters, odd spaces", () => {
    const hidden = [
      "\n", "\r", "\0", "\x1b[2K", "\b", "\x7f", "\x85", "\x9b", // C0 and C1 controls, DEL
      "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c", // bidi
      "\u200b", "\u200c", "\u200d", "\u2060", "\u2061", "\u2064", "\ufeff", "\u00ad", "\u034f", "\u180e", // zero-width, soft hyphen
      "\u115f", "\u1160", "\u3164", "\uffa0", "\u17b4", "\ufe0f", "\u{e0041}", "\u{e0001}", // fillers, variation selectors, tags
      "\u2028", "\u2029", "\u00a0", "\u2003", "\u3000", // separators, spaces that are not U+0020
      "\ud800", // a lone surrogate
    ];
    for (const char of hidden) expect(hasHiddenCharacters(`ls ${char}x`), JSON.stringify(char)).toBe(true);
  });

  it("leaves ordinary text alone: tabs, spaces, any script, emoji without joiners", () => {
    for (const text of ["npm test -- --watch", "a\tb", "grep -r 'naïve café' src", "echo שלום עולם", "echo مرحبا", "echo 日本語", "echo 😀 ✓ →", ""]) {
      expect(hasHiddenCharacters(text), text).toBe(false);
    }
  });
});

describe("visibleSegments", () => {
  it("keeps a newline as a line break behind its marker: the second command shows on a line of its own", () => {
    const command = "echo Tests passed, cleaning up:\nrm -rf src";
    expect(visibleSegments(command)).toEqual([
      { text: "echo Tests passed, cleaning up:" },
      { hidden: "\n", marker: "⏎", name: expect.stringContaining("line break"), lineBreak: true },
      { text: "rm -rf src" },
    ]);
    expect(visibleText(command)).toBe("echo Tests passed, cleaning up:⏎\nrm -rf src");
  });

  it("turns every other hidden character into a code marker with its name, and loses nothing", () => {
    const text = "cat notes\u202egnp.exe\u200b\u200b\r\u{e0041}";
    const segments = visibleSegments(text);
    expect(segments).toEqual([
      { text: "cat notes" },
      { hidden: "\u202e", marker: "<U+202E>", name: "right-to-left override" },
      { text: "gnp.exe" },
      { hidden: "\u200b", marker: "<U+200B>", name: "zero-width space" },
      { hidden: "\u200b", marker: "<U+200B>", name: "zero-width space" },
      { hidden: "\r", marker: "<U+000D>", name: "carriage return" },
      { hidden: "\u{e0041}", marker: "<U+E0041>", name: "invisible formatting character" },
    ]);
    expect(segments.map((s) => ("text" in s ? s.text : s.hidden)).join("")).toBe(text);
    expect(visibleText(text)).toBe("cat notes<U+202E>gnp.exe<U+200B><U+200B><U+000D><U+E0041>");
    expect(visibleText("\x01\u3000\ud800")).toBe("<U+0001><U+3000><U+D800>");
  });

  it("gives a text with nothing hidden back whole, and nothing for an empty one", () => {
    expect(visibleSegments("git status")).toEqual([{ text: "git status" }]);
    expect(visibleSegments("")).toEqual([]);
  });
});
