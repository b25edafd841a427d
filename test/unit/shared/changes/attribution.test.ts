import { describe, expect, it } from "vitest";
import { attribute } from "../../../../src/shared/changes/attribution";
import { AuthorTable, changedFileOf, conflictOf, fileDiffOf } from "../../../../src/shared/changes/diff-view";

const numbered = (n: number, eol = "\n") => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join("");

describe("attribution", () => {
  it("names the call that made each hunk of the net change", () => {
    const v0 = numbered(40);
    const v1 = v0.replace("line 5\n", "five (edit)\n");
    const v2 = v1.replace("line 30\n", "thirty (bash)\n");
    const { hunks, changedBy } = attribute([{ content: v0 }, { content: v1, by: "edit#1" }, { content: v2, by: "bash#2" }]);
    expect(changedBy).toEqual(["edit#1", "bash#2"]);
    expect(hunks.map((h) => h.authors)).toEqual([["edit#1"], ["bash#2"]]);
  });

  it("gives a line changed twice to the later call, and a hunk both touched to both, in order", () => {
    const v0 = numbered(10);
    const v1 = v0.replace("line 5\n", "five\n");
    const v2 = v1.replace("five\n", "FIVE\n").replace("line 6\n", "SIX\n");
    const v3 = v2.replace("line 4\n", "");
    const { hunks } = attribute([{ content: v0 }, { content: v1, by: "a" }, { content: v2, by: "b" }, { content: v3, by: "c" }]);
    expect(hunks).toHaveLength(1);
    // a's line was rewritten by b, but the start's line 5 was removed by a.
    expect(hunks[0].authors).toEqual(["a", "b", "c"]);
  });

  it("leaves out a call whose change a later call undid", () => {
    const v0 = numbered(30);
    const v1 = v0.replace("line 3\n", "three\n");
    const v2 = v1.replace("three\n", "line 3\n");
    const v3 = v2.replace("line 25\n", "twenty-five\n");
    const { hunks, changedBy } = attribute([{ content: v0 }, { content: v1, by: "a" }, { content: v2, by: "b" }, { content: v3, by: "c" }]);
    expect(hunks.map((h) => h.authors)).toEqual([["c"]]);
    expect(changedBy).toEqual(["a", "b", "c"]);
  });

  it("a file deleted by one call and created again by another shows both", () => {
    const v0 = "keep\nold\n";
    const { hunks, changedBy } = attribute([{ content: v0 }, { content: null, by: "bash rm" }, { content: "keep\nnew\n", by: "write" }]);
    expect(changedBy).toEqual(["bash rm", "write"]);
    expect(hunks).toHaveLength(1);
    expect(hunks[0].authors).toEqual(["bash rm", "write"]);
    // Deleted and written back byte for byte: no net hunk, but both calls touched it.
    const same = attribute([{ content: v0 }, { content: null, by: "rm" }, { content: v0, by: "write" }]);
    expect(same.hunks).toEqual([]);
    expect(same.changedBy).toEqual(["rm", "write"]);
  });

  it("a new file is its writer's; a CRLF file keeps its lines apart", () => {
    const created = attribute([{ content: null }, { content: "a\r\nb\r\n", by: "write" }, { content: "a\r\nb\r\nc", by: "edit" }]);
    expect(created.hunks.map((h) => [h.added, h.removed, h.authors])).toEqual([[3, 0, ["write", "edit"]]]);
  });

  it("binary versions: the file is attributed, not its lines", () => {
    const { hunks, changedBy } = attribute([{ content: "text\n" }, { content: new Uint8Array([0, 1]), by: "bash" }, { content: "text\n", by: "write" }]);
    expect(changedBy).toEqual(["bash", "write"]);
    expect(hunks).toEqual([]);
    const intoBinary = attribute([{ content: "text\n" }, { content: new Uint8Array([0, 1]), by: "bash" }]);
    expect(intoBinary.hunks).toEqual([]);
    expect(intoBinary.changedBy).toEqual(["bash"]);
  });
});

describe("the changes view's data", () => {
  const edit = { kind: "tool" as const, id: "call-1", name: "edit", label: "edit a.txt" };
  const sub = { kind: "subagent" as const, id: "call-2", name: "reviewer" };

  it("a file diff carries unified hunks and its authors once each", () => {
    const v0 = numbered(30);
    const v1 = v0.replace("line 2\n", "two\n");
    const v2 = v1.replace("line 28\n", "twenty-eight\n").replace("two\n", "TWO\n");
    const history = { path: "a.txt", versions: [{ content: v0 }, { content: v1, by: edit }, { content: v2, by: sub }] };
    const diff = fileDiffOf("cp-1", "cp-3", history);
    expect(diff.authors).toEqual([edit, sub]);
    expect(diff.hunks.map((h) => [h.header, h.authors])).toEqual([["@@ -1,5 +1,5 @@", [0, 1]], ["@@ -25,6 +25,6 @@", [1]]]);
    expect(diff.hunks[0].lines).toContain("-line 2");
    expect([diff.status, diff.added, diff.removed]).toEqual(["modified", 2, 2]);
    const table = new AuthorTable();
    table.indexOf(sub);
    expect(changedFileOf(history, table)).toEqual({ path: "a.txt", status: "modified", added: 2, removed: 2, authors: [1, 0] });
    expect(changedFileOf({ path: "b.bin", versions: [{ content: null }, { content: new Uint8Array([0, 7]), by: edit }] }, table)).toMatchObject({ status: "added", binary: { size: 2 } });
  });

  it("a conflict shows what changed outside", () => {
    expect(conflictOf("a.txt", "one\ntwo\n", "one\nmine\n").hunks?.[0].lines).toEqual([" one", "-two", "+mine"]);
    expect(conflictOf("a.bin", "one\n", new Uint8Array([0]))).toEqual({ path: "a.bin" });
  });
});
