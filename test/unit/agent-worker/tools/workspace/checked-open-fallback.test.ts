import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

/**
 * checked-open.ts where there is no `/proc/self/fd` (macOS): opened files and folders are verified by resolving their
 * path again and comparing device and inode. Here /proc is hidden from it, so Linux runs that branch too.
 */
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const readlink = ((path: string, ...rest: unknown[]) =>
    String(path).startsWith("/proc/self")
      ? Promise.reject(Object.assign(new Error(`ENOENT: no such file or directory, readlink '${path}'`), { code: "ENOENT" }))
      : (fs.readlink as (...args: unknown[]) => Promise<string>)(path, ...rest)) as typeof fs.readlink;
  return { ...fs, readlink, default: { ...fs, readlink } };
});

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

describe("the file tools without /proc/self/fd", () => {
  it("read, write, edit, ls, grep and find work as usual", async () => {
    expect(await ws.run("write", { path: "a/b.txt", content: "needle one\n" })).toBe("Successfully wrote 11 bytes to a/b.txt");
    await ws.run("edit", { path: "a/b.txt", edits: [{ oldText: "one", newText: "two" }] });
    expect(await ws.run("read", { path: "a/b.txt" })).toBe("needle two\n");
    expect(await ws.run("ls", { path: "a" })).toBe("b.txt");
    expect(await ws.run("grep", { pattern: "needle" })).toBe("a/b.txt:1: needle two");
    expect(await ws.run("grep", { pattern: "needle", path: "a/b.txt" })).toBe("b.txt:1: needle two");
    expect(await ws.run("find", { pattern: "*.txt" })).toBe("a/b.txt");
  });

  it("still refuses FIFOs and hard-linked files", async () => {
    execFileSync("mkfifo", [join(ws.root, "pipe")]);
    expect(await ws.failure("read", { path: "pipe" })).toMatch(/is a FIFO/);
    writeFileSync(join(ws.outside, "store.js"), "1\n");
    mkdirSync(join(ws.root, "m"));
    linkSync(join(ws.outside, "store.js"), join(ws.root, "m/index.js"));
    expect(await ws.failure("write", { path: "m/index.js", content: "2\n" })).toMatch(/2 hard links/);
    expect(readFileSync(join(ws.outside, "store.js"), "utf8")).toBe("1\n");
  });
});
