import { describe, expect, it } from "vitest";
import { attribute } from "../../../../src/shared/changes/attribution";
import { textHunks } from "../../../../src/shared/changes/hunks";
import { planRevert, revertFile, revertHunk } from "../../../../src/shared/changes/revert";

const numbered = (n: number, eol = "\n") => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join("");
const enc = (s: string) => new TextEncoder().encode(s);

describe("reverting a hunk", () => {
  const start = numbered(40);
  const agent = start.replace("line 5\n", "five\n").replace("line 30\n", "thirty\n");
  const [first, second] = textHunks(start, agent);

  it("takes back one hunk and leaves the others", () => {
    expect(revertHunk(agent, agent, first)).toEqual({ kind: "ok", text: start.replace("line 30\n", "thirty\n") });
    expect(revertHunk(agent, agent, second)).toEqual({ kind: "ok", text: start.replace("line 5\n", "five\n") });
  });

  it("keeps changes made outside elsewhere in the file, before and after the hunk", () => {
    const disk = agent.replace("line 1\n", "inserted\nline 1\n").replace("line 20\n", "").replace("line 40\n", "forty\n");
    const result = revertHunk(agent, disk, second);
    expect(result).toEqual({ kind: "ok", text: disk.replace("thirty\n", "line 30\n") });
  });

  it("is a conflict when the hunk's lines changed outside, and overwrite takes it back from the agent's version", () => {
    const disk = agent.replace("five\n", "five, edited by the user\n");
    const result = revertHunk(agent, disk, first);
    expect(result.kind).toBe("conflict");
    if (result.kind !== "conflict") return;
    expect(result.outside).toHaveLength(1);
    expect(result.outside[0].blocks[0].newLines).toEqual(["five, edited by the user\n"]);
    // The other hunk is untouched by the user's edit.
    expect(revertHunk(agent, disk, second)).toEqual({ kind: "ok", text: disk.replace("thirty\n", "line 30\n") });
    expect(revertHunk(agent, disk, first, { overwrite: true })).toEqual({ kind: "ok", text: start.replace("line 30\n", "thirty\n") });
  });

  it("a hunk that only removed lines conflicts with a change where they go back", () => {
    const removedStart = numbered(10);
    const removed = removedStart.replace("line 5\n", "");
    const [hunk] = textHunks(removedStart, removed);
    expect(revertHunk(removed, removed, hunk)).toEqual({ kind: "ok", text: removedStart });
    expect(revertHunk(removed, removed.replace("line 4\n", "four\n"), hunk).kind).toBe("conflict");
    expect(revertHunk(removed, removed.replace("line 6\n", "line 5½\nline 6\n"), hunk).kind).toBe("conflict");
    expect(revertHunk(removed, removed.replace("line 9\n", "nine\n"), hunk)).toEqual({ kind: "ok", text: removedStart.replace("line 9\n", "nine\n") });
  });

  it("hunks next to each other revert apart", () => {
    const s = numbered(30);
    const a = s.replace("line 10\n", "ten\n").replace("line 17\n", "seventeen\n").replace("line 25\n", "twenty-five\n");
    const hunks = textHunks(s, a);
    expect(hunks).toHaveLength(2);
    // The first hunk holds both near changes; reverting it leaves the far one.
    expect(revertHunk(a, a, hunks[0])).toEqual({ kind: "ok", text: s.replace("line 25\n", "twenty-five\n") });
    const back = revertHunk(a, a, hunks[1]);
    expect(back.kind === "ok" && back.text).toBe(s.replace("line 10\n", "ten\n").replace("line 17\n", "seventeen\n"));
  });

  it("keeps CRLF endings and a missing final newline byte for byte", () => {
    const s = "one\r\ntwo\r\nthree";
    const a = "one\r\nTWO\r\nthree\r\n";
    for (const hunk of textHunks(s, a)) expect(revertHunk(a, enc(a), hunk)).toEqual({ kind: "ok", text: s });
  });

  it("a file deleted by one call and created again by another: each net hunk goes back", () => {
    const v0 = numbered(20);
    const v2 = v0.replace("line 2\n", "two\n").replace("line 18\n", "eighteen\n");
    const { hunks } = attribute([{ content: v0 }, { content: null, by: "rm" }, { content: v2, by: "write" }]);
    expect(hunks.map((h) => h.authors)).toEqual([["rm", "write"], ["rm", "write"]]);
    const once = revertHunk(v2, v2, hunks[1]);
    expect(once).toEqual({ kind: "ok", text: v0.replace("line 2\n", "two\n") });
    if (once.kind === "ok") expect(revertHunk(v2, once.text, hunks[0])).toEqual({ kind: "ok", text: v0 });
  });

  it("a file deleted outside, or binary now, conflicts", () => {
    expect(revertHunk(agent, null, first).kind).toBe("conflict");
    expect(revertHunk(agent, new Uint8Array([0, 1]), first).kind).toBe("conflict");
  });
});

describe("reverting files", () => {
  it("puts the start version back, deletes a created file, and says when there is no copy", () => {
    expect(revertFile("a\n", "b\n", "b\n")).toEqual({ kind: "write", content: "a\n" });
    expect(revertFile(null, "new\n", enc("new\n"))).toEqual({ kind: "delete" });
    expect(revertFile("a\n", null, null)).toEqual({ kind: "write", content: "a\n" });
    expect(revertFile({ tooLarge: true, size: 9 }, "b\n", "b\n")).toEqual({ kind: "no-copy", size: 9 });
    expect(revertFile("a\n", "b\n", "a\n")).toEqual({ kind: "unchanged" });
  });

  it("never overwrites a file changed outside unless told to", () => {
    expect(revertFile("a\n", "b\n", "b and mine\n")).toEqual({ kind: "conflict" });
    expect(revertFile(null, "new\n", null)).toEqual({ kind: "unchanged" });
    expect(revertFile("a\n", null, "recreated by the user\n")).toEqual({ kind: "conflict" });
    expect(revertFile("a\n", "b\n", "b and mine\n", { overwrite: true })).toEqual({ kind: "write", content: "a\n" });
  });

  it("a rename goes back as its two paths: the old one written, the new one deleted", () => {
    const plan = planRevert([
      { path: "old.txt", start: "x\n", agent: null, disk: null },
      { path: "new.txt", start: null, agent: "x\n", disk: "x\n" },
    ]);
    expect(plan).toEqual({ writes: [{ path: "old.txt", content: "x\n" }], deletes: ["new.txt"], conflicts: [], kept: [], noCopy: [] });
  });

  it("a turn's revert is all or nothing until the user answers a conflict", () => {
    const files = [
      { path: "a.txt", start: "a\n", agent: "A\n", disk: "A\n" },
      { path: "b.txt", start: null, agent: "b\n", disk: "b\n" },
      { path: "c.txt", start: "c\n", agent: "C\n", disk: "C, mine\n" },
    ];
    expect(planRevert(files)).toEqual({ writes: [], deletes: [], conflicts: ["c.txt"], kept: [], noCopy: [] });
    expect(planRevert(files, "keep-mine")).toEqual({ writes: [{ path: "a.txt", content: "a\n" }], deletes: ["b.txt"], conflicts: [], kept: ["c.txt"], noCopy: [] });
    expect(planRevert(files, "overwrite").writes.map((w) => w.path)).toEqual(["a.txt", "c.txt"]);
  });
});
