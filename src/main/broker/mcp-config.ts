/**
 * Main's keeper of MCP server configs (issue 14 §1): the list in settings.json, their secret values in the secret
 * store (secrets.ts: safeStorage in the app, like API keys), and the one place they meet, `resolveServerConfig`, which
 * only the MCP runtime calls. Electron-free.
 *
 * What it promises: settings.json holds secret entries only as `{ secret: true }`; a page learns only which secrets
 * are set (`secretStatus`); a server's secrets leave the store with it (removal, an entry made plain or dropped, and
 * at start for servers removed while Paddock was not running). A secret goes only where it was saved for
 * (`mcpSecretBinding`): a server whose address moves to another origin, or whose program changes, gets none until
 * it is entered again. A change that fails validation or storage changes nothing.
 */
import { createHash } from "node:crypto";
import { planMcpImport } from "../../shared/mcp/claude-config-import";
import type { McpImportOutcome, McpSecretStatus } from "../../shared/mcp/config-api";
import { endpointOrigin } from "./endpoint-keys";
import { mcpSecretKey, mcpSecretPrefix, parseMcpSecretKey, type McpSecretPlace, type McpServerConfig, type ResolvedMcpServerConfig } from "../../shared/mcp/server-config";
import { secretNames } from "../../shared/mcp/server-fields";
import { validateSettings, type Settings } from "../../shared/settings/schema";
import { Listeners } from "../../shared/transport/transport";
import type { SecretStore } from "./secrets";
import type { SettingsStore } from "./settings-store";

type Secrets = Pick<SecretStore, "get" | "set" | "has" | "forget" | "providers" | "boundOrigin">;

/** Where a server's secret entries live: env variables for stdio, headers for HTTP. */
function placeOf(server: McpServerConfig): McpSecretPlace {
  return server.transport.type === "stdio" ? "env" : "header";
}

/**
 * What a server's secrets are bound to when saved (the secret store keeps it with each value), and must still be
 * bound to when main hands them to the MCP host: an HTTP server's origin (scheme, host, port: a header saved for
 * one server never goes to another, as custom endpoints' keys); a stdio server's program, `program:` and the SHA-256
 * of its command, arguments and folder (changing any of them could start another program, which must not inherit a
 * token meant for the old one). So a URL or command changed in Settings, by an import or by hand in settings.json,
 * starts the server without its secrets until they are entered again; changing it back finds them again.
 */
export function mcpSecretBinding(server: McpServerConfig): string {
  const t = server.transport;
  if (t.type === "http") return endpointOrigin(t.url) ?? `url:${t.url}`;
  const program = JSON.stringify([t.command, t.args, t.cwd ?? null]);
  return `program:${createHash("sha256").update(program).digest("hex")}`;
}

/**
 * The binding a secret stored before secrets were bound now gets (the secret store's upgrade): its server's current
 * one, if the server still has such a secret entry; undefined otherwise (the secret is dropped) and for names that
 * are no MCP secret.
 */
export function legacyMcpSecretBinding(key: string, servers: readonly McpServerConfig[]): string | undefined {
  const parsed = parseMcpSecretKey(key);
  const server = parsed && servers.find((s) => s.id === parsed.serverId);
  if (!parsed || !server || placeOf(server) !== parsed.where || !secretNames(server).includes(parsed.name)) return undefined;
  return mcpSecretBinding(server);
}

/**
 * The server with every value filled in from `secrets`. Secret entries without a readable value saved for where the
 * server now goes (`mcpSecretBinding`) are left out and named in `missingSecrets`. The result holds secrets: hand it only to the MCP runtime, never to a page or a log.
 */
export function resolveMcpServer(server: McpServerConfig, secrets: Pick<SecretStore, "get">): ResolvedMcpServerConfig {
  const missingSecrets: string[] = [];
  const place = placeOf(server);
  const binding = mcpSecretBinding(server);
  const t = server.transport;
  const fill = (values: Record<string, { value: string } | { secret: true }>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(values)) {
      if ("value" in v) out[name] = v.value;
      else {
        const stored = secrets.get(mcpSecretKey(server.id, place, name), binding);
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
    const binding = mcpSecretBinding(server);
    this.#storeSecrets(Object.entries(secretValues).map(([name, value]) => [mcpSecretKey(server.id, place, name), value, binding]));
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

  /**
   * AppApi's `mcpSecretStatus`: names only, never values. A value saved for the server's old address or program
   * is not set; it is named in `savedElsewhere`, so Settings can say to enter it again.
   */
  secretStatus(): McpSecretStatus[] {
    return this.servers().map((server) => {
      const binding = mcpSecretBinding(server);
      const boundTo = (name: string) => this.#secrets.boundOrigin(mcpSecretKey(server.id, placeOf(server), name));
      const names = secretNames(server).filter((name) => this.#secrets.has(mcpSecretKey(server.id, placeOf(server), name)));
      const savedElsewhere = names.filter((name) => boundTo(name) !== binding);
      return { id: server.id, set: names.filter((name) => boundTo(name) === binding), ...(savedElsewhere.length > 0 ? { savedElsewhere } : {}) };
    });
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
      Object.entries(secrets).map(([name, value]): [string, string, string] => [mcpSecretKey(server.id, placeOf(server), name), value, mcpSecretBinding(server)])));
    const settings = this.#settings.setMcpServers(next);
    this.#changes.emit(added.map((s) => s.id));
    return { settings, added: added.map((s) => s.name), skipped: plan.skipped };
  }

  /** Throws a readable Error when `servers` would not be valid settings. */
  #check(servers: readonly McpServerConfig[]): void {
    const result = validateSettings({ ...this.#settings.get(), mcpServers: servers });
    if (!result.ok) throw new Error(`The MCP server was not saved: ${result.errors.join("; ")}`);
  }

  /** Stores every value (key, value, binding) or none: a failure puts back what was there before. */
  #storeSecrets(entries: readonly [string, string, string][]): void {
    const done: [string, string | undefined, string | undefined][] = [];
    try {
      for (const [key, value, binding] of entries) {
        const boundBefore = this.#secrets.boundOrigin(key);
        const before = this.#secrets.get(key, boundBefore);
        this.#secrets.set(key, value, binding);
        done.push([key, before, boundBefore]);
      }
    } catch (error) {
      for (const [key, before, boundBefore] of done.reverse()) {
        try {
          this.#secrets.set(key, before ?? null, boundBefore);
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
