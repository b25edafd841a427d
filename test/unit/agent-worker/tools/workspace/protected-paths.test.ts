/**
 * Files the sandbox protects from commands, protected from the file tools too (protected-paths.ts,
 * protected-changes.ts): the list is the sandbox runtime's (checked against the installed runtime, so an upgrade
 * that changes it fails here), judged after the path gate resolved the path, and `write` and `edit` change such a file
 * only when the approval asked about that very file for that call.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { DANGEROUS_FILES, getDangerousDirectories } from "@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js";
import { linuxGetCwdMandatoryDenyPaths } from "@anthropic-ai/sandbox-runtime/dist/sandbox/linux-sandbox-utils.js";
import { PROTECTED_FILES, PROTECTED_FOLDERS, protectionOf } from "../../../../../src/agent-worker/tools/workspace/protected-paths";
import { ProtectedChanges, unsandboxedShell, workspaceTools, WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace";
import type { AgentTool } from "../../../../../src/shared/agent/types";

describe("the protected list", () => {
  it("is the sandbox runtime's: its dangerous files and folders, .git/hooks, .git/config and a .git file", () => {
    expect(Object.keys(PROTECTED_FILES).sort()).toEqual([...DANGEROUS_FILES].sort());
    const runtimeFolders = [...getDangerousDirectories(), ".git/hooks", ".git/config"];
    expect(Object.keys(PROTECTED_FOLDERS).sort()).toEqual(runtimeFolders.sort());

    // What the runtime denies in a working folder holding a repository, and one whose .git is a file.
    const base = realpathSync(mkdtempSync(join(tmpdir(), "paddock-protected-")));
    const previous = process.cwd();
    try {
      mkdirSync(join(base, "repo", ".git"), { recursive: true });
      mkdirSync(join(base, "linked"));
      writeFileSync(join(base, "linked", ".git"), "gitdir: /elsewhere\n");
      const denied = (folder: string) => {
        process.chdir(join(base, folder));
        return linuxGetCwdMandatoryDenyPaths(false).map((p) => relative(join(base, folder), p));
      };
      for (const path of denied("repo")) expect(protectionOf(path), path).toBeDefined();
      expect(denied("linked")).toContain(".git");
      for (const path of denied("linked")) expect(protectionOf(path), path).toBeDefined();
    } finally {
      process.chdir(previous);
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("names what is protected and why, at any depth, as a case-folding file system would find it", () => {
    expect(protectionOf(".git/hooks/pre-commit")).toBe(".git/hooks is protected: it runs outside the sandbox later (git hooks)");
    expect(protectionOf("vendor/lib/.git/config")).toMatch(/^vendor\/lib\/\.git\/config is protected: .*\(git config\)$/);
    expect(protectionOf(".GIT/Hooks/post-checkout")).toMatch(/^\.GIT\/Hooks is protected/);
    expect(protectionOf(".git\u200c/hooks/x")).toBeDefined(); // HFS+ ignores the joiner
    expect(protectionOf(".git./config")).toBeDefined(); // Windows drops the dot
    expect(protectionOf(".git/config::$DATA")).toBeDefined(); // an NTFS stream of the file
    expect(protectionOf("home/.BashRC")).toMatch(/shell start-up file/);
    expect(protectionOf(".vscode/tasks.json")).toMatch(/^\.vscode is protected/);
    expect(protectionOf(".claude/agents/x.md")).toBeDefined();
    expect(protectionOf("sub/.git")).toMatch(/git link/);
    for (const path of [".", "src/index.ts", ".git/objects/ab/cdef", ".git/HEAD", ".gitignore", ".github/workflows/ci.yml", ".claude/settings.json", "hooks/x"]) {
      expect(protectionOf(path), path).toBeUndefined();
    }
  });
});

describe("write and edit of a protected file", () => {
  let base: string;
  let root: string;
  let paths: WorkspacePaths;
  let files: ProtectedChanges;
  let tool: (name: string) => AgentTool<any>;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "paddock-protected-")));
    root = join(base, "ws");
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    writeFileSync(join(root, ".git", "config"), "[core]\n");
    paths = new WorkspacePaths(root);
    files = new ProtectedChanges(paths);
    const tools = workspaceTools({ root, sessionDir: join(base, "session"), sandbox: unsandboxedShell(), protectedFiles: files });
    tool = (name) => tools.find((t) => t.name === name)!;
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("is judged after the path gate: other spellings, `..` and symlinks lead to the same protection", async () => {
    symlinkSync(".git/hooks", join(root, "innocent"));
    expect(await files.judge("c1", "write", { path: "./x/../.git/config" })).toMatch(/^\.git\/config is protected/);
    expect(await files.judge("c2", "write", { path: "innocent/pre-commit" })).toMatch(/^\.git\/hooks is protected/);
    expect(await files.judge("c3", "edit", { path: join(root, ".git", "hooks", "x") })).toBeDefined();
    expect(await files.judge("c4", "write", { path: "src/a.ts" })).toBeUndefined();
    expect(await files.judge("c5", "read", { path: ".git/config" })).toBeUndefined(); // reading changes nothing
    expect(await files.judge("c6", "write", { path: "../outside/.bashrc" })).toBeUndefined(); // the tool refuses it anyway
  });

  it("a write asked about goes ahead; one never asked about, or whose folder became a link since, is refused", async () => {
    await files.judge("w1", "write", { path: ".git/hooks/pre-commit" });
    await tool("write").execute("w1", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" });
    expect(readFileSync(join(root, ".git/hooks/pre-commit"), "utf8")).toBe("#!/bin/sh\n");
    // The same call id again, without a question: refused.
    await expect(tool("write").execute("w1", { path: ".git/hooks/pre-commit", content: "evil" })).rejects.toThrow(/not asked about it/);

    // Judged while `d` was a plain folder; a command beside the call swaps it for a link into .git/hooks.
    mkdirSync(join(root, "d"));
    expect(await files.judge("w2", "write", { path: "d/post-checkout" })).toBeUndefined();
    renameSync(join(root, "d"), join(root, "d-old"));
    symlinkSync(".git/hooks", join(root, "d"));
    const message = await tool("write").execute("w2", { path: "d/post-checkout", content: "evil" }).then(() => "written", (e: Error) => e.message);
    expect(message).toMatch(/^Refused to change \.git\/hooks\/post-checkout: \.git\/hooks is protected/);
    expect(existsSync(join(root, ".git/hooks/post-checkout"))).toBe(false);

    const edit = { path: ".git/config", edits: [{ oldText: "[core]", newText: "[core]\n\thooksPath = /tmp" }] };
    await expect(tool("edit").execute("e1", edit)).rejects.toThrow(/not asked about it/);
    await files.judge("e2", "edit", edit);
    await tool("edit").execute("e2", edit);
    expect(readFileSync(join(root, ".git/config"), "utf8")).toContain("hooksPath");
  });

  it("tools built without the approval's word refuse protected files and change others", async () => {
    const plain = workspaceTools({ root, sessionDir: join(base, "session"), sandbox: unsandboxedShell() }).find((t) => t.name === "write")!;
    await expect(plain.execute("x", { path: ".vscode/tasks.json", content: "{}" })).rejects.toThrow(/\.vscode is protected/);
    await plain.execute("y", { path: "notes.txt", content: "ok" });
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("ok");
  });
});
