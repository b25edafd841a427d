import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

function put(path: string, content = "") {
  mkdirSync(dirname(join(ws.root, path)), { recursive: true });
  writeFileSync(join(ws.root, path), content);
}

/** A tree with a .gitignore, a dotfile, a .git folder and a nested source file. */
function ignoreFixture() {
  put(".gitignore", "build/\n*.log\n");
  put("src/app.ts", "const needle = 1;\n");
  put("src/deep/app.spec.ts", "test(needle)\n");
  put("build/out.ts", "needle in build\n");
  put("debug.log", "needle in log\n");
  put(".hidden.ts", "needle hidden\n");
  put(".git/config", "needle in git\n");
}

describe("ls", () => {
  it("lists entries case-insensitively, folders with '/', dotfiles included", async () => {
    put("b.txt");
    put("A.txt");
    put(".env");
    mkdirSync(join(ws.root, "dir"));
    expect(await ws.run("ls", {})).toBe(".env\nA.txt\nb.txt\ndir/");
  });

  it("stops at the entry limit with pi's notice", async () => {
    for (let i = 0; i < 7; i++) put(`f${i}`);
    expect(await ws.run("ls", { limit: 5 })).toBe("f0\nf1\nf2\nf3\nf4\n\n[5 entries limit reached. Use limit=10 for more]");
    expect(await ws.run("ls", {})).not.toContain("limit");
  });

  it("says empty, missing and not-a-folder, and refuses folders outside", async () => {
    mkdirSync(join(ws.root, "empty"));
    put("file.txt");
    expect(await ws.run("ls", { path: "empty" })).toBe("(empty directory)");
    expect(await ws.failure("ls", { path: "nope" })).toBe(`Path not found: ${join(ws.root, "nope")}`);
    expect(await ws.failure("ls", { path: "file.txt" })).toBe(`Not a directory: ${join(ws.root, "file.txt")}`);
    symlinkSync(ws.outside, join(ws.root, "out"));
    for (const path of ["..", ws.outside, "~", "out"]) expect(await ws.failure("ls", { path })).toMatch(/^Refused/);
  });
});

describe("find", () => {
  it("lists folders too, with a trailing slash, as pi's fd does", async () => {
    mkdirSync(join(ws.root, "src/deep/src"), { recursive: true });
    writeFileSync(join(ws.root, "src/deep/src/a.ts"), "");
    writeFileSync(join(ws.root, "src/b.ts"), "");
    writeFileSync(join(ws.root, "README.md"), "");
    expect(await ws.run("find", { pattern: "src" })).toBe("src/\nsrc/deep/src/");
    expect(await ws.run("find", { pattern: "*" })).toBe("README.md\nsrc/\nsrc/b.ts\nsrc/deep/\nsrc/deep/src/\nsrc/deep/src/a.ts");
    expect(await ws.run("find", { pattern: "src/**" })).toBe("src/b.ts\nsrc/deep/\nsrc/deep/src/\nsrc/deep/src/a.ts");
    expect(await ws.run("find", { pattern: "*.ts" })).toBe("src/b.ts\nsrc/deep/src/a.ts");
  });

  it("matches names at any depth and paths anchored at the search folder, respecting .gitignore without a git repository", async () => {
    ignoreFixture();
    expect(await ws.run("find", { pattern: "*.ts" })).toBe(".hidden.ts\nsrc/app.ts\nsrc/deep/app.spec.ts");
    expect(await ws.run("find", { pattern: "**/*.ts" })).toBe(".hidden.ts\nsrc/app.ts\nsrc/deep/app.spec.ts");
    // As pi 1.6.0 (its #12066): a relative path pattern starts at the search folder, as grep's glob does.
    expect(await ws.run("find", { pattern: "deep/*.ts" })).toBe("No files found matching pattern");
    expect(await ws.run("find", { pattern: "**/deep/*.ts" })).toBe("src/deep/app.spec.ts");
    expect(await ws.run("find", { pattern: "src/*.ts" })).toBe("src/app.ts");
    expect(await ws.run("find", { pattern: "./src/*.ts" })).toBe("src/app.ts");
    expect(await ws.run("find", { pattern: "deep/*.ts", path: "src" })).toBe("deep/app.spec.ts");
    expect(await ws.run("find", { pattern: "*.ts", path: "src" })).toBe("app.ts\ndeep/app.spec.ts");
    expect(await ws.run("find", { pattern: "*.log" })).toBe("No files found matching pattern");
    expect(await ws.run("find", { pattern: "build/*.ts" })).toBe("No files found matching pattern");
    expect(await ws.run("find", { pattern: "*.{log,gitignore}" })).toBe(".gitignore");
    // An absolute pattern is matched against absolute paths.
    expect(await ws.run("find", { pattern: `${ws.root}/src/*.ts` })).toBe("src/app.ts");
    expect(await ws.run("find", { pattern: "/src/*.ts" })).toBe("No files found matching pattern");
  });

  it("matches an all-lowercase pattern regardless of case, as fd's smart case; one with capitals exactly", async () => {
    put("Docs/README.MD");
    put("docs/notes.md");
    expect(await ws.run("find", { pattern: "*.md" })).toBe("Docs/README.MD\ndocs/notes.md");
    expect(await ws.run("find", { pattern: "*.MD" })).toBe("Docs/README.MD");
    expect(await ws.run("find", { pattern: "docs/*" })).toBe("Docs/README.MD\ndocs/notes.md");
    expect(await ws.run("find", { pattern: "Docs/*" })).toBe("Docs/README.MD");
  });

  it("takes a limit below 1 as 1, and says the limit was reached only when more were found", async () => {
    put("a.md");
    put("b.md");
    expect(await ws.run("find", { pattern: "*.md", limit: 0 })).toBe("a.md\n\n[1 results limit reached. Use limit=2 for more, or refine pattern]");
    expect(await ws.run("find", { pattern: "*.md", limit: -2 })).toBe("a.md\n\n[1 results limit reached. Use limit=2 for more, or refine pattern]");
    expect(await ws.run("find", { pattern: "*.md", limit: 2 })).toBe("a.md\nb.md");
  });

  it("respects .gitignore inside a git repository too", async () => {
    ignoreFixture();
    execFileSync("git", ["init", "-q", "sub"], { cwd: ws.root });
    put("sub/.gitignore", "secret.ts\n");
    put("sub/secret.ts");
    put("sub/kept.ts");
    expect(await ws.run("find", { pattern: "*.ts", path: "sub" })).toBe("kept.ts");
  });

  it("stops at the result limit with pi's notice", async () => {
    for (let i = 0; i < 5; i++) put(`f${i}.md`);
    expect(await ws.run("find", { pattern: "*.md", limit: 3 })).toMatch(/^(f\d\.md\n){3}\n\[3 results limit reached\. Use limit=6 for more, or refine pattern\]$/);
  });

  it("does not follow symlinked folders out of the workspace", async () => {
    put("in.ts");
    mkdirSync(join(ws.outside, "o"));
    writeFileSync(join(ws.outside, "o", "leak.ts"), "");
    symlinkSync(join(ws.outside, "o"), join(ws.root, "link"));
    expect(await ws.run("find", { pattern: "*.ts" })).toBe("in.ts");
    expect(await ws.failure("find", { pattern: "*.ts", path: "link" })).toMatch(/^Refused/);
  });
});

describe("grep", () => {
  it("finds lines with paths and line numbers, respecting .gitignore (no repository), skipping .git", async () => {
    ignoreFixture();
    expect(await ws.run("grep", { pattern: "needle" })).toBe(".hidden.ts:1: needle hidden\nsrc/app.ts:1: const needle = 1;\nsrc/deep/app.spec.ts:1: test(needle)");
  });

  it("tells the model it skips .git folders (pi's rg searches them)", () => {
    expect(ws.tool("grep").description).toContain("Respects .gitignore, and skips .git folders.");
  });

  it("respects .gitignore in a git repository", async () => {
    execFileSync("git", ["init", "-q"], { cwd: ws.root });
    put(".gitignore", "ignored.txt\n");
    put("ignored.txt", "needle\n");
    put("kept.txt", "needle\n");
    expect(await ws.run("grep", { pattern: "needle" })).toBe("kept.txt:1: needle");
  });

  it("takes glob, ignoreCase, literal and a file as path", async () => {
    ignoreFixture();
    put("notes.md", "NEEDLE (a+b)\n");
    expect(await ws.run("grep", { pattern: "needle", glob: "*.spec.ts" })).toBe("src/deep/app.spec.ts:1: test(needle)");
    expect(await ws.run("grep", { pattern: "needle", glob: "src/**/*.ts" })).toBe("src/app.ts:1: const needle = 1;\nsrc/deep/app.spec.ts:1: test(needle)");
    expect(await ws.run("grep", { pattern: "needle", glob: "!src/**" })).toBe(".hidden.ts:1: needle hidden");
    // An including glob does not bring back ignored files (rg's own --glob would).
    expect(await ws.run("grep", { pattern: "needle", glob: "*.log" })).toBe("No matches found");
    expect(await ws.run("grep", { pattern: "needle", glob: "build/*.ts" })).toBe("No matches found");
    expect(await ws.run("grep", { pattern: "NEEDLE", path: "notes.md" })).toBe("notes.md:1: NEEDLE (a+b)");
    expect(await ws.run("grep", { pattern: "needle (a", ignoreCase: true, literal: true })).toBe("notes.md:1: NEEDLE (a+b)");
    expect(await ws.run("grep", { pattern: "nothing-like-this" })).toBe("No matches found");
  });

  it("shows context lines as pi does", async () => {
    put("c.txt", "1\n2\nhit\n4\n5\n");
    expect(await ws.run("grep", { pattern: "hit", context: 1 })).toBe("c.txt-2- 2\nc.txt:3: hit\nc.txt-4- 4");
  });

  it("stops at the match limit (with the last match's context) and cuts long lines at 500 characters", async () => {
    put("m.txt", Array.from({ length: 10 }, (_, i) => (i % 2 ? `ctx ${i}` : `hit ${i}`)).join("\n"));
    expect(await ws.run("grep", { pattern: "hit", limit: 2, context: 1 })).toBe(
      "m.txt:1: hit 0\nm.txt-2- ctx 1\nm.txt:3: hit 2\nm.txt-4- ctx 3\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]",
    );
    put("long.txt", `hit ${"y".repeat(600)}\n`);
    const text = await ws.run("grep", { pattern: "hit", path: "long.txt" });
    expect(text).toBe(`long.txt:1: hit ${"y".repeat(496)}... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]`);
  });

  it("reports a bad pattern and refuses paths outside", async () => {
    put("a.txt", "x\n");
    expect(await ws.failure("grep", { pattern: "(" })).toMatch(/regex parse error/);
    expect(await ws.failure("grep", { pattern: "x", path: ws.outside })).toMatch(/^Refused/);
  });
});
