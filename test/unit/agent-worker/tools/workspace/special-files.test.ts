import { execFileSync } from "node:child_process";
import { closeSync, constants, linkSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { previewChange, WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

/**
 * Issue 21, item 10: pnpm and bun install packages as hard links into a global store, so writing
 * `node_modules/x/index.js` in place changed the store's copy, and every other project using it. The sandbox cannot
 * stop a command doing that (the link is inside the workspace); the tools refuse.
 */
describe("a file with more than one hard link", () => {
  const store = () => join(ws.outside, "store-index.js");
  const linked = () => join(ws.root, "node_modules/x/index.js");
  beforeEach(() => {
    writeFileSync(store(), "module.exports = 1;\n");
    mkdirSync(join(ws.root, "node_modules/x"), { recursive: true });
    linkSync(store(), linked());
  });

  it("is not written by write or edit, and the other copy stays as it was", async () => {
    const refusal = await ws.failure("write", { path: "node_modules/x/index.js", content: "pwned();\n" });
    expect(refusal).toMatch(/^Refused "node_modules\/x\/index.js": it has 2 hard links; writing it would change the other copies too \(a package store\?\)\. Copy it first/);
    expect(await ws.failure("edit", { path: "node_modules/x/index.js", edits: [{ oldText: "1", newText: "pwned()" }] })).toMatch(/it has 2 hard links/);
    expect(readFileSync(store(), "utf8")).toBe("module.exports = 1;\n");
    expect(statSync(store()).nlink).toBe(2);
  });

  it("can be changed once the copy in the workspace is its own (as the refusal suggests)", async () => {
    await ws.run("bash", { command: `cp "node_modules/x/index.js" "node_modules/x/index.js.copy" && mv "node_modules/x/index.js.copy" "node_modules/x/index.js"` });
    await ws.run("edit", { path: "node_modules/x/index.js", edits: [{ oldText: "1", newText: "2" }] });
    expect(readFileSync(linked(), "utf8")).toBe("module.exports = 2;\n");
    expect(readFileSync(store(), "utf8")).toBe("module.exports = 1;\n");
  });
});

/**
 * Issue 21, item 11: a FIFO opened blocking parks one of libuv's four file threads until someone writes to it; four
 * of them hang every file operation of the worker. The tools open nothing blocking and only read regular files.
 */
describe("a FIFO in the workspace", () => {
  const fifo = () => join(ws.root, "pipe");
  beforeEach(() => {
    execFileSync("mkfifo", [fifo()]);
    writeFileSync(join(ws.root, "a.txt"), "needle\n");
  });
  // Had a tool opened it blocking, opening the other end lets it go (so a failing test does not hang the run).
  afterEach(() => {
    try {
      closeSync(openSync(fifo(), constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody was waiting on it
    }
  });

  /** The call's error message, or a failure when it takes longer than a second (it would hang). */
  const promptFailure = (name: string, params: Record<string, unknown>) =>
    Promise.race([ws.failure(name, params), new Promise<string>((resolve) => setTimeout(() => resolve(`${name} hung on the FIFO`), 1_000))]);

  it("is refused by read at once, saying what it is", async () => {
    expect(await promptFailure("read", { path: "pipe" })).toBe("pipe is a FIFO (named pipe): the file tools only read and write regular files.");
  });

  it("is refused by grep when named, and skipped when grep or find walk past it; ls lists it", async () => {
    expect(await promptFailure("grep", { pattern: "x", path: "pipe" })).toMatch(/is a FIFO/);
    expect(await ws.run("grep", { pattern: "needle" })).toBe("a.txt:1: needle");
    expect(await ws.run("find", { pattern: "*.txt" })).toBe("a.txt");
    expect(await ws.run("ls", {})).toBe("a.txt\npipe");
  });

  it("is refused by write and edit, and by the approval card's preview", async () => {
    expect(await promptFailure("write", { path: "pipe", content: "x" })).toMatch(/is a FIFO/);
    expect(await promptFailure("edit", { path: "pipe", edits: [{ oldText: "a", newText: "b" }] })).toMatch(/is a FIFO/);
    const paths = new WorkspacePaths(ws.root);
    const preview = previewChange(paths, "write", { path: "pipe", content: "x" });
    expect(await Promise.race([preview, new Promise((resolve) => setTimeout(() => resolve("hung"), 1_000))])).toBeUndefined();
  });
});
