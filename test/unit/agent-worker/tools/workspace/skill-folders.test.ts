/**
 * The listed skills' folders, outside the workspace, are readable by the file tools and never writable: a SKILL.md in
 * Paddock's data folder (`<dataDir>/skills/<name>`) despite the data folder's denial, one in `~/.claude/skills`; but
 * nothing beside them, and a listing naming the data folder itself opens none of it. (openWorkspace is the production
 * path: the very list the worker gives the sandbox.)
 */
import { mkdirSync, realpathSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentToolResult } from "../../../../../src/shared/agent/types";
import type { SessionWorkspace } from "../../../../../src/agent-worker/host/workspace/session-workspace";
import { privateFolders } from "../../../../../src/agent-worker/tools/workspace/private-folders";

const root = realpathSync(mkdtempSync(join(tmpdir(), "paddock-skill-folders-")));
const dataDir = join(root, "data");
const claude = join(root, "home", ".claude", "skills", "pdf-tools");
const files: Record<string, string> = {
  "data/skills/mine/SKILL.md": "---\ndescription: Mine.\n---\nMY-SKILL-BODY\n",
  "data/skills/mine/references/guide.md": "GUIDE\n",
  "data/secrets.json": "SECRET\n",
  "home/.claude/skills/pdf-tools/SKILL.md": "---\ndescription: PDFs.\n---\nPDF-SKILL-BODY\n",
  "home/.claude/notes.txt": "NOT-LISTED\n",
  "project/readme.md": "hello\n",
};

let workspace: SessionWorkspace;
const run = async (name: string, params: Record<string, unknown>) => {
  const tool = workspace.tools.find((t) => t.name === name)!;
  const result: AgentToolResult<unknown> = await tool.execute("call", tool.prepareArguments ? tool.prepareArguments(params) : params);
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
};
const failure = (name: string, params: Record<string, unknown>) => run(name, params).then(() => "did not fail", (e: Error) => e.message);

beforeAll(async () => {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const { openWorkspace } = await import("../../../../../src/agent-worker/host/workspace/session-workspace");
  workspace = await openWorkspace(join(root, "project"), {
    sessionDir: join(dataDir, "sessions", "chat-1"),
    privateDir: dataDir,
    allowedDomains: [],
    sandbox: { available: false, reason: "not needed by this test" },
    skills: {
      skills: [{ name: "mine", description: "Mine.", location: join(dataDir, "skills", "mine", "SKILL.md") }],
      folders: [join(dataDir, "skills", "mine"), claude],
    },
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the listed skills' folders", () => {
  it("are readable by absolute path, with what they hold", async () => {
    expect(await run("read", { path: join(dataDir, "skills", "mine", "SKILL.md") })).toContain("MY-SKILL-BODY");
    expect(await run("read", { path: join(dataDir, "skills", "mine", "references", "guide.md") })).toContain("GUIDE");
    expect(await run("read", { path: join(claude, "SKILL.md") })).toContain("PDF-SKILL-BODY");
    expect(workspace.skills.map((s) => s.name)).toEqual(["mine"]);
  });

  it("are never writable", async () => {
    expect(await failure("write", { path: join(claude, "SKILL.md"), content: "changed" })).toMatch(/outside the workspace/);
    expect(await failure("edit", { path: join(dataDir, "skills", "mine", "SKILL.md"), edits: [{ oldText: "MY", newText: "YOUR" }] })).toMatch(/Refused/);
  });

  it("open nothing beside them", async () => {
    expect(await failure("read", { path: join(root, "home", ".claude", "notes.txt") })).toMatch(/outside the workspace/);
    expect(await failure("read", { path: join(dataDir, "secrets.json") })).toMatch(/^Refused .*outside the workspace/);
  });

  it("lift the data folder's denial only below <dataDir>/skills, whatever a listing names", () => {
    const folders = privateFolders({ dataDir, sessionDir: join(dataDir, "sessions", "s"), skillFolders: [dataDir, join(dataDir, "sessions"), join(dataDir, "skills", "mine"), claude] });
    expect(folders.allowRead).toEqual([join(dataDir, "sessions", "s"), join(dataDir, "skills", "mine")]);
  });
});
