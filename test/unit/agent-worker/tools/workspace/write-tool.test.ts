import { existsSync, readFileSync, statSync, symlinkSync, chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

describe("write", () => {
  it("creates the file and its parent folders, and reports the real UTF-8 bytes written (pi 0.73.1 counted UTF-16 units)", async () => {
    expect(await ws.run("write", { path: "a/b/c.txt", content: "héllo\n" })).toBe("Successfully wrote 7 bytes to a/b/c.txt");
    expect(readFileSync(join(ws.root, "a/b/c.txt"), "utf8")).toBe("héllo\n");
  });

  it("keeps the diff it made in its details for the card (edit's `patch`), the model's text unchanged", async () => {
    const created = await ws.result("write", { path: "notes.md", content: "one\ntwo\n" });
    expect(created.content).toEqual([{ type: "text", text: "Successfully wrote 8 bytes to notes.md" }]);
    expect(created.details.patch).toMatch(/\+one\n\+two\n$/);
    const replaced = await ws.result("write", { path: "notes.md", content: "one\nthree\n" });
    expect(replaced.details.patch).toContain("-two\n+three\n");
    expect(replaced.details.patch).not.toContain("+one");
  });

  it("overwrites in place, keeping the file's mode", async () => {
    writeFileSync(join(ws.root, "run.sh"), "old");
    chmodSync(join(ws.root, "run.sh"), 0o755);
    await ws.run("write", { path: join(ws.root, "run.sh"), content: "#!/bin/sh\n" });
    expect(readFileSync(join(ws.root, "run.sh"), "utf8")).toBe("#!/bin/sh\n");
    expect(statSync(join(ws.root, "run.sh")).mode & 0o777).toBe(0o755);
  });

  it("refuses to write outside: .., absolute, ~, a symlinked file or folder leading out", async () => {
    symlinkSync(join(ws.outside, "target.txt"), join(ws.root, "file-link"));
    symlinkSync(ws.outside, join(ws.root, "dir-link"));
    for (const path of ["../outside/x.txt", join(ws.outside, "x.txt"), "~/x.txt", "file-link", "dir-link/x.txt", "dir-link/new/x.txt"]) {
      expect(await ws.failure("write", { path, content: "pwned" })).toMatch(/^Refused/);
    }
    expect(existsSync(join(ws.outside, "x.txt"))).toBe(false);
    expect(existsSync(join(ws.outside, "target.txt"))).toBe(false);
    expect(existsSync(join(ws.outside, "new"))).toBe(false);
  });
});
