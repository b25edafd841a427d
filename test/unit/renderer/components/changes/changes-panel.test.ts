import { describe, expect, it } from "vitest";
import { authorNames, fileFigures, fileRowLabel, sinceKey, sinceOptions } from "../../../../../src/renderer/components/changes/changes-panel";

describe("the Changes panel's words", () => {
  it("offers this turn, the chat's start and each user message, newest first", () => {
    const options = sinceOptions([
      { index: 0, text: "Set up the project" },
      { index: 4, text: "Now   add\ntests for every module in the repository, one file each, please" },
    ]);
    expect(options.map((o) => o.key)).toEqual(["turn", "chat", "message:4", "message:0"]);
    expect(options[2].label).toBe("Since “Now add tests for every module in the repositor…”");
    expect(options[2].since).toEqual({ kind: "message", index: 4 });
    expect(sinceKey({ kind: "message", index: 4 })).toBe("message:4");
  });

  it("a worktree chat's first point is the commit its worktree started from", () => {
    const options = sinceOptions([{ index: 0, text: "Fix the parser" }], { branch: "paddock/fix", base: "89abcdef0123456789abcdef0123456789abcdef" });
    expect(options.map((o) => o.key)).toEqual(["base", "turn", "chat", "message:0"]);
    expect(options[0]).toEqual({ key: "base", label: "Worktree base (89abcde)", since: { kind: "base" } });
  });

  it("opened on a scheduled run's span, offers it first, by its name", () => {
    const options = sinceOptions([{ index: 0, text: "Tidy the notes" }], undefined, { from: "cp:1", to: "cp:9", label: "This scheduled run" });
    expect(options.map((o) => o.key)).toEqual(["range/cp:1/cp:9", "turn", "chat", "message:0"]);
    expect(options[0]).toEqual({ key: "range/cp:1/cp:9", label: "This scheduled run", since: { kind: "range", from: "cp:1", to: "cp:9" } });
  });

  it("reads a file's row out in words", () => {
    const authors = [
      { kind: "tool" as const, id: "c1", name: "edit", label: "edit src/a.ts" },
      { kind: "subagent" as const, id: "c2", name: "reviewer" },
      { kind: "tool" as const, id: "c3", name: "bash" },
    ];
    const file = { path: "src/a.ts", status: "modified" as const, added: 1, removed: 3, authors: [0, 1, 2] };
    expect(fileRowLabel(file, authors)).toBe("src/a.ts, modified, 1 line added, 3 removed, by edit src/a.ts, subagent reviewer and bash");
    expect(fileRowLabel({ path: "b", oldPath: "a", status: "renamed", added: 0, removed: 0, authors: [] }, authors)).toBe("a renamed to b, renamed, 0 lines added, 0 removed");
    expect(fileFigures({ added: 0, removed: 0, binary: { size: 4_100 } })).toBe("binary, 4,100 bytes");
    expect(fileFigures({ added: 0, removed: 0, tooLarge: { size: 25_300_000 } })).toBe("no copy kept (25.3 MB)");
    expect(authorNames([])).toBe("");
  });
});
