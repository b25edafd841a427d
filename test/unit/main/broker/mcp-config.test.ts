import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyMcpSecretBinding, McpConfig } from "../../../../src/main/broker/mcp-config";
import { SecretStore, type Cipher } from "../../../../src/main/broker/secrets";
import { SettingsStore } from "../../../../src/main/broker/settings-store";
import { dispatchAppCall } from "../../../../src/main/broker/app-call";
import type { McpServerConfig } from "../../../../src/shared/mcp/server-config";
import type { AppApi } from "../../../../src/shared/protocol/app-api";

/** A stand-in for safeStorage: the bytes on disk are not the secret. */
function flipCipher(available = true): Cipher {
  const flip = (data: Buffer) => Buffer.from(data.map((b) => b ^ 0x33));
  return {
    isAvailable: () => available,
    encrypt: (plain) => flip(Buffer.from(plain, "utf8")),
    decrypt: (data) => flip(data).toString("utf8"),
  };
}

const TOKEN = "ghp_supersecret_0123456789";

const GITHUB: McpServerConfig = {
  id: "github",
  name: "GitHub",
  enabled: true,
  trusted: false,
  transport: {
    type: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-github"],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: { secret: true }, LOG_LEVEL: { value: "debug" } },
  },
};

const LINEAR: McpServerConfig = {
  id: "linear",
  name: "Linear",
  enabled: true,
  trusted: true,
  transport: { type: "http", url: "https://mcp.linear.app/mcp", headers: { Authorization: { secret: true } } },
};

let dir: string;
let changes: string[][];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-mcp-config-"));
  changes = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Main as it starts (core.ts): the settings and secrets files of `dir`, and the McpConfig over them. */
function open(cipher: Cipher = flipCipher()) {
  const settings = SettingsStore.open({ cwd: dir });
  const secrets = SecretStore.open(join(dir, "secrets.json"), cipher, { originOf: (key) => legacyMcpSecretBinding(key, settings.get().mcpServers) });
  const config = new McpConfig(settings, secrets);
  config.onChange((ids) => changes.push([...ids]));
  return { settings, secrets, config };
}

const settingsFile = () => readFileSync(join(dir, "settings.json"), "utf8");
const secretsFile = () => readFileSync(join(dir, "secrets.json"), "utf8");

describe("McpConfig", () => {
  it("keeps secrets out of settings.json, and gives the runtime the whole config after a restart", () => {
    const first = open();
    first.config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN });
    expect(changes).toEqual([["github"]]);
    expect(settingsFile()).not.toContain(TOKEN);
    expect(JSON.parse(settingsFile()).mcpServers[0].transport.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: { secret: true }, LOG_LEVEL: { value: "debug" } });
    expect(secretsFile()).not.toContain(TOKEN);

    const restarted = open();
    expect(restarted.config.servers()).toEqual([GITHUB]);
    expect(restarted.config.resolveServerConfig("github")).toEqual({
      id: "github",
      name: "GitHub",
      enabled: true,
      trusted: false,
      transport: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN, LOG_LEVEL: "debug" } },
      missingSecrets: [],
    });
    expect(restarted.config.resolveServerConfig("nope")).toBeUndefined();
  });

  it("tells pages only which secrets are set", () => {
    const { config } = open();
    config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN });
    config.save(LINEAR, {});
    expect(config.secretStatus()).toEqual([{ id: "github", set: ["GITHUB_PERSONAL_ACCESS_TOKEN"] }, { id: "linear", set: [] }]);
    expect(JSON.stringify(config.secretStatus())).not.toContain(TOKEN);
  });

  it("names secrets it does not have instead of passing them empty", () => {
    const { config } = open();
    config.save(LINEAR, {});
    expect(config.resolveServerConfig("linear")).toMatchObject({ transport: { headers: {} }, missingSecrets: ["header Authorization"] });
  });

  it("keeps a stored secret when an edit leaves it out, and forgets it when the entry goes or turns plain", () => {
    const { config, secrets } = open();
    config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN });
    config.save({ ...GITHUB, enabled: false }, {});
    expect(config.resolveServerConfig("github")?.transport).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN } });

    const plain: McpServerConfig = { ...GITHUB, transport: { ...GITHUB.transport, env: { GITHUB_PERSONAL_ACCESS_TOKEN: { value: "public" } } } as McpServerConfig["transport"] };
    config.save(plain, {});
    expect(secrets.providers()).toEqual([]);
    expect(config.resolveServerConfig("github")?.transport).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: "public" } });
  });

  it("removes a server with its secrets", () => {
    const { config, secrets } = open();
    config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN });
    config.save(LINEAR, { Authorization: "Bearer lin" });
    config.remove("github");
    expect(config.servers().map((s) => s.id)).toEqual(["linear"]);
    expect(secrets.providers()).toEqual(["mcp:linear:header:Authorization"]);
    expect(changes.at(-1)).toEqual(["github"]);
    expect(() => config.remove("github")).toThrow(/no such MCP server/);
  });

  it("refuses a secret for an entry that is not marked secret, storing nothing", () => {
    const { config, secrets } = open();
    expect(() => config.save(GITHUB, { LOG_LEVEL: "x" })).toThrow(/LOG_LEVEL is not one of this server's env variables marked secret/);
    expect(config.servers()).toEqual([]);
    expect(secrets.providers()).toEqual([]);
  });

  it("refuses a server that breaks Settings' rules before storing its secrets", () => {
    const { config, secrets } = open();
    config.save(GITHUB, {});
    const twin = { ...GITHUB, id: "github-2" };
    expect(() => config.save(twin, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN })).toThrow(/the name "GitHub" is used twice/);
    expect(secrets.providers()).toEqual([]);
    expect(config.servers()).toEqual([GITHUB]);
    expect(changes).toEqual([["github"]]);
  });

  it("says so, and changes nothing, where secrets cannot be stored", () => {
    const { config } = open(flipCipher(false));
    expect(() => config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN })).toThrow(/secret values could not be stored, so nothing was saved: This system offers no secure storage/);
    expect(config.servers()).toEqual([]);
    expect(existsSync(join(dir, "settings.json")) ? settingsFile() : "").not.toContain("github");
  });

  it("imports a Claude Desktop config with its env secrets in the secret store", () => {
    const { config } = open();
    config.save(GITHUB, {});
    const outcome = config.import(JSON.stringify({
      mcpServers: {
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "x" } },
        "brave-search": { command: "npx", args: ["-y", "@modelcontextprotocol/server-brave-search"], env: { BRAVE_API_KEY: "BSA-secret-key" } },
      },
    }));
    expect(outcome.added).toEqual(["brave-search"]);
    expect(outcome.skipped).toEqual([{ name: "github", reason: 'a server called "github" is already in Settings' }]);
    expect(outcome.settings.mcpServers.map((s) => s.id)).toEqual(["github", "brave-search"]);
    expect(settingsFile()).not.toContain("BSA-secret-key");
    expect(config.resolveServerConfig("brave-search")?.transport).toMatchObject({ env: { BRAVE_API_KEY: "BSA-secret-key" } });
    expect(changes.at(-1)).toEqual(["brave-search"]);
  });

  it("refuses text that is not a config, changing nothing", () => {
    const { config } = open();
    expect(() => config.import("{ not json")).toThrow(/not valid JSON/);
    expect(config.servers()).toEqual([]);
  });

  it("forgets, at start, secrets of servers removed while it was not running", () => {
    const { config, secrets } = open();
    config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN });
    secrets.set("mcp:gone:env:TOKEN", "old", "program:0");
    const restarted = open();
    expect(restarted.secrets.providers()).toEqual(["mcp:github:env:GITHUB_PERSONAL_ACCESS_TOKEN"]);
  });

  it("reads a settings file from before MCP servers as having none, without a notice", () => {
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ version: 2, theme: "dark" }));
    const { settings, config } = open();
    expect(config.servers()).toEqual([]);
    expect(settings.get().theme).toBe("dark");
    expect(settings.notices).toEqual([]);
  });

  it("keeps the good servers of a damaged settings file and sets the file aside", () => {
    open().config.save(GITHUB, {});
    const raw = JSON.parse(settingsFile());
    raw.mcpServers.push({ id: "Bad Id!", name: "bad", enabled: true, trusted: false, transport: { type: "stdio", command: "x", args: [], env: {} } });
    raw.mcpServers.push({ ...LINEAR, transport: { ...LINEAR.transport, headers: { Authorization: "in the clear" } } });
    writeFileSync(join(dir, "settings.json"), JSON.stringify(raw));
    const { settings, config } = open();
    expect(config.servers()).toEqual([GITHUB]);
    expect(settings.notices[0]?.text).toMatch(/was saved as .*corrupt.* and its valid settings were kept/);
  });
});

describe("secrets bound to where they were saved for", () => {
  const moved = (server: McpServerConfig, transport: Partial<McpServerConfig["transport"]>): McpServerConfig =>
    ({ ...server, transport: { ...server.transport, ...transport } }) as McpServerConfig;

  it("an HTTP server's secret header does not follow its URL to another origin, and Settings says so", () => {
    const { config } = open();
    config.save(LINEAR, { Authorization: "Bearer lin" });
    expect(config.resolveServerConfig("linear")?.transport).toMatchObject({ headers: { Authorization: "Bearer lin" } });
    // Another path on the same origin keeps it.
    config.save(moved(LINEAR, { url: "https://mcp.linear.app/v2/mcp" }), {});
    expect(config.resolveServerConfig("linear")?.transport).toMatchObject({ headers: { Authorization: "Bearer lin" } });
    // Another host, scheme or port: no header, named as missing, and saved for elsewhere.
    for (const url of ["https://attacker.example/mcp", "http://mcp.linear.app/mcp", "https://mcp.linear.app:8443/mcp"]) {
      config.save(moved(LINEAR, { url }), {});
      expect(config.resolveServerConfig("linear")).toMatchObject({ transport: { url, headers: {} }, missingSecrets: ["header Authorization"] });
      expect(config.secretStatus()).toEqual([{ id: "linear", set: [], savedElsewhere: ["Authorization"] }]);
    }
    // Entered again for the new address, it goes there (and only there).
    config.save(moved(LINEAR, { url: "https://attacker.example/mcp" }), { Authorization: "Bearer new" });
    expect(config.resolveServerConfig("linear")?.transport).toMatchObject({ headers: { Authorization: "Bearer new" } });
    expect(config.secretStatus()).toEqual([{ id: "linear", set: ["Authorization"] }]);
    config.save(LINEAR, {});
    expect(config.resolveServerConfig("linear")?.transport).toMatchObject({ headers: {} });
  });

  it("a URL changed by hand in settings.json gets no secret either", () => {
    open().config.save(LINEAR, { Authorization: "Bearer lin" });
    const raw = JSON.parse(settingsFile());
    raw.mcpServers[0].transport.url = "https://attacker.example/mcp";
    writeFileSync(join(dir, "settings.json"), JSON.stringify(raw));
    expect(open().config.resolveServerConfig("linear")).toMatchObject({ transport: { headers: {} }, missingSecrets: ["header Authorization"] });
  });

  it("a stdio server's secret env value does not go to another command, arguments or folder; changing back finds it", () => {
    const { config } = open();
    config.save(GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN });
    const stdio = GITHUB.transport as Extract<McpServerConfig["transport"], { type: "stdio" }>;
    for (const change of [{ command: "/tmp/evil" }, { args: ["-y", "evil-package"] }, { cwd: "/tmp/evil" }]) {
      config.save(moved(GITHUB, change), {});
      expect(config.resolveServerConfig("github")).toMatchObject({ transport: { env: { LOG_LEVEL: "debug" } }, missingSecrets: ["env GITHUB_PERSONAL_ACCESS_TOKEN"] });
      expect(JSON.stringify(config.resolveServerConfig("github"))).not.toContain(TOKEN);
    }
    config.save(moved(GITHUB, { args: [...stdio.args] }), {});
    expect(config.resolveServerConfig("github")?.transport).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN } });
  });

  it("binds secrets saved before they were bound to their server's current address on upgrade", () => {
    open().config.save(LINEAR, {});
    // A secrets file as the last version wrote it: the value with no binding.
    writeFileSync(join(dir, "secrets.json"), JSON.stringify({
      version: 2,
      keys: { "mcp:linear:header:Authorization": { data: flipCipher().encrypt("Bearer old").toString("base64") } },
    }));
    const upgraded = open();
    expect(upgraded.secrets.boundOrigin("mcp:linear:header:Authorization")).toBe("https://mcp.linear.app");
    expect(upgraded.config.resolveServerConfig("linear")?.transport).toMatchObject({ headers: { Authorization: "Bearer old" } });
    upgraded.config.save(moved(LINEAR, { url: "https://attacker.example/mcp" }), {});
    expect(upgraded.config.resolveServerConfig("linear")?.transport).toMatchObject({ headers: {} });
  });
});

describe("the MCP config calls a page makes", () => {
  const calls: unknown[][] = [];
  const api = {
    saveMcpServer: async (...args: unknown[]) => void calls.push(args),
    removeMcpServer: async (...args: unknown[]) => void calls.push(args),
    importMcpServers: async (...args: unknown[]) => void calls.push(args),
  } as unknown as AppApi;

  it("are checked against their schemas before main sees them", async () => {
    await dispatchAppCall(api, "saveMcpServer", [GITHUB, { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN }]);
    expect(calls).toHaveLength(1);
    const clearSecret = { ...GITHUB, transport: { ...GITHUB.transport, env: { TOKEN: TOKEN } } };
    await expect(dispatchAppCall(api, "saveMcpServer", [clearSecret, {}])).rejects.toThrow(/saveMcpServer: invalid arguments/);
    await expect(dispatchAppCall(api, "saveMcpServer", [{ ...GITHUB, id: "../x" }, {}])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(api, "saveMcpServer", [{ ...GITHUB, extra: 1 }, {}])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(api, "removeMcpServer", ["UPPER"])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(api, "importMcpServers", [""])).rejects.toThrow(/invalid arguments/);
    // Every key of a map is checked, not only those that look right (TypeBox's records check matching keys alone).
    const badEnv = { ...GITHUB, transport: { ...GITHUB.transport, env: { "PATH=/tmp/evil:$PATH": { value: "x" } } } };
    await expect(dispatchAppCall(api, "saveMcpServer", [badEnv, {}])).rejects.toThrow(/env: key\(s\) not allowed: "PATH=/);
    const badHeader = { ...LINEAR, transport: { ...LINEAR.transport, headers: { "X-A\r\nHost: evil.example": { value: "x" } } } };
    await expect(dispatchAppCall(api, "saveMcpServer", [badHeader, {}])).rejects.toThrow(/saveMcpServer: invalid arguments/);
    await expect(dispatchAppCall(api, "saveMcpServer", [GITHUB, { "": TOKEN }])).rejects.toThrow(/key\(s\) not allowed: ""/);
    expect(calls).toHaveLength(1);
  });
});
