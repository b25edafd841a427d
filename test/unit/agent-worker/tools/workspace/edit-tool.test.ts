import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

const put = (content: string | Buffer, name = "f.txt") => writeFileSync(join(ws.root, name), content);
const get = (name = "f.txt") => readFileSync(join(ws.root, name), "utf8");
const edit = (edits: { oldText: string; newText: string }[], path = "f.txt") => ws.result("edit", { path, edits });
const editFailure = (edits: { oldText: string; newText: string }[], path = "f.txt") => ws.failure("edit", { path, edits });

describe("edit", () => {
  it("replaces an exact match and reports pi's text, a numbered diff and a unified patch", async () => {
    put("a\nb\nc\n");
    const result = await edit([{ oldText: "b", newText: "B" }]);
    expect(get()).toBe("a\nB\nc\n");
    expect(result.content).toEqual([{ type: "text", text: "Successfully replaced 1 block(s) in f.txt." }]);
    expect(result.details.diff).toBe(" 1 a\n-2 b\n+2 B\n 3 c");
    expect(result.details.firstChangedLine).toBe(2);
    expect(result.details.patch).toContain("--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
  });

  it("applies several edits, each matched against the original", async () => {
    put("one two three\n");
    await edit([
      { oldText: "three", newText: "3" },
      { oldText: "one", newText: "one two" }, // matched in the original, not after the first edit
    ]);
    expect(get()).toBe("one two two 3\n");
  });

  it("accepts pi's older single-edit form and edits sent as a JSON string", async () => {
    put("x = 1\n");
    expect(await ws.run("edit", { path: "f.txt", oldText: "1", newText: "2" })).toBe("Successfully replaced 1 block(s) in f.txt.");
    await ws.run("edit", { path: "f.txt", edits: JSON.stringify([{ oldText: "2", newText: "3" }]) });
    expect(get()).toBe("x = 3\n");
  });

  it("refuses a missing text, an ambiguous one, an empty one and overlapping edits, in pi's words", async () => {
    put("foo\nfoo\nbar baz\n");
    expect(await editFailure([{ oldText: "nope", newText: "x" }])).toBe(
      "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.",
    );
    expect(await editFailure([{ oldText: "foo", newText: "x" }])).toBe(
      "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
    );
    expect(await editFailure([{ oldText: "", newText: "x" }])).toBe("oldText must not be empty in f.txt.");
    expect(
      await editFailure([
        { oldText: "bar baz", newText: "x" },
        { oldText: "baz", newText: "y" },
      ]),
    ).toBe("edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions.");
    expect(await editFailure([{ oldText: "bar", newText: "x" }, { oldText: "nope", newText: "y" }])).toBe(
      "Could not find edits[1] in f.txt. The oldText must match exactly including all whitespace and newlines.",
    );
    expect(get()).toBe("foo\nfoo\nbar baz\n");
  });

  it("refuses a no-op and an empty edit list", async () => {
    put("same\n");
    expect(await editFailure([{ oldText: "same", newText: "same" }])).toMatch(/^No changes made to f\.txt\. The replacement produced identical content\./);
    expect(await ws.failure("edit", { path: "f.txt", edits: [] })).toBe("Edit tool input is invalid. edits must contain at least one replacement.");
  });

  it("keeps CRLF line endings, and new text takes them", async () => {
    put("first\r\nsecond\r\nthird\r\n");
    await edit([{ oldText: "second\nthird", newText: "2nd\nthird line" }]);
    expect(get()).toBe("first\r\n2nd\r\nthird line\r\n");
  });

  it("keeps lone CR line endings (classic Mac) without mixing in LF, as pi 1.6.0", async () => {
    put("first\rsecond\rthird\r");
    await edit([{ oldText: "second\rthird", newText: "2nd\nline two\nthird" }]);
    expect(get()).toBe("first\r2nd\rline two\rthird\r");
  });

  it("gives new text the line ending where it goes, and never merges a kept CR with a new line break", async () => {
    put("crlf\r\nplain\nend\n");
    await edit([{ oldText: "crlf", newText: "a\nb" }, { oldText: "plain", newText: "c\nd" }]);
    expect(get()).toBe("a\r\nb\r\nc\nd\nend\n");
    put("one\rtwo\rthree");
    await edit([{ oldText: "two", newText: "\n2" }]);
    // The kept CR and the new text's first line break stay two line breaks: CR, then CR as the file has them.
    expect(get()).toBe("one\r\r2\rthree");
  });

  it("keeps a BOM", async () => {
    put("\uFEFFname = 1\n");
    await edit([{ oldText: "name = 1", newText: "name = 2" }]);
    expect(readFileSync(join(ws.root, "f.txt"))).toEqual(Buffer.from("\uFEFFname = 2\n"));
  });

  it("matches after normalising quotes, dashes, spaces and trailing blanks, and changes only the matched range", async () => {
    // Elsewhere in the file: typographic quotes, a non-breaking space, trailing blanks. pi would rewrite all of it.
    const elsewhere = "title: \u201CSmart\u201D \u2014 quotes\u00A0here   \n";
    put(`${elsewhere}say(\u2018hi\u2019)  \nend\n`);
    await edit([{ oldText: "say('hi')\nend", newText: "say('bye')\nend" }]);
    expect(get()).toBe(`${elsewhere}say('bye')\nend\n`);
  });

  it("maps a normalised match back through NFKC changes", async () => {
    put("keep \uFB01 ligature\nuse \uFB01le\n"); // "ﬁ" is NFKC "fi"
    await edit([{ oldText: "use file", newText: "use path" }]);
    expect(get()).toBe("keep \uFB01 ligature\nuse path\n");
  });

  it("refuses text that is not valid UTF-8 rather than mangling it", async () => {
    put(Buffer.from([0x61, 0x62, 0xff, 0x0a]));
    expect(await editFailure([{ oldText: "ab", newText: "x" }])).toMatch(/not valid UTF-8/);
  });

  it("refuses a file outside the workspace, and says when a file is missing", async () => {
    writeFileSync(join(ws.outside, "s.txt"), "secret");
    symlinkSync(join(ws.outside, "s.txt"), join(ws.root, "link.txt"));
    expect(await editFailure([{ oldText: "secret", newText: "x" }], "link.txt")).toMatch(/^Refused/);
    expect(await editFailure([{ oldText: "secret", newText: "x" }], "../outside/s.txt")).toMatch(/^Refused/);
    expect(readFileSync(join(ws.outside, "s.txt"), "utf8")).toBe("secret");
    expect(await editFailure([{ oldText: "a", newText: "b" }], "missing.txt")).toBe("Could not edit file: missing.txt. Error code: ENOENT.");
  });

  it("runs parallel edits of one file one after another", async () => {
    put("a\nb\n");
    await Promise.all([edit([{ oldText: "a", newText: "A" }]), edit([{ oldText: "b", newText: "B" }])]);
    expect(get()).toBe("A\nB\n");
  });
});
