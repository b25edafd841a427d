/**
 * Main's keeper of MCP server configs (issue 14 §1): the list in settings.json, their secret values in the secret
 * store (secrets.ts: safeStorage in the app, like API keys), and the one place they meet, `resolveServerConfig`, which
 * only the MCP runtime calls. Electron-free.
 *
 * What it promises: settings.json holds secret entries only as `{ secret: true }`; a page learns only which secrets
 * are set (`secretStatus`); a server's secrets leave the store with it (removal, an entry made plain or dropped, and
 * at start for servers removed while Paddock was not running). A change that fails validation or storage changes
 * nothing.
 */
import { planMcpImport } from "../../shared/mcp/claude-config-import";
import type { McpImportOutcome, McpSecretStatus } from "../../shared/mcp/config-api";
import { mcpSecretKey, mcpSecretPrefix, type McpSecretPlace, type McpServerConfig, type ResolvedMcpServerConfig } from "../../shared/mcp/server-config";
import { secretNames } from "../../shared/mcp/server-fields";
import { validateSettings, type Settings } from "../../shared/settings/schema";
import { Listeners } from "../../shared/transport/transport";
import type { SecretStore } from "./secrets";
import type { SettingsStore } from "./settings-store";

type Secrets = Pick<SecretStore, "get" | "set" | "has" | "forget" | "providers">;

/** Where a server's secret entries live: env variables for stdio, headers for HTTP. */
function placeOf(server: McpServerConfig): McpSecretPlace {
  return server.transport.type === "stdio" ? "env" : "header";
}

/**
 * The server with every value filled in from `secrets`. Secret entries without a readable value are left out and
 * named in `missingSecrets`. The result holds secrets: hand it only to the MCP runtime, never to a page or a log.
 */
export function resolveMcpServer(server: McpServerConfig, secrets: Pick<SecretStore, "get">): ResolvedMcpServerConfig {
  const missingSecrets: string[] = [];
  const place = placeOf(server);
  const t = server.transport;
  const fill = (values: Record<string, { value: string } | { secret: true }>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(values)) {
      if ("value" in v) out[name] = v.value;
      else {
        const stored = secrets.get(mcpSecretKey(server.id, place, name));
        if (stored === undefined) missingSecrets.push(`${place} ${name}`);
        else out[name] = stored;
      }
    }
    return out;
  };
  const transport: ResolvedMcpServerConfig["transport"] = t.type === "stdio"
    ? { type: "stdio", command: t.command, args: [...t.args], env: fill(t.env), ...(t.cwd !== undefined ? { cwd: t.cwd } : {}) }
    : { type: "http", url: t.url, headers: fill(t.headers) };
  return { id: server.id, name: server.name, enabled: server.enabled, trusted: server.trusted, transport, missingSecrets };
}

export class McpConfig {
  readonly #settings: SettingsStore;
  readonly #secrets: Secrets;
  readonly #changes = new Listeners<[readonly string[]]>();

  constructor(settings: SettingsStore, secrets: Secrets) {
    this.#settings = settings;
    this.#secrets = secrets;
    this.#forgetOrphanedSecrets();
  }

  /** The configured servers, in Settings' order (secrets as references). */
  servers(): readonly McpServerConfig[] {
    return this.#settings.get().mcpServers;
  }

  /** The server with its secrets filled in (resolveMcpServer), or undefined for an unknown id. For the MCP runtime only. */
  resolveServerConfig(id: string): ResolvedMcpServerConfig | undefined {
    const server = this.servers().find((s) => s.id === id);
    return server && resolveMcpServer(server, this.#secrets);
  }

  /**
   * Calls `listener` with the ids of servers whose config or secrets changed (added, edited, removed), after the
   * change is saved. The runtime restarts or stops those. Must not throw. Returns the unsubscribe function.
   */
  onChange(listener: (ids: readonly string[]) => void): () => void {
    return this.#changes.add(listener);
  }

  /** AppApi's `saveMcpServer` (config-api.ts). */
  save(server: McpServerConfig, secretValues: Readonly<Record<string, string>>): Settings {
    const secretEntries = secretNames(server);
    for (const name of Object.keys(secretValues)) {
      if (!secretEntries.includes(name)) throw new Error(`${name} is not one of this server's ${placeOf(server) === "env" ? "env variables" : "headers"} marked secret`);
    }
    const current = this.servers();
    const at = current.findIndex((s) => s.id === server.id);
    const next = at < 0 ? [...current, server] : current.map((s, i) => (i === at ? server : s));
    this.#check(next);
    const place = placeOf(server);
    this.#storeSecrets(Object.entries(secretValues).map(([name, value]) => [mcpSecretKey(server.id, place, name), value]));
    const settings = this.#settings.setMcpServers(next);
    // What the old config had and this one has not (an entry dropped or made plain, stdio <-> http).
    const keep = new Set(secretEntries.map((name) => mcpSecretKey(server.id, place, name)));
    this.#secrets.forget(this.#secrets.providers().filter((key) => key.startsWith(mcpSecretPrefix(server.id)) && !keep.has(key)));
    this.#changes.emit([server.id]);
    return settings;
  }

  /** AppApi's `removeMcpServer`. */
  remove(id: string): Settings {
    if (!this.servers().some((s) => s.id === id)) throw new Error("There is no such MCP server (it may have been removed already)");
    const settings = this.#settings.setMcpServers(this.servers().filter((s) => s.id !== id));
    this.#secrets.forget(this.#secrets.providers().filter((key) => key.startsWith(mcpSecretPrefix(id))));
    this.#changes.emit([id]);
    return settings;
  }

  /** AppApi's `mcpSecretStatus`: names only, never values. */
  secretStatus(): McpSecretStatus[] {
    return this.servers().map((server) => ({
      id: server.id,
      set: secretNames(server).filter((name) => this.#secrets.has(mcpSecretKey(server.id, placeOf(server), name))),
    }));
  }

  /** AppApi's `importMcpServers`: the plan of claude-config-import.ts, done; nothing changes when it cannot all be. */
  import(text: string): McpImportOutcome {
    const current = this.servers();
    const plan = planMcpImport(text, current);
    const added = plan.add.map((item) => item.server);
    if (added.length === 0) return { settings: this.#settings.get(), added: [], skipped: plan.skipped };
    const next = [...current, ...added];
    this.#check(next);
    this.#storeSecrets(plan.add.flatMap(({ server, secrets }) =>
      Object.entries(secrets).map(([name, value]): [string, string] => [mcpSecretKey(server.id, placeOf(server), name), value])));
    const settings = this.#settings.setMcpServers(next);
    this.#changes.emit(added.map((s) => s.id));
    return { settings, added: added.map((s) => s.name), skipped: plan.skipped };
  }

  /** Throws a readable Error when `servers` would not be valid settings. */
  #check(servers: readonly McpServerConfig[]): void {
    const result = validateSettings({ ...this.#settings.get(), mcpServers: servers });
    if (!result.ok) throw new Error(`The MCP server was not saved: ${result.errors.join("; ")}`);
  }

  /** Stores every value or none: a failure puts back what was there before. */
  #storeSecrets(entries: readonly [string, string][]): void {
    const done: [string, string | undefined][] = [];
    try {
      for (const [key, value] of entries) {
        const before = this.#secrets.get(key);
        this.#secrets.set(key, value);
        done.push([key, before]);
      }
    } catch (error) {
      for (const [key, before] of done.reverse()) {
        try {
          this.#secrets.set(key, before ?? null);
        } catch {
          // Best effort: the store refused a write a moment ago; what is left is a stray secret, not a lost config.
        }
      }
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`The secret values could not be stored, so nothing was saved: ${why.replace(/ for API keys; set the provider's environment variable instead$/, "")}`, { cause: error });
    }
  }

  /** Secrets of servers that are gone, or of entries that are no longer secret (edited while Paddock was not running). */
  #forgetOrphanedSecrets(): void {
    const wanted = new Set(this.servers().flatMap((s) => secretNames(s).map((name) => mcpSecretKey(s.id, placeOf(s), name))));
    this.#secrets.forget(this.#secrets.providers().filter((key) => key.startsWith("mcp:") && !wanted.has(key)));
  }
}
