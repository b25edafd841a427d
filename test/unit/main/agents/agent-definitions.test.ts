import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  agentFolders,
  DEFAULT_AGENT_TOOLS,
  discoverAgents,
  findProjectAgentsDir,
  parseAgentFile,
  type AgentDefinition,
} from "../../../../src/main/agents/agent-definitions";
import { builtinAgents } from "../../../../src/main/agents/builtin-agents";
import { Fifos, within } from "../../../../testkit/fifos";

/** The shape of pi's examples/extensions/subagent/agents/scout.md. */
const PI_SCOUT = `---
name: scout
description: Fast codebase recon that returns compressed context for handoff to other agents
tools: read, grep, find, ls, bash
model: claude-haiku-4-5
---

You are a scout. Quickly investigate a codebase and return structured findings.

Output format:

## Files Retrieved
1. \`path/to/file.ts\` (lines 10-50) - Description
`;

const agentFile = (name: string, body = `You are ${name}.`, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} agent\n${extra}---\n${body}\n`;

let root: string;
let dataDir: string;
let homeDir: string;
let project: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "paddock-agents-"));
  dataDir = join(root, "data");
  homeDir = join(root, "home");
  project = join(root, "project");
  mkdirSync(project, { recursive: true });
});
const fifos = new Fifos();
afterEach(() => {
  fifos.releaseAll();
  rmSync(root, { recursive: true, force: true });
});

function write(dir: string, file: string, text: string | Buffer): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}
const userDir = () => join(dataDir, "agents");
const piUserDir = () => join(homeDir, ".pi", "agent", "agents");
const projectDir = () => join(project, ".pi", "agents");
const names = (agents: AgentDefinition[]) => agents.map((a) => a.name);
const byName = (agents: AgentDefinition[], name: string) => agents.find((a) => a.name === name);

describe("parseAgentFile", () => {
  it("reads a pi-format agent file as is", () => {
    const { agent, problem } = parseAgentFile(PI_SCOUT, "user", "/x/scout.md");
    expect(problem).toBeUndefined();
    expect(agent).toMatchObject({
      name: "scout",
      description: "Fast codebase recon that returns compressed context for handoff to other agents",
      tools: ["read", "grep", "find", "ls", "bash"],
      model: "claude-haiku-4-5",
      source: "user",
      filePath: "/x/scout.md",
    });
    expect(agent!.systemPrompt.startsWith("You are a scout.")).toBe(true);
    expect(agent!.systemPrompt.endsWith("- Description")).toBe(true);
    expect(agent!.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps a provider-qualified model exactly as written", () => {
    const { agent } = parseAgentFile(agentFile("a", "x", "model: anthropic/claude-haiku-4-5\n"), "user");
    expect(agent!.model).toBe("anthropic/claude-haiku-4-5");
  });

  it("reads isolation: worktree as Claude Code's agent files spell it, and refuses any other isolation", () => {
    expect(parseAgentFile(agentFile("a", "x", "isolation: worktree\n"), "user").agent!.isolation).toBe("worktree");
    expect(parseAgentFile(agentFile("b", "x"), "user").agent!.isolation).toBeUndefined();
    expect(parseAgentFile(agentFile("c", "x", "isolation: container\n"), "user", "/x/c.md")).toEqual({ problem: "/x/c.md: isolation must be worktree (or left out)" });
    expect(parseAgentFile(agentFile("d", "x", "isolation: [worktree]\n"), "user", "/x/d.md")).toEqual({ problem: "/x/d.md: isolation must be worktree (or left out)" });
  });

  it("reads a profile that may narrow its tasks' permissions, and refuses a name that is not a profile", () => {
    expect(parseAgentFile(agentFile("a", "x", "profile: read-only\n"), "user").agent!.profile).toBe("read-only");
    expect(parseAgentFile(agentFile("b", "x"), "user").agent!.profile).toBeUndefined();
    expect(parseAgentFile(agentFile("c", "x", "profile: yolo\n"), "user", "/x/c.md")).toEqual({
      problem: "/x/c.md: profile must be read-only, ask, edits, sandboxed-auto (or left out)",
    });
  });

  it("gives pi's default tools when none are listed", () => {
    const { agent } = parseAgentFile(agentFile("worker"), "user");
    expect(agent!.tools).toEqual(["read", "bash", "edit", "write"]);
    expect(agent!.tools).toEqual([...DEFAULT_AGENT_TOOLS]);
    expect(agent!.model).toBeUndefined();
  });

  it("accepts tools as a YAML list and drops empty entries from a comma list", () => {
    const list = parseAgentFile(agentFile("a", "x", "tools:\n  - read\n  - ' grep '\n"), "user");
    expect(list.agent!.tools).toEqual(["read", "grep"]);
    const commas = parseAgentFile(agentFile("b", "x", "tools: read,, ls ,\n"), "user");
    expect(commas.agent!.tools).toEqual(["read", "ls"]);
  });

  it("accepts CRLF line ends and a leading BOM", () => {
    const text = "\uFEFF" + PI_SCOUT.replace(/\n/g, "\r\n");
    const { agent, problem } = parseAgentFile(text, "project", "/p/scout.md");
    expect(problem).toBeUndefined();
    expect(agent!.name).toBe("scout");
    expect(agent!.tools).toEqual(["read", "grep", "find", "ls", "bash"]);
    expect(agent!.systemPrompt).not.toContain("\r");
    expect(agent!.systemPrompt.startsWith("You are a scout.")).toBe(true);
  });

  it("reports a missing name or description, naming the file", () => {
    expect(parseAgentFile("---\ndescription: d\n---\nbody", "user", "/a/x.md")).toEqual({
      problem: "/a/x.md: missing name",
    });
    expect(parseAgentFile("---\nname: x\ndescription: '  '\n---\nbody", "user", "/a/x.md")).toEqual({
      problem: "/a/x.md: missing description",
    });
  });

  it("reports files without frontmatter, unclosed frontmatter, non-mapping YAML and bad names", () => {
    const problem = (text: string) => parseAgentFile(text, "user", "/a/x.md").problem;
    expect(problem("just a prompt")).toMatch(/^\/a\/x\.md: no frontmatter/);
    expect(problem("--- \nname: x\n---\n")).toMatch(/no frontmatter/);
    expect(problem("---\nname: x\ndescription: d\n")).toMatch(/not closed/);
    expect(problem("---\n- a\n- b\n---\n")).toMatch(/key: value/);
    expect(problem("---\nname: [unclosed\n---\n")).toMatch(/not valid YAML/);
    expect(problem("---\nname: a\nname: b\ndescription: d\n---\n")).toMatch(/not valid YAML/);
    expect(problem(agentFile("../escape"))).toMatch(/name "..\/escape" must be/);
    expect(problem(agentFile("a".repeat(65)))).toMatch(/must be/);
    expect(problem("---\nname: 42\ndescription: d\n---\n")).toMatch(/name must be text/);
    expect(problem(agentFile("a", "x", "tools: {read: true}\n"))).toMatch(/tools must be/);
  });

  it("never treats ---js frontmatter as anything but a problem, and runs none of it", () => {
    const marker = join(root, "pwned.marker");
    const js = `---js\n{ name: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 'evil'), description: 'd' }\n---\nbody\n`;
    expect(parseAgentFile(js, "project", "/p/evil.md").problem).toMatch(/^\/p\/evil\.md: no frontmatter/);
    expect(parseAgentFile(js.replace("---js", "---javascript"), "project").problem).toMatch(/no frontmatter/);
    expect(existsSync(marker)).toBe(false);
  });

  it("reads YAML tags such as !!js/function as plain text, never as code", () => {
    const { agent } = parseAgentFile('---\nname: a\ndescription: !!js/function "function () { return 1 }"\n---\n', "user");
    expect(agent!.description).toBe("function () { return 1 }");
  });
});

describe("discoverAgents", () => {
  it("loads user agents from <dataDir>/agents, only *.md directly inside, sorted by name", async () => {
    const bPath = write(userDir(), "b.md", agentFile("bee"));
    write(userDir(), "a.md", agentFile("ant"));
    write(userDir(), "notes.txt", agentFile("txt"));
    write(join(userDir(), "nested"), "deep.md", agentFile("deep"));
    mkdirSync(join(userDir(), "folder.md"));
    const found = await discoverAgents({ scope: "user", dataDir, homeDir });
    const users = found.agents.filter((a) => a.source === "user");
    expect(names(users)).toEqual(["ant", "bee"]);
    expect(byName(users, "bee")!.filePath).toBe(bPath);
    expect(found.problems).toEqual([]);
    expect(found.projectAgentsDir).toBeUndefined();
  });

  it("loads pi's user agents from <home>/.pi/agent/agents", async () => {
    write(piUserDir(), "helper.md", agentFile("helper"));
    const found = await discoverAgents({ scope: "user", dataDir, homeDir });
    expect(byName(found.agents, "helper")).toMatchObject({ source: "pi-user", filePath: join(piUserDir(), "helper.md") });
  });

  it("follows PI_CODING_AGENT_DIR to pi's user folder, as pi's getAgentDir() does, and no longer reads <home>/.pi/agent", async () => {
    const moved = join(root, "elsewhere", "pi");
    write(join(moved, "agents"), "moved.md", agentFile("moved"));
    write(piUserDir(), "stale.md", agentFile("stale"));
    const env = { PI_CODING_AGENT_DIR: moved };
    expect(agentFolders({ dataDir, homeDir, env })).toEqual({ paddock: join(dataDir, "agents"), pi: join(moved, "agents") });
    expect(agentFolders({ dataDir, homeDir, env: { PI_CODING_AGENT_DIR: "~/pi-home" } }).pi).toBe(join(homeDir, "pi-home", "agents"));
    const found = await discoverAgents({ scope: "user", dataDir, homeDir, env });
    expect(byName(found.agents, "moved")).toMatchObject({ source: "pi-user", filePath: join(moved, "agents", "moved.md") });
    expect(byName(found.agents, "stale")).toBeUndefined();
    // Without it, <home>/.pi/agent as before.
    expect(byName((await discoverAgents({ scope: "user", dataDir, homeDir, env: {} })).agents, "stale")).toBeDefined();
  });

  it("finds the nearest .pi/agents walking up from a nested workspace folder", async () => {
    write(projectDir(), "local.md", agentFile("local"));
    const nested = join(project, "src", "deep", "er");
    mkdirSync(nested, { recursive: true });
    expect(await findProjectAgentsDir(nested)).toBe(projectDir());
    const found = await discoverAgents({ scope: "project", dataDir, homeDir, workspace: nested });
    expect(found.projectAgentsDir).toBe(projectDir());
    expect(found.agents).toHaveLength(1);
    expect(found.agents[0]).toMatchObject({ name: "local", source: "project" });
  });

  it("skips bad files with one problem each and keeps loading the rest", async () => {
    const marker = join(root, "discover.marker");
    write(projectDir(), "evil.md", `---js\n{ name: (require('fs').writeFileSync(${JSON.stringify(marker)},'x'), 'evil') }\n---\nx\n`);
    write(projectDir(), "nodesc.md", "---\nname: nodesc\n---\nbody\n");
    write(projectDir(), "noname.md", "---\ndescription: d\n---\nbody\n");
    write(projectDir(), "good.md", agentFile("good"));
    const found = await discoverAgents({ scope: "project", dataDir, homeDir, workspace: project });
    expect(names(found.agents)).toEqual(["good"]);
    expect(found.problems).toEqual([
      expect.stringMatching(new RegExp(`^${escape(join(projectDir(), "evil.md"))}: no frontmatter`)),
      `${join(projectDir(), "nodesc.md")}: missing description`,
      `${join(projectDir(), "noname.md")}: missing name`,
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("skips a file larger than 256 KB", async () => {
    write(userDir(), "huge.md", agentFile("huge", "x".repeat(256 * 1024)));
    write(userDir(), "fits.md", agentFile("fits", "x".repeat(200 * 1024)));
    const found = await discoverAgents({ scope: "user", dataDir, homeDir });
    expect(byName(found.agents, "huge")).toBeUndefined();
    expect(byName(found.agents, "fits")).toBeDefined();
    expect(found.problems).toEqual([expect.stringMatching(new RegExp(`^${escape(join(userDir(), "huge.md"))}: larger than 256 KB`))]);
  });

  it("skips a FIFO (and a link to one) without opening it: four loads at once finish, and main's other file calls too", { timeout: 15_000 }, async () => {
    // Opening a FIFO nobody writes to blocks a libuv thread; four parallel subagent calls used to park all four.
    write(projectDir(), "good.md", agentFile("good"));
    fifos.make(join(projectDir(), "x.md"));
    symlinkSync(join(projectDir(), "x.md"), join(projectDir(), "y.md"));
    const loads = Array.from({ length: 4 }, () => discoverAgents({ scope: "project", dataDir, homeDir, workspace: project }));
    const results = await within(Promise.all(loads), 5_000, "four agent loads with a FIFO in .pi/agents");
    await within(stat(root), 1_000, "a file call while they ran"); // the thread pool is free
    for (const found of results) {
      expect(names(found.agents)).toEqual(["good"]);
      expect(found.problems).toEqual([
        `${join(projectDir(), "x.md")}: a FIFO (named pipe), not a regular file`,
        `${join(projectDir(), "y.md")}: a FIFO (named pipe), not a regular file`,
      ]);
    }
  });

  it("filters by scope", async () => {
    write(userDir(), "u.md", agentFile("u"));
    write(piUserDir(), "p.md", agentFile("p"));
    write(projectDir(), "proj.md", agentFile("proj"));
    const base = { dataDir, homeDir, workspace: project };

    const user = await discoverAgents({ ...base, scope: "user" });
    expect(names(user.agents)).toEqual(["p", "planner", "reviewer", "scout", "u", "worker"]);
    expect(user.projectAgentsDir).toBeUndefined();

    const proj = await discoverAgents({ ...base, scope: "project" });
    expect(names(proj.agents)).toEqual(["proj"]);
    expect(proj.projectAgentsDir).toBe(projectDir());

    const both = await discoverAgents({ ...base, scope: "both" });
    expect(names(both.agents)).toEqual(["p", "planner", "proj", "reviewer", "scout", "u", "worker"]);
    expect(both.projectAgentsDir).toBe(projectDir());
  });

  it("copes with absent folders and no workspace", async () => {
    const found = await discoverAgents({ scope: "both", dataDir: join(root, "nope"), homeDir: join(root, "nohome") });
    expect(names(found.agents)).toEqual(["planner", "reviewer", "scout", "worker"]);
    expect(found.problems).toEqual([]);
    expect(found.projectAgentsDir).toBeUndefined();
  });

  it("lets project override user, user override pi-user, and pi-user override builtin", async () => {
    write(piUserDir(), "scout.md", agentFile("scout", "pi-user scout"));
    write(piUserDir(), "planner.md", agentFile("planner", "pi-user planner"));
    write(userDir(), "planner.md", agentFile("planner", "user planner"));
    write(userDir(), "reviewer.md", agentFile("reviewer", "user reviewer"));
    write(projectDir(), "reviewer.md", agentFile("reviewer", "project reviewer"));
    const found = await discoverAgents({ scope: "both", dataDir, homeDir, workspace: project });
    expect(names(found.agents)).toEqual(["planner", "reviewer", "scout", "worker"]);
    expect(byName(found.agents, "scout")).toMatchObject({ source: "pi-user", systemPrompt: "pi-user scout" });
    expect(byName(found.agents, "planner")).toMatchObject({ source: "user", systemPrompt: "user planner" });
    expect(byName(found.agents, "reviewer")).toMatchObject({ source: "project", systemPrompt: "project reviewer" });
    expect(byName(found.agents, "worker")!.source).toBe("builtin");
  });

  it("reports a second file claiming a name already used in the same folder", async () => {
    write(userDir(), "a.md", agentFile("same", "first"));
    const second = write(userDir(), "b.md", agentFile("same", "second"));
    const found = await discoverAgents({ scope: "user", dataDir, homeDir });
    expect(byName(found.agents, "same")!.systemPrompt).toBe("first");
    expect(found.problems).toEqual([`${second}: name "same" is already used by ${join(userDir(), "a.md")}`]);
  });

  it("hashes the file's exact bytes, so the hash changes when the file does", async () => {
    const path = write(userDir(), "h.md", agentFile("h", "version one"));
    const first = byName((await discoverAgents({ scope: "user", dataDir, homeDir })).agents, "h")!.contentHash;
    expect(first).toBe(parseAgentFile(agentFile("h", "version one"), "user").agent!.contentHash);

    writeFileSync(path, agentFile("h", "version two"));
    const second = byName((await discoverAgents({ scope: "user", dataDir, homeDir })).agents, "h")!.contentHash;
    expect(second).not.toBe(first);

    // Whitespace the parser ignores still counts: the user confirmed these bytes, not this meaning.
    writeFileSync(path, agentFile("h", "version two") + "\n");
    const third = byName((await discoverAgents({ scope: "user", dataDir, homeDir })).agents, "h")!.contentHash;
    expect(third).not.toBe(second);
  });
});

describe("builtin agents", () => {
  it("are scout, planner, reviewer and worker with pi 1.6.0's tool sets (its worker lists none: pi's four defaults) and no model", () => {
    const builtins = builtinAgents();
    const tools = Object.fromEntries(builtins.map((a) => [a.name, a.tools]));
    expect(tools).toEqual({
      scout: ["read", "grep", "find", "ls", "bash"],
      planner: ["read", "grep", "find", "ls"],
      reviewer: ["read", "grep", "find", "ls", "bash"],
      worker: ["read", "bash", "edit", "write"],
    });
    for (const agent of builtins) {
      expect(agent.source).toBe("builtin");
      expect(agent.filePath).toBeUndefined();
      expect(agent.model).toBeUndefined();
      expect(agent.description.length).toBeGreaterThan(20);
      expect(agent.systemPrompt.length).toBeGreaterThan(200);
      expect(agent.contentHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(builtins.map((a) => a.contentHash)).size).toBe(4);
  });

  it("are handed out as fresh copies", () => {
    builtinAgents()[0].tools.push("write");
    expect(builtinAgents()[0].tools).not.toContain("write");
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
