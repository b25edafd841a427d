import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentTool, AgentToolResult } from "../../../../../src/shared/agent/types";
import type { SessionWorkspace } from "../../../../../src/agent-worker/host/workspace/session-workspace";

/**
 * Issue 21, item 7: with the home folder as the workspace, or a repository holding the browser host's data folder
 * (`./.paddock-dev`), the file tools read `.ssh`, `.aws`, the secrets file and the host's token, and `write` changed
 * `settings.json` (and so could add an MCP server, which runs unsandboxed). The tools now refuse what the sandbox
 * denies commands: the very list the worker gives the sandbox (`openWorkspace`, below, is the production path).
 *
 * HOME is a temporary folder for this file, set before the worker's modules are loaded (the credential folders are
 * found in it then): so they are imported in `beforeAll`, and nothing above imports them.
 */
const home = realpathSync(mkdtempSync(join(tmpdir(), "paddock-home-")));
process.env.HOME = home;

const SECRET = "PADDOCK-TEST-SECRET";
const dataDir = join(home, ".paddock-dev");
const sessionDir = join(dataDir, "sessions", "chat-1");
const files: Record<string, string> = {
  ".ssh/id_rsa": `${SECRET} ssh key\n`,
  ".aws/credentials": `${SECRET} aws\n`,
  ".netrc": `${SECRET} netrc\n`,
  "dotfiles/gnupg/private.key": `${SECRET} gpg\n`, // ~/.gnupg is a symlink to this folder
  ".paddock-dev/secrets.json": `{"anthropic": "${SECRET}"}\n`,
  ".paddock-dev/settings.json": `{"mcpServers": []}\n`,
  ".paddock-dev/web-host.json": `{"token": "${SECRET}"}\n`,
  ".paddock-dev/sessions/chat-1/bash-output/bash-1.log": "saved output\n",
  ".paddock-dev/sessions/other-chat/transcript.jsonl": `${SECRET} other chat\n`,
  ".pi/agent/auth.json": `{"anthropic": {"type": "oauth", "access": "${SECRET}"}}\n`,
  ".pi/agent/skills/notes/SKILL.md": "---\nname: notes\ndescription: Notes.\n---\n",
  ".claude/.credentials.json": `{"claudeAiOauth": {"accessToken": "${SECRET}"}}\n`,
  ".codex/auth.json": `{"OPENAI_API_KEY": "${SECRET}"}\n`,
  "project/readme.md": "hello\n",
};

let workspace: SessionWorkspace;
const tool = (name: string): AgentTool<any> => workspace.tools.find((t) => t.name === name)!;
const run = async (name: string, params: Record<string, unknown>) => {
  const t = tool(name);
  return textOf(await t.execute("call", t.prepareArguments ? t.prepareArguments(params) : params));
};
const textOf = (result: AgentToolResult<unknown>) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const failure = async (name: string, params: Record<string, unknown>) => {
  try {
    await run(name, params);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} ${JSON.stringify(params)} did not fail`);
};

beforeAll(async () => {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), content);
  }
  symlinkSync(join(home, "dotfiles/gnupg"), join(home, ".gnupg"));
  const { openWorkspace } = await import("../../../../../src/agent-worker/host/workspace/session-workspace");
  // The home folder itself as the workspace, the data folder inside it: the worst case the review tried.
  workspace = await openWorkspace(home, {
    sessionDir,
    privateDir: dataDir,
    allowedDomains: [],
    sandbox: { available: false, reason: "not needed by this test" },
  });
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("the file tools keep out of the private folders", () => {
  it("read refuses credential folders and files, saying why", async () => {
    expect(await failure("read", { path: ".ssh/id_rsa" })).toBe(`Refused ".ssh/id_rsa": ${home}/.ssh holds credentials; Paddock's tools never read or change it.`);
    expect(await failure("read", { path: join(home, ".aws/credentials") })).toMatch(/\.aws holds credentials/);
    expect(await failure("read", { path: ".netrc" })).toMatch(/\.netrc holds credentials/);
    // ~/.gnupg is a symlink: its real folder is refused under either name.
    expect(await failure("read", { path: ".gnupg/private.key" })).toMatch(/\.gnupg holds credentials/);
    expect(await failure("read", { path: "dotfiles/gnupg/private.key" })).toMatch(/\.gnupg holds credentials/);
  });

  it("read refuses the files other agent harnesses keep their sign-ins in (pi's auth.json, Claude Code's, Codex's)", async () => {
    for (const path of [".pi/agent/auth.json", ".claude/.credentials.json", ".codex/auth.json"]) {
      expect(await failure("read", { path })).toBe(`Refused "${path}": ${join(home, path)} holds credentials; Paddock's tools never read or change it.`);
    }
    expect(await run("grep", { pattern: SECRET, path: ".claude" })).toBe("No matches found");
    // Their neighbours are not credentials: a pi user's skills stay readable.
    expect(await run("read", { path: ".pi/agent/skills/notes/SKILL.md" })).toContain("name: notes");
  });

  it("read refuses Paddock's data folder: keys, the host's token, other chats", async () => {
    for (const path of [".paddock-dev/secrets.json", ".paddock-dev/web-host.json", ".paddock-dev/sessions/other-chat/transcript.jsonl"]) {
      expect(await failure("read", { path })).toMatch(/\.paddock-dev is Paddock's data folder \(keys, settings, other chats\); Paddock's tools never read or change it\.$/);
    }
  });

  it("read still reaches the chat's own saved command output inside the data folder", async () => {
    expect(await run("read", { path: ".paddock-dev/sessions/chat-1/bash-output/bash-1.log" })).toBe("saved output\n");
    expect(await run("read", { path: join(sessionDir, "bash-output/bash-1.log") })).toBe("saved output\n");
  });

  it("write and edit change nothing there (settings.json could add an unsandboxed MCP server)", async () => {
    expect(await failure("write", { path: ".paddock-dev/settings.json", content: '{"mcpServers": [{"command": "evil"}]}' })).toMatch(/^Refused .*Paddock's data folder/);
    expect(await failure("edit", { path: ".paddock-dev/settings.json", edits: [{ oldText: "[]", newText: '[{"command": "evil"}]' }] })).toMatch(
      /^Refused .*Paddock's data folder/,
    );
    expect(readFileSync(join(dataDir, "settings.json"), "utf8")).toBe(files[".paddock-dev/settings.json"]);
    // Not even the chat's own folder may be written: its transcript lives there.
    expect(await failure("write", { path: ".paddock-dev/sessions/chat-1/bash-output/bash-1.log", content: "x" })).toMatch(/^Refused/);
    expect(await failure("write", { path: ".ssh/authorized_keys", content: "ssh-ed25519 AAAA attacker" })).toMatch(/\.ssh holds credentials/);
    expect(existsSync(join(home, ".ssh/authorized_keys"))).toBe(false);
    expect(await failure("write", { path: ".aws/new/config", content: "x" })).toMatch(/\.aws holds credentials/);
    expect(existsSync(join(home, ".aws/new"))).toBe(false);
  });

  it("the approval card's preview does not read them either", async () => {
    expect(await workspace.preview("write", { path: ".paddock-dev/secrets.json", content: "x" })).toBeUndefined();
    expect(await workspace.preview("edit", { path: ".ssh/id_rsa", edits: [{ oldText: SECRET, newText: "x" }] })).toBeUndefined();
  });

  it("ls refuses to list them", async () => {
    expect(await failure("ls", { path: ".ssh" })).toMatch(/\.ssh holds credentials/);
    expect(await failure("ls", { path: ".paddock-dev" })).toMatch(/Paddock's data folder/);
    expect(await run("ls", { path: ".paddock-dev/sessions/chat-1" })).toBe("bash-output/");
  });

  it("grep and find over the whole workspace leave them out", async () => {
    expect(await run("grep", { pattern: SECRET })).toBe("No matches found");
    expect(await run("grep", { pattern: "saved output" })).toBe(".paddock-dev/sessions/chat-1/bash-output/bash-1.log:1: saved output");
    const found = (await run("find", { pattern: "*" })).split("\n").sort();
    // Folders too, as pi's fd lists them, but none that is private (the data folder holding the chat's own session).
    expect(found).toEqual([
      ".paddock-dev/sessions/chat-1/",
      ".paddock-dev/sessions/chat-1/bash-output/",
      ".paddock-dev/sessions/chat-1/bash-output/bash-1.log",
      ".pi/",
      ".pi/agent/",
      ".pi/agent/skills/",
      ".pi/agent/skills/notes/",
      ".pi/agent/skills/notes/SKILL.md",
      "project/",
      "project/readme.md",
    ]);
    expect(await failure("grep", { pattern: SECRET, path: ".ssh" })).toMatch(/\.ssh holds credentials/);
    expect(await failure("find", { pattern: "*", path: ".paddock-dev/sessions/other-chat" })).toMatch(/Paddock's data folder/);
  });

  it("the rest of the workspace works as before", async () => {
    expect(await run("read", { path: "project/readme.md" })).toBe("hello\n");
    expect(await run("write", { path: "project/new.txt", content: "new\n" })).toBe("Successfully wrote 4 bytes to project/new.txt");
    expect(await run("edit", { path: "project/new.txt", edits: [{ oldText: "new", newText: "newer" }] })).toBe("Successfully replaced 1 block(s) in project/new.txt.");
  });
});

