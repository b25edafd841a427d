import { describe, expect, it } from "vitest";
import { readContent, sameContent, splitLines } from "../../../../src/shared/changes/file-content";
import { findHunk, textHunks, unifiedLines, NO_NEWLINE } from "../../../../src/shared/changes/hunks";
import { changeWithoutHunks, fileChange } from "../../../../src/shared/changes/file-change";
import { changeSummary, countChanges } from "../../../../src/shared/changes/summary";

const enc = (s: string) => new TextEncoder().encode(s);
const numbered = (n: number, eol = "\n") => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join("");

describe("file content", () => {
  it("keeps each line's ending, so the lines join back to the text", () => {
    for (const text of ["a\nb\n", "a\r\nb\r\n", "a\nb", "", "\n", "a\r\nb"]) expect(splitLines(text).join("")).toBe(text);
    expect(splitLines("a\r\nb")).toEqual(["a\r\n", "b"]);
  });

  it("calls bytes with a NUL or invalid UTF-8 binary, and UTF-8 text", () => {
    expect(readContent(enc("héllo\n"))).toEqual({ kind: "text", text: "héllo\n" });
    expect(readContent(new Uint8Array([104, 0, 105]))).toEqual({ kind: "binary", size: 3 });
    expect(readContent(new Uint8Array([0xc3, 0x28]))).toEqual({ kind: "binary", size: 2 });
    expect(readContent(null)).toEqual({ kind: "absent" });
    expect(readContent({ tooLarge: true, size: 30_000_000 })).toEqual({ kind: "too-large", size: 30_000_000 });
  });

  it("compares versions by bytes, and unkept ones by size", () => {
    expect(sameContent("é", enc("é"))).toBe(true);
    expect(sameContent(enc("a"), enc("b"))).toBe(false);
    expect(sameContent(null, null)).toBe(true);
    expect(sameContent(null, "")).toBe(false);
    expect(sameContent({ tooLarge: true, size: 5 }, { tooLarge: true, size: 5 })).toBe(true);
    expect(sameContent({ tooLarge: true, size: 5 }, "12345")).toBe(false);
  });
});

describe("hunks", () => {
  it("shows a change with three lines of context and 1-based headers", () => {
    const before = numbered(20);
    const after = before.replace("line 10\n", "line ten\n");
    const [hunk, ...rest] = textHunks(before, after);
    expect(rest).toEqual([]);
    expect([hunk.added, hunk.removed]).toEqual([1, 1]);
    const view = unifiedLines(hunk, splitLines(after));
    expect(view.header).toBe("@@ -7,7 +7,7 @@");
    expect(view.lines).toEqual([" line 7", " line 8", " line 9", "-line 10", "+line ten", " line 11", " line 12", " line 13"]);
  });

  it("joins changes whose context would touch into one hunk, and keeps far ones apart", () => {
    const before = numbered(40);
    const near = before.replace("line 10\n", "ten\n").replace("line 16\n", "sixteen\n");
    const nearHunks = textHunks(before, near);
    expect(nearHunks).toHaveLength(1);
    expect(nearHunks[0].blocks).toHaveLength(2);
    const far = before.replace("line 10\n", "ten\n").replace("line 18\n", "eighteen\n");
    expect(textHunks(before, far)).toHaveLength(2);
    // Changes on lines next to each other are one block.
    const adjacent = before.replace("line 10\n", "ten\n").replace("line 11\n", "eleven\n");
    expect(textHunks(before, adjacent)[0].blocks).toHaveLength(1);
  });

  it("shows CRLF lines without their carriage returns, and a missing final newline with diff's marker", () => {
    const before = "a\r\nb\r\nc";
    const after = "a\r\nB\r\nc\r\n";
    const [hunk] = textHunks(before, after);
    const view = unifiedLines(hunk, splitLines(after));
    expect(view.header).toBe("@@ -1,3 +1,3 @@");
    expect(view.lines).toEqual([" a", "-b", "-c", NO_NEWLINE, "+B", "+c"]);
  });

  it("finds a hunk again by the header a page names it by", () => {
    const before = numbered(40);
    const hunks = textHunks(before, before.replace("line 5\n", "five\n").replace("line 30\n", "thirty\n"));
    expect(findHunk(hunks, "@@ -27,7 +27,7 @@")).toBe(hunks[1]);
    expect(findHunk(hunks, "@@ -1,1 +1,1 @@")).toBeUndefined();
  });

  it("an empty side has a zero-length range", () => {
    const [hunk] = textHunks("", "x\ny\n");
    expect(unifiedLines(hunk, ["x\n", "y\n"]).header).toBe("@@ -0,0 +1,2 @@");
  });
});

describe("a file's change", () => {
  it("counts lines added and removed, with the status from which versions exist", () => {
    const added = fileChange(null, "a\nb\n");
    expect([added.kind, added.status, added.added, added.removed]).toEqual(["text", "added", 2, 0]);
    const deleted = fileChange(enc("a\nb\nc\n"), null);
    expect([deleted.kind, deleted.status, deleted.added, deleted.removed]).toEqual(["text", "deleted", 0, 3]);
    expect(fileChange("same\n", enc("same\n")).kind).toBe("unchanged");
  });

  it("says a binary file changed by its size, and a file over the limit changed without a copy", () => {
    const binary = fileChange(new Uint8Array([1, 0, 2]), new Uint8Array([1, 0, 2, 3, 4]));
    expect(changeWithoutHunks(binary)).toBe("binary file changed, 5 bytes");
    const large = fileChange("small\n", { tooLarge: true, size: 25_300_000 });
    expect(changeWithoutHunks(large)).toBe("changed, no copy kept (25.3 MB)");
    expect(changeWithoutHunks(fileChange("a\n", "b\n"))).toBeUndefined();
  });

  it("a line-ending change alone is a change of every line", () => {
    const change = fileChange(numbered(3), numbered(3, "\r\n"));
    expect([change.added, change.removed]).toEqual([3, 3]);
  });
});

describe("summary line", () => {
  it("reads like the tool cards show it", () => {
    expect(changeSummary(countChanges([{ added: 30, removed: 2 }, { added: 10, removed: 10 }, { added: 0, removed: 0 }]))).toBe("3 files changed, +40 \u221212");
    expect(changeSummary({ files: 1, added: 1, removed: 0 })).toBe("1 file changed, +1 \u22120");
    expect(changeSummary({ files: 0, added: 0, removed: 0 })).toBe("no files changed");
  });
});
