import { describe, expect, it } from "vitest";
import { Value } from "typebox/value";
import { SESSION_METHOD_SCHEMAS, isSessionMethod as isChangesMethod } from "../../../../src/shared/protocol/session-protocol";

const admits = (method: keyof typeof SESSION_METHOD_SCHEMAS, args: unknown[]) => Value.Check(SESSION_METHOD_SCHEMAS[method], args);

describe("the changes view's commands", () => {
  it("admits the calls the page makes", () => {
    expect(admits("listChanges", [{ kind: "chat" }])).toBe(true);
    expect(admits("listChanges", [{ kind: "message", index: 4 }])).toBe(true);
    expect(admits("listChanges", [{ kind: "range", from: "run:cp-1", to: "tool:cp-9" }])).toBe(true);
    expect(admits("fileDiff", ["cp-1", "cp-9", "src/app.ts"])).toBe(true);
    expect(admits("revertTurn", ["cp-1", "cp-9"])).toBe(true);
    expect(admits("revertFile", ["cp-1", "cp-9", "a.txt", "keep-mine"])).toBe(true);
    expect(admits("revertHunk", ["cp-1", "cp-9", "a.txt", "@@ -1,3 +1,4 @@", "overwrite"])).toBe(true);
    expect(admits("rewind", [3, "both"])).toBe(true);
    expect(admits("redo", ["act-2"])).toBe(true);
  });

  it("refuses malformed ones", () => {
    expect(admits("listChanges", [{ kind: "message" }])).toBe(false);
    expect(admits("listChanges", [{ kind: "chat", extra: 1 }])).toBe(false);
    expect(admits("listChanges", [{ kind: "range", from: "cp-1" }])).toBe(false);
    expect(admits("listChanges", [{ kind: "range", from: "cp/../1", to: "cp-9" }])).toBe(false);
    expect(admits("fileDiff", ["cp 1/../x", "cp-9", "a"])).toBe(false);
    expect(admits("fileDiff", ["cp-1", "cp-9", ""])).toBe(false);
    expect(admits("revertFile", ["cp-1", "cp-9", "a.txt", "yes"])).toBe(false);
    expect(admits("rewind", [-1, "files"])).toBe(false);
    expect(admits("rewind", [1, "everything"])).toBe(false);
    expect(isChangesMethod("redo")).toBe(true);
    expect(isChangesMethod("toString")).toBe(false);
  });
});
