import { describe, expect, it } from "vitest";
import { McpImportError, planMcpImport } from "../../../../src/shared/mcp/claude-config-import";
import type { McpServerConfig } from "../../../../src/shared/mcp/server-config";
import { validateSettings, DEFAULT_SETTINGS } from "../../../../src/shared/settings/schema";

/** A claude_desktop_config.json as Claude Desktop's docs and the servers' READMEs have people write it. */
const CLAUDE_DESKTOP = JSON.stringify({
  mcpServers: {
    filesystem: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"],
    },
    github: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_example123" },
    },
    "brave-search": {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-brave-search"],
      env: { BRAVE_API_KEY: "BSA-example", LOG_LEVEL: "info" },
    },
    git: { command: "uvx", args: ["mcp-server-git", "--repository", "/Users/me/src/project"] },
    "Windows Node": { command: "C:\\Program Files\\nodejs\\node.exe", args: ["C:\\mcp\\server.js"] },
  },
  globalShortcut: "Ctrl+Space",
}, null, 2);

/** Cursor's ~/.cursor/mcp.json with a remote server and its Authorization header. */
const CURSOR = JSON.stringify({
  mcpServers: {
    linear: { url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer lin_api_example", "X-Team": "core" } },
    legacy: { type: "sse", url: "https://old.example.com/sse" },
  },
});

function server(partial: Partial<McpServerConfig> & Pick<McpServerConfig, "id" | "name" | "transport">): McpServerConfig {
  return { enabled: true, trusted: false, ...partial };
}

describe("importing a Claude Desktop config", () => {
  it("adds every server in the file's order, with ids from their names", () => {
    const plan = planMcpImport(CLAUDE_DESKTOP, []);
    expect(plan.skipped).toEqual([]);
    expect(plan.add.map((a) => [a.server.id, a.server.name])).toEqual([
      ["filesystem", "filesystem"],
      ["github", "github"],
      ["brave-search", "brave-search"],
      ["git", "git"],
      ["windows-node", "Windows Node"],
    ]);
    expect(plan.add[0]!.server).toEqual({
      id: "filesystem",
      name: "filesystem",
      enabled: true,
      trusted: false,
      transport: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"], env: {} },
    });
    expect(plan.add[4]!.server.transport).toMatchObject({ command: "C:\\Program Files\\nodejs\\node.exe" });
  });

  it("moves env values that look secret out of the config, and keeps the others plain", () => {
    const plan = planMcpImport(CLAUDE_DESKTOP, []);
    const github = plan.add.find((a) => a.server.id === "github")!;
    expect(github.server.transport).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: { secret: true } } });
    expect(github.secrets).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_example123" });
    const brave = plan.add.find((a) => a.server.id === "brave-search")!;
    expect(brave.server.transport).toMatchObject({ env: { BRAVE_API_KEY: { secret: true }, LOG_LEVEL: { value: "info" } } });
    expect(brave.secrets).toEqual({ BRAVE_API_KEY: "BSA-example" });
    // Nothing secret is left in what settings.json would hold.
    expect(JSON.stringify(plan.add.map((a) => a.server))).not.toMatch(/ghp_example123|BSA-example/);
  });

  it("makes configs that settings accept", () => {
    const plan = planMcpImport(CLAUDE_DESKTOP, []);
    const result = validateSettings({ ...structuredClone(DEFAULT_SETTINGS), mcpServers: plan.add.map((a) => a.server) });
    expect(result).toMatchObject({ ok: true });
  });

  it("reads Cursor's remote servers, with an Authorization header as a secret, and skips the old SSE transport", () => {
    const plan = planMcpImport(CURSOR, []);
    expect(plan.add).toHaveLength(1);
    expect(plan.add[0]!.server.transport).toEqual({
      type: "http",
      url: "https://mcp.linear.app/mcp",
      headers: { Authorization: { secret: true }, "X-Team": { value: "core" } },
    });
    expect(plan.add[0]!.secrets).toEqual({ Authorization: "Bearer lin_api_example" });
    expect(plan.skipped).toEqual([{ name: "legacy", reason: expect.stringContaining("older SSE transport") }]);
  });

  it("takes the inside of mcpServers pasted alone, VS Code's `servers`, and Cline's `disabled`", () => {
    expect(planMcpImport('{ "time": { "command": "uvx", "args": ["mcp-server-time"], "disabled": true } }', []).add[0]!.server)
      .toMatchObject({ id: "time", enabled: false });
    expect(planMcpImport('{ "servers": { "fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] } } }', []).add[0]!.server.id)
      .toBe("fetch");
  });

  it("accepts a file that starts with a byte-order mark", () => {
    expect(planMcpImport(`\uFEFF${CLAUDE_DESKTOP}`, []).add).toHaveLength(5);
  });
});

describe("what an import leaves out", () => {
  it("refuses text that is not JSON, saying so", () => {
    expect(() => planMcpImport('{ "mcpServers": { "github": { "command": "npx", } }', [])).toThrow(McpImportError);
    expect(() => planMcpImport('"github": { "command": "npx" }', [])).toThrow(/not valid JSON/);
  });

  it("refuses JSON that holds no servers", () => {
    expect(() => planMcpImport("[1, 2]", [])).toThrow(/object with an "mcpServers" entry/);
    expect(() => planMcpImport('{ "theme": "dark" }', [])).toThrow(/No "mcpServers" entry/);
    expect(() => planMcpImport('{ "mcpServers": {} }', [])).toThrow(/lists no servers/);
    expect(() => planMcpImport('{ "mcpServers": ["npx"] }', [])).toThrow(/map each server's name/);
  });

  it("skips servers already in Settings, by name or by what they run, and adds the rest", () => {
    const existing = [
      server({ id: "github", name: "GitHub", transport: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: {} } }),
      server({ id: "files", name: "My files", transport: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"], env: {} } }),
    ];
    const plan = planMcpImport(CLAUDE_DESKTOP, existing);
    expect(plan.skipped).toEqual([
      { name: "filesystem", reason: 'it runs the same command as "My files", already in Settings' },
      { name: "github", reason: 'a server called "github" is already in Settings' },
    ]);
    expect(plan.add.map((a) => a.server.id)).toEqual(["brave-search", "git", "windows-node"]);
  });

  it("skips a second server that runs the same thing within one file", () => {
    const text = JSON.stringify({ mcpServers: { a: { command: "uvx", args: ["x"] }, b: { command: "uvx", args: ["x"] } } });
    expect(planMcpImport(text, []).skipped).toEqual([{ name: "b", reason: 'it runs the same command as "a", earlier in this file' }]);
  });

  it("gives a taken id a number rather than colliding", () => {
    const existing = [server({ id: "git", name: "Git (old)", transport: { type: "http", url: "https://git.example.com/mcp", headers: {} } })];
    expect(planMcpImport(CLAUDE_DESKTOP, existing).add.find((a) => a.server.name === "git")!.server.id).toBe("git-2");
  });

  it("skips a server with a bad field, with the reason, and still adds the good ones", () => {
    const text = JSON.stringify({
      mcpServers: {
        good: { command: "node", args: ["server.js"] },
        numbers: { command: "node", args: ["server.js", 3000] },
        "env-number": { command: "node", env: { PORT: 3000 } },
        "bad-env-name": { command: "node", env: { "MY-VAR": "x" } },
        relative: { command: "node", cwd: "projects/x" },
        spaced: { command: "npx -y some-server" },
        nothing: { args: ["x"] },
        both: { command: "node", url: "https://x.example.com" },
        "not-object": "npx some-server",
        weird: { type: "websocket", url: "wss://x" },
        badurl: { url: "ftp://files.example.com" },
      },
    });
    const plan = planMcpImport(text, []);
    expect(plan.add.map((a) => a.server.name)).toEqual(["good"]);
    expect(Object.fromEntries(plan.skipped.map((s) => [s.name, s.reason]))).toEqual({
      numbers: "its args are not a list of text",
      "env-number": "the value of env PORT is not text",
      "bad-env-name": "MY-VAR: A variable's name has letters, digits and _ only, and does not start with a digit",
      relative: "Give the folder's full path, or leave it empty",
      spaced: "Only the program goes here; put each argument on its own line under Arguments",
      nothing: "it has neither a command to run nor a url",
      both: "it has both a command and a url",
      "not-object": "it is not a server's settings (an object with a command or a url)",
      weird: 'its type "websocket" is not one Paddock knows (stdio or http)',
      badurl: "The address must start with http:// or https://",
    });
  });

  it("keeps an empty value plain even when its name looks secret (there is nothing to hide)", () => {
    const plan = planMcpImport(JSON.stringify({ mcpServers: { s: { command: "node", env: { API_KEY: "" } } } }), []);
    expect(plan.add[0]!.server.transport).toMatchObject({ env: { API_KEY: { value: "" } } });
    expect(plan.add[0]!.secrets).toEqual({});
  });

  it("stops at Settings' limit of servers, saying why", () => {
    const existing = Array.from({ length: 49 }, (_, i) =>
      server({ id: `s${i}`, name: `S${i}`, transport: { type: "http", url: `https://s${i}.example.com/mcp`, headers: {} } }));
    const plan = planMcpImport(CLAUDE_DESKTOP, existing);
    expect(plan.add).toHaveLength(1);
    expect(plan.skipped).toHaveLength(4);
    expect(plan.skipped[0]!.reason).toBe("Settings hold at most 50 servers");
  });

  it("does not change what it was given", () => {
    const existing = [server({ id: "x", name: "X", transport: { type: "http", url: "https://x.example.com/mcp", headers: {} } })];
    const before = JSON.stringify(existing);
    planMcpImport(CLAUDE_DESKTOP, existing);
    expect(JSON.stringify(existing)).toBe(before);
  });
});
