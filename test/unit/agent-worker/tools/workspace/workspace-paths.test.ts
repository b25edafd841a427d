import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceEscapeError, WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace/workspace-paths";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
let paths: WorkspacePaths;
beforeEach(() => {
  ws = createWorkspace();
  paths = new WorkspacePaths(ws.root);
  writeFileSync(join(ws.outside, "secret.txt"), "secret\n");
  writeFileSync(join(ws.root, "inside.txt"), "inside\n");
});
afterEach(() => ws.remove());

async function refusal(path: string): Promise<string> {
  const error = await paths.resolve(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceEscapeError);
  return (error as Error).message;
}

describe("WorkspacePaths", () => {
  it("resolves relative and absolute paths inside the workspace, existing or not", async () => {
    expect(await paths.resolve("inside.txt")).toBe(join(ws.root, "inside.txt"));
    expect(await paths.resolve(join(ws.root, "inside.txt"))).toBe(join(ws.root, "inside.txt"));
    expect(await paths.resolve("new/deeper/file.txt")).toBe(join(ws.root, "new/deeper/file.txt"));
    expect(await paths.resolve(".")).toBe(ws.root);
    expect(await paths.resolve("a/../inside.txt")).toBe(join(ws.root, "inside.txt"));
  });

  it("refuses .. that leaves the workspace", async () => {
    expect(await refusal("../outside/secret.txt")).toMatch(/outside the workspace/);
    expect(await refusal("sub/../../outside")).toMatch(/outside the workspace/);
  });

  it("refuses absolute paths outside the workspace", async () => {
    expect(await refusal(join(ws.outside, "secret.txt"))).toMatch(/resolves to .*outside the workspace/);
    expect(await refusal("/etc/passwd")).toMatch(/outside the workspace/);
  });

  it("refuses ~, saying it is the home folder", async () => {
    expect(await refusal("~")).toMatch(/home folder/);
    expect(await refusal("~/.ssh/id_rsa")).toMatch(/home folder/);
    expect(homedir()).not.toBe(ws.root);
  });

  it("refuses a symlinked file that leads out", async () => {
    symlinkSync(join(ws.outside, "secret.txt"), join(ws.root, "link.txt"));
    expect(await refusal("link.txt")).toMatch(/symbolic link to .*secret\.txt, outside the workspace/);
  });

  it("refuses a symlinked folder that leads out, and anything below it", async () => {
    symlinkSync(ws.outside, join(ws.root, "out"));
    expect(await refusal("out")).toMatch(/symbolic link/);
    expect(await refusal("out/secret.txt")).toMatch(/symbolic link/);
    expect(await refusal("out/not-yet/new.txt")).toMatch(/symbolic link/);
  });

  it("refuses a dangling symlink whose target would be created outside", async () => {
    symlinkSync(join(ws.outside, "planted.txt"), join(ws.root, "dangling.txt"));
    expect(await refusal("dangling.txt")).toMatch(/symbolic link to .*planted\.txt/);
  });

  it("follows symlinks that stay inside, to their real path", async () => {
    mkdirSync(join(ws.root, "real"));
    writeFileSync(join(ws.root, "real", "a.txt"), "a");
    symlinkSync(join(ws.root, "real"), join(ws.root, "alias"));
    expect(await paths.resolve("alias/a.txt")).toBe(join(ws.root, "real", "a.txt"));
  });

  it("accepts the workspace spelled through a symlink", async () => {
    symlinkSync(ws.root, join(ws.base, "spelled"));
    const spelled = new WorkspacePaths(join(ws.base, "spelled"));
    expect(await spelled.resolve(join(ws.base, "spelled", "inside.txt"))).toBe(join(ws.root, "inside.txt"));
    expect(spelled.root).toBe(ws.root);
  });
});
