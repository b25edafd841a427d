import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { previewChange, WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
let paths: WorkspacePaths;
beforeEach(() => {
  ws = createWorkspace();
  paths = new WorkspacePaths(ws.root);
  writeFileSync(join(ws.root, "a.txt"), "\uFEFFone\r\ntwo\r\nthree\r\n");
});
afterEach(() => ws.remove());

describe("the diff an approval question shows", () => {
  it("is the edit's change as a unified diff, matched as the tool matches, and nothing is written", async () => {
    const diff = await previewChange(paths, "edit", { path: "a.txt", edits: [{ oldText: "two", newText: "2" }] });
    expect(diff).toContain("--- a/a.txt\n+++ b/a.txt");
    expect(diff).toMatch(/^-two$/m);
    expect(diff).toMatch(/^\+2$/m);
    expect(diff).not.toContain("\r");
    expect(readFileSync(join(ws.root, "a.txt"), "utf8")).toBe("\uFEFFone\r\ntwo\r\nthree\r\n");
  });

  it("accepts pi's older single-edit form", async () => {
    expect(await previewChange(paths, "edit", { path: "a.txt", oldText: "one", newText: "1" })).toMatch(/^\+1$/m);
  });

  it("shows a write to a new file as all added, and to an existing one as the change", async () => {
    expect(await previewChange(paths, "write", { path: "new/b.txt", content: "x\ny\n" })).toMatch(/^\+x\n\+y$/m);
    const rewrite = await previewChange(paths, "write", { path: "a.txt", content: "one\ntwo\n" });
    expect(rewrite).toMatch(/^-three$/m);
    expect(rewrite).not.toMatch(/^-one$/m);
  });

  it("is absent for calls that would fail (no match, outside the workspace) and for other tools", async () => {
    expect(await previewChange(paths, "edit", { path: "a.txt", edits: [{ oldText: "nope", newText: "x" }] })).toBeUndefined();
    expect(await previewChange(paths, "write", { path: join(ws.outside, "x"), content: "x" })).toBeUndefined();
    expect(await previewChange(paths, "bash", { command: "ls" })).toBeUndefined();
    expect(await previewChange(paths, "edit", null)).toBeUndefined();
  });
});
