import { describe, expect, it } from "vitest";
import {
  configToDraft,
  draftProblems,
  draftToConfig,
  emptyDraft,
  looksSecret,
  secretsTargetMoved,
  serverIdFrom,
  type McpServerDraft,
} from "../../../../src/shared/mcp/server-fields";
import { chatOptionsProblem, hasChatOptions, normalizeChatOptions } from "../../../../src/shared/protocol/chat-options";
import { missingSecrets, stateLabel, transportSummary } from "../../../../src/renderer/components/settings/mcp/mcp-server-text";
import type { McpServerConfig } from "../../../../src/shared/mcp/server-config";
import type { McpServerStatus } from "../../../../src/shared/protocol/mcp-status";

const stdio = (patch: Partial<McpServerDraft> = {}): McpServerDraft => ({ ...emptyDraft("stdio"), name: "Everything", command: "node", ...patch });

describe("a server draft's problems, in words", () => {
  it("has none when the fields are filled in properly", () => {
    expect(draftProblems(stdio({ args: "server.js\n\nstdio", cwd: "/srv/mcp" }), [])).toEqual({});
    expect(draftProblems({ ...emptyDraft("http"), name: "Remote", url: "https://example.com/mcp" }, [])).toEqual({});
  });

  it("names each field that is wrong", () => {
    expect(draftProblems(stdio({ name: " ", command: "", cwd: "relative/dir" }), [])).toEqual({
      name: "Give the server a name.",
      command: "Enter the program to run, such as npx, uvx or a full path.",
      cwd: "Give the folder's full path, or leave it empty.",
    });
    expect(draftProblems(stdio({ command: "npx -y server-github" }), []).command).toMatch(/put each argument on its own line/);
    expect(draftProblems(stdio({ name: "everything" }), ["Everything"]).name).toBe('Another server is called "everything".');
    expect(draftProblems({ ...emptyDraft("http"), name: "R", url: "example.com/mcp" }, []).url).toMatch(/not a web address/);
    expect(draftProblems({ ...emptyDraft("http"), name: "R", url: "file:///etc/passwd" }, []).url).toMatch(/must start with http/);
  });

  it("checks each env variable and header row, and a secret that has no value yet", () => {
    const problems = draftProblems(stdio({
      entries: [
        { name: "OK_NAME", value: "1", secret: false, stored: false },
        { name: "1BAD", value: "", secret: false, stored: false },
        { name: "OK_NAME", value: "2", secret: false, stored: false },
        { name: "TOKEN", value: "", secret: true, stored: false },
        { name: "KEPT", value: "", secret: true, stored: true },
        { name: "", value: "x", secret: false, stored: false },
      ],
    }), []);
    expect(problems.entries).toEqual({
      1: "A variable's name has letters, digits and _ only, and does not start with a digit.",
      2: "OK_NAME is given twice.",
      3: "Enter the secret value (it is stored encrypted and not shown again).",
      5: "Give the variable a name, or remove the row.",
    });
    // Which rows the editor marks on their value rather than their name.
    expect(problems.entryValues).toEqual([3]);
    const headers = draftProblems({ ...emptyDraft("http"), name: "R", url: "https://x.example.com", entries: [
      { name: "Authorization", value: "a", secret: false, stored: false },
      { name: "authorization", value: "b", secret: false, stored: false },
      { name: "Bad Header", value: "c", secret: false, stored: false },
    ] }, []);
    expect(headers.entries).toEqual({ 1: "authorization is given twice.", 2: "A header's name has no spaces, colons or quotes." });
  });
});

describe("drafts and configs", () => {
  it("sends secret values apart from the config, and only new ones", () => {
    const { server, secrets } = draftToConfig(stdio({
      id: "everything",
      args: "dist/index.js\nstdio\n",
      entries: [
        { name: "API_KEY", value: " sk-1 ", secret: true, stored: false },
        { name: "KEPT", value: "", secret: true, stored: true },
        { name: "MODE", value: "fast", secret: false, stored: false },
      ],
    }));
    expect(server).toEqual({
      id: "everything",
      name: "Everything",
      enabled: true,
      trusted: false,
      transport: { type: "stdio", command: "node", args: ["dist/index.js", "stdio"], env: { API_KEY: { secret: true }, KEPT: { secret: true }, MODE: { value: "fast" } } },
    });
    expect(secrets).toEqual({ API_KEY: "sk-1" });
  });

  it("round-trips a stored server through the editor, secrets shown only as set or not", () => {
    const server: McpServerConfig = {
      id: "linear", name: "Linear", enabled: false, trusted: true,
      transport: { type: "http", url: "https://mcp.linear.app/mcp", headers: { Authorization: { secret: true }, "X-Team": { value: "core" } } },
    };
    const draft = configToDraft(server, ["Authorization"]);
    expect(draft.entries).toEqual([
      { name: "Authorization", value: "", secret: true, stored: true },
      { name: "X-Team", value: "core", secret: false, stored: false },
    ]);
    expect(draftToConfig(draft)).toEqual({ server, secrets: {} });
  });

  it("makes ids from names, unique and within the pattern", () => {
    expect(serverIdFrom("GitHub", [])).toBe("github");
    expect(serverIdFrom("Brave Search (API)", [])).toBe("brave-search-api");
    expect(serverIdFrom("github", ["github", "github-2"])).toBe("github-3");
    expect(serverIdFrom("🚀", [])).toBe("server");
    expect(serverIdFrom("x".repeat(100), []).length).toBeLessThanOrEqual(36);
  });

  it("guesses which names hold secrets", () => {
    for (const name of ["GITHUB_PERSONAL_ACCESS_TOKEN", "BRAVE_API_KEY", "Authorization", "DB_PASSWORD", "Cookie", "AWS_SECRET_ACCESS_KEY"]) {
      expect(looksSecret(name), name).toBe(true);
    }
    for (const name of ["LOG_LEVEL", "NODE_ENV", "X-Team", "ALLOWED_DIRS"]) expect(looksSecret(name), name).toBe(false);
  });

  it("knows when an edit sends stored secrets elsewhere: another origin, command, arguments or folder", () => {
    const http = { ...emptyDraft("http"), url: "https://mcp.example.com/mcp" };
    expect(secretsTargetMoved(http, { ...http, url: "https://mcp.example.com/v2" })).toBe(false);
    for (const url of ["https://evil.example/mcp", "http://mcp.example.com/mcp", "https://mcp.example.com:444/mcp", "not a url"]) {
      expect(secretsTargetMoved(http, { ...http, url }), url).toBe(true);
    }
    const stdio = { ...emptyDraft("stdio"), command: "npx", args: "-y\nserver" };
    expect(secretsTargetMoved(stdio, { ...stdio, args: "-y\n\nserver\n", name: "renamed" })).toBe(false);
    for (const change of [{ command: "/tmp/evil" }, { args: "-y\nevil" }, { cwd: "/tmp" }]) expect(secretsTargetMoved(stdio, { ...stdio, ...change })).toBe(true);
  });
});

describe("how Settings words a server", () => {
  const server: McpServerConfig = {
    id: "e", name: "E", enabled: true, trusted: false,
    transport: { type: "stdio", command: "node", args: ["/opt/my server/index.js", "stdio"], env: { TOKEN: { secret: true }, A: { value: "1" } } },
  };
  const status = (patch: Partial<McpServerStatus>): McpServerStatus => ({ id: "e", state: "ready", tools: [], stderrTail: "", restarts: 0, ...patch });

  it("labels each state", () => {
    const tool = { name: "echo", agentName: "e__echo", description: "Echoes", readOnly: true };
    expect(stateLabel(server, status({ tools: [tool, tool] }))).toEqual({ text: "Ready · 2 tools", tone: "ok" });
    expect(stateLabel(server, status({ tools: [tool] })).text).toBe("Ready · 1 tool");
    expect(stateLabel(server, status({ state: "starting" }))).toEqual({ text: "Starting…", tone: "busy" });
    expect(stateLabel(server, status({ state: "failed" }))).toEqual({ text: "Failed", tone: "bad" });
    expect(stateLabel(server, status({ state: "restarting", restarts: 2 })).text).toBe("Restarting (crashed 2×)");
    expect(stateLabel({ enabled: false }, status({}))).toEqual({ text: "Disabled", tone: "off" });
    expect(stateLabel(server, undefined)).toEqual({ text: "Not started", tone: "off" });
  });

  it("shows what it runs, quoting arguments with spaces, and which secrets are missing", () => {
    expect(transportSummary(server)).toBe('node "/opt/my server/index.js" stdio');
    expect(missingSecrets(server, [])).toEqual(["TOKEN"]);
    expect(missingSecrets(server, ["TOKEN"])).toEqual([]);
  });
});

describe("a chat's choice of MCP servers", () => {
  it("is checked like the chat's other options, and kept without repeats", () => {
    expect(chatOptionsProblem({ mcpServers: ["a", "c"] })).toBeUndefined();
    expect(chatOptionsProblem({ mcpServers: "a" })).toMatch(/MCP servers must be a list/);
    expect(chatOptionsProblem({ mcpServers: ["../x"] })).toMatch(/MCP servers must be a list/);
    expect(normalizeChatOptions({ mcpServers: ["a", "a", "c"] })).toEqual({ mcpServers: ["a", "c"] });
    // A choice of its own (even none) marks the chat as differing from the defaults.
    expect(hasChatOptions({ mcpServers: [] })).toBe(true);
  });
});
