/**
 * A workspace folder swapped for a symlink (to `/`, or anywhere else) by a command running beside the agent: the
 * tools keep the real root they were made with, so nothing leads through the link; and WorkspacePaths made for the
 * folder main checked (a subagent's, with its identity) refuses a folder that is no longer that one.
 */
import { mkdirSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceEscapeError, WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace/workspace-paths";
import { folderIdentity } from "../../../../../src/shared-node/folder-identity";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
  writeFileSync(join(ws.root, "inside.txt"), "inside\n");
  writeFileSync(join(ws.outside, "secret.txt"), "OUTSIDE-SECRET\n");
});
afterEach(() => ws.remove());

/** What a parallel command can do in a parent's workspace to a subagent's folder inside it. */
function swapRootForLink(): void {
  renameSync(ws.root, `${ws.root}-was`);
  symlinkSync(ws.outside, ws.root);
}

describe("a workspace root swapped for a link after the tools were made", () => {
  it("leads nowhere: the file tools refuse every path through it, and bash refuses to run there", async () => {
    expect(await ws.run("read", { path: "inside.txt" })).toContain("inside");
    swapRootForLink();
    expect(await ws.failure("read", { path: "secret.txt" })).toMatch(/outside the workspace/);
    expect(await ws.failure("ls", { path: "." })).toMatch(/outside the workspace/);
    expect(await ws.failure("write", { path: "planted.txt", content: "x" })).toMatch(/outside the workspace/);
    expect(await ws.failure("bash", { command: "cat secret.txt; touch planted.txt" })).toBe(
      `The workspace ${ws.root} now leads to ${ws.outside} (it was replaced by a link).\nCannot execute bash commands.`,
    );
    expect(statSync(join(ws.outside, "secret.txt")).size).toBe(15);
    expect(() => statSync(join(ws.outside, "planted.txt"))).toThrow();
  });
});

describe("WorkspacePaths with the identity main checked", () => {
  it("accepts the folder itself, and refuses it once it is a link or another folder", () => {
    const identity = folderIdentity(statSync(ws.root, { bigint: true }));
    expect(new WorkspacePaths(ws.root, [], undefined, identity).root).toBe(ws.root);

    swapRootForLink();
    expect(() => new WorkspacePaths(ws.root, [], undefined, identity)).toThrow(WorkspaceEscapeError);
    expect(() => new WorkspacePaths(ws.root, [], undefined, identity)).toThrow(`${ws.root} now leads to ${ws.outside}`);

    const replaced = join(ws.base, "replaced");
    mkdirSync(replaced);
    const before = folderIdentity(statSync(replaced, { bigint: true }));
    renameSync(replaced, `${replaced}-was`);
    mkdirSync(replaced);
    expect(() => new WorkspacePaths(replaced, [], undefined, before)).toThrow(`${replaced} is no longer the folder it was (it was replaced)`);
  });
});
