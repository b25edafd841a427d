/**
 * Provider API keys, encrypted at rest and held only by main. Electron-free: the encryption comes in as a `Cipher`
 * (Electron's safeStorage in the app, `plaintextDevCipher` in the loopback dev host). Pages only ever learn whether a
 * key is set; workers receive a key when they ask main for it.
 *
 * A custom endpoint's key is bound to the origin (scheme, host, port) of the endpoint's address when it is saved,
 * and given out only for that origin (see endpoint-keys.ts): an endpoint whose address moves elsewhere, or a new one
 * under an old id, never receives a key that was meant for another server. Built-in providers' keys are unbound:
 * pi-ai sends them to the provider's own fixed address. An MCP server's secrets (`mcp:…` names) are bound the same
 * way, to what mcp-config.ts's `mcpSecretBinding` names: an HTTP server's origin, a stdio server's program.
 */
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { getEnvApiKey } from "./env-api-keys";
import { currentProviderId } from "../../shared/providers/renamed-providers";
import { customProviderId } from "../../shared/providers/custom-provider";
import { isMcpSecretKey } from "../../shared/mcp/server-config";
import { JsonFile, type FileNotice, type Recovered } from "./json-file";
import { isRecord } from "../../shared/is-record";
import { KeyedRecord } from "../../shared/keyed-record";

export interface Cipher {
  /** Whether `encrypt`/`decrypt` protect data right now (e.g. safeStorage before app ready, or with no keyring: no). */
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  /** Throws when `data` was not produced by this cipher (another machine or user, a reset keyring). */
  decrypt(data: Buffer): string;
}

/**
 * Stores values in the clear. Only for `npm run dev:web`, the loopback development host, where there is no OS
 * keyring to lean on; never use it in the packaged app.
 */
export const plaintextDevCipher: Cipher = {
  isAvailable: () => true,
  encrypt: (plain) => Buffer.from(plain, "utf8"),
  decrypt: (data) => data.toString("utf8"),
};

/**
 * One stored key: the encrypted bytes, and for a custom endpoint or an MCP server's secret where it may be sent
 * (`origin`: a `scheme://host:port`, or for a stdio server's env secret its program, `program:<sha256>`).
 */
const StoredKeySchema = Type.Object(
  { data: Type.String({ minLength: 1 }), origin: Type.Optional(Type.String({ minLength: 1 })) },
  { additionalProperties: false },
);

/**
 * The file, version 2: `{ "version": 2, "keys": { "<provider>": { "data": "<base64 of the encrypted key>",
 * "origin": "<scheme://host:port, or program:<sha256>: bound keys only>" } } }`. Version 1 held `"<provider>": "<base64>"`.
 */
const SecretsFileSchema = Type.Object(
  { version: Type.Literal(2), keys: KeyedRecord("^[\\s\\S]+$", StoredKeySchema) },
  { additionalProperties: false },
);
type SecretsFile = Static<typeof SecretsFileSchema>;
type StoredKey = Static<typeof StoredKeySchema>;

export interface SecretStoreOptions {
  /**
   * The origin a bound key saved before keys were bound (version 1 files, or an entry without one) now belongs to:
   * the custom endpoint's current origin, or the MCP server's current binding; undefined when it is gone.
   */
  originOf?(provider: string): string | undefined;
}

export class SecretStore {
  /** Problems met while opening (the file was set aside), for main to tell the user once. */
  readonly notices: readonly FileNotice[];
  readonly #file: JsonFile<typeof SecretsFileSchema>;
  readonly #cipher: Cipher;
  readonly #keys: Map<string, StoredKey>;

  private constructor(file: JsonFile<typeof SecretsFileSchema>, cipher: Cipher, keys: Map<string, StoredKey>, notices: FileNotice[]) {
    this.notices = notices;
    this.#file = file;
    this.#cipher = cipher;
    this.#keys = keys;
  }

  /**
   * Reads `file` (missing: no keys). An older file is upgraded in place; a damaged one is set aside (json-file.ts)
   * keeping the entries that can still be read, with a notice, so a damaged file never stops the app. Throws only on
   * I/O errors.
   */
  static open(file: string, cipher: Cipher, options: SecretStoreOptions = {}): SecretStore {
    const upgrade = (raw: unknown) => upgradeSecretsFile(raw, options.originOf ?? (() => undefined));
    const json = new JsonFile({
      path: file,
      title: "The file holding your API keys",
      schema: SecretsFileSchema,
      upgrade,
      rules: (data) => Object.entries(data.keys).filter(([provider, key]) => isBound(provider) !== (key.origin !== undefined))
        .map(([provider]) => `keys.${provider}: ${isBound(provider) ? "a custom endpoint's key or an MCP secret needs its origin" : "only custom endpoints' keys and MCP secrets have an origin"}`),
      recover: (parsed) => recoverKeys(parsed === undefined ? undefined : upgrade(parsed.raw)),
    });
    const loaded = json.load();
    return new SecretStore(json, cipher, new Map(Object.entries(loaded.value?.keys ?? {})), loaded.notice ? [loaded.notice] : []);
  }

  /**
   * The provider's key, or undefined when none is stored, when it is bound to an origin other than `origin`, or when
   * it cannot be decrypted here (for instance after the OS keyring was reset); such a key must be entered again.
   */
  get(provider: string, origin?: string): string | undefined {
    const stored = this.#keys.get(provider);
    if (stored === undefined || stored.origin !== origin || !this.#cipher.isAvailable()) return undefined;
    try {
      return this.#cipher.decrypt(Buffer.from(stored.data, "base64"));
    } catch {
      return undefined;
    }
  }

  /**
   * Stores the provider's key (surrounding whitespace, as pasted, is dropped), bound to `origin`, or with null removes
   * it; either is on disk when this returns. A custom endpoint's key and an MCP secret need the origin, a built-in
   * provider's takes none. Throws, storing nothing, when the key is empty, the origin wrong, or encryption unavailable.
   */
  set(provider: string, key: string | null, origin?: string): void {
    if (provider.length === 0) throw new Error("A provider name is required");
    if (key === null) {
      this.forget([provider]);
      return;
    }
    const trimmed = key.trim();
    if (trimmed.length === 0) throw new Error("An empty API key cannot be stored; pass null to remove the key");
    if (isBound(provider) !== (origin !== undefined)) {
      const needs = isMcpSecretKey(provider) ? "An MCP server's secret needs what it is bound to" : "A custom endpoint's key needs the endpoint's origin";
      throw new Error(isBound(provider) ? needs : `${provider}'s key is not bound to an origin`);
    }
    if (!this.#cipher.isAvailable()) {
      throw new Error("This system offers no secure storage for API keys; set the provider's environment variable instead");
    }
    const data = this.#cipher.encrypt(trimmed).toString("base64");
    this.#save(new Map(this.#keys).set(provider, origin === undefined ? { data } : { data, origin }));
  }

  /** Removes the providers' keys, in one write (nothing is written when none was stored). */
  forget(providers: Iterable<string>): void {
    const next = new Map(this.#keys);
    let changed = false;
    for (const provider of providers) changed = next.delete(provider) || changed;
    if (changed) this.#save(next);
  }

  /** Whether a key is stored for the provider (without decrypting it), whatever its origin. */
  has(provider: string): boolean {
    return this.#keys.has(provider);
  }

  /** The origin the provider's stored key is bound to; undefined when none is stored or it is unbound. */
  boundOrigin(provider: string): string | undefined {
    return this.#keys.get(provider)?.origin;
  }

  /** The providers that have a stored key. */
  providers(): string[] {
    return [...this.#keys.keys()];
  }

  /** Writes `next` and only then adopts it, so a failed write changes nothing. */
  #save(next: Map<string, StoredKey>): void {
    this.#file.writeSync({ version: 2, keys: Object.fromEntries(next) });
    this.#keys.clear();
    for (const [provider, key] of next) this.#keys.set(provider, key);
  }
}

/** Custom endpoints' keys and MCP servers' secrets are bound to where they may go; built-in providers' are not. */
function isBound(provider: string): boolean {
  return customProviderId(provider) !== undefined || isMcpSecretKey(provider);
}

/**
 * A parsed secrets file of any version in today's layout (unvalidated; what it cannot read passes through for the
 * schema to name). Migration: a custom endpoint's key or an MCP secret saved before they were bound (version 1, or an
 * entry without an origin) is bound to the endpoint's (the server's) current origin, so users keep their keys; one
 * whose endpoint or server is gone is dropped, since it could otherwise be bound to whatever later takes its id.
 */
function upgradeSecretsFile(raw: unknown, originOf: (provider: string) => string | undefined): unknown {
  if (!isRecord(raw) || !isRecord(raw.keys) || (raw.version !== 1 && raw.version !== 2)) return raw;
  const keys: Record<string, unknown> = {};
  for (const [saved, entry] of Object.entries(raw.keys)) {
    // A key saved under a provider pi-ai has since renamed is the renamed provider's, unless it has its own already.
    const provider = currentProviderId(saved) !== saved && !(currentProviderId(saved) in raw.keys) ? currentProviderId(saved) : saved;
    const stored = raw.version === 1 && typeof entry === "string" ? { data: entry } : entry;
    if (isBound(provider) && isRecord(stored) && stored.origin === undefined) {
      const origin = originOf(provider);
      if (origin !== undefined) keys[provider] = { ...stored, origin };
    } else {
      keys[provider] = stored;
    }
  }
  return { ...raw, version: 2, keys };
}

/** The entries of a damaged (upgraded) file that are still good. */
function recoverKeys(upgraded: unknown): Recovered<SecretsFile> {
  const keys: Record<string, StoredKey> = {};
  const entries = isRecord(upgraded) && isRecord(upgraded.keys) ? Object.entries(upgraded.keys) : [];
  for (const [provider, entry] of entries) {
    if (provider.length > 0 && Value.Check(StoredKeySchema, entry) && isBound(provider) === (entry.origin !== undefined)) keys[provider] = entry;
  }
  const kept = Object.keys(keys).length;
  const outcome = kept === 0
    ? "your API keys must be entered again"
    : `the ${kept} key${kept === 1 ? "" : "s"} it could read ${kept === 1 ? "was" : "were"} kept; the others must be entered again`;
  return { value: { version: 2, keys }, outcome };
}

/** Where a provider's key comes from: a key stored in settings wins over the environment. */
export type ApiKeySource = "settings" | "environment" | "none";

/** Looks a provider's key up in the environment; pi-ai's `getEnvApiKey` knows the usual variable names. */
export type EnvKeyLookup = (provider: string) => string | undefined;

export interface KeyLookup {
  /**
   * Where the key will be sent: for a custom endpoint, the origin of the address its requests go to (endpoint-keys.ts
   * works it out); its stored key is used only when bound to that same origin. Ignored for built-in providers.
   */
  origin?: string;
  /** Default pi-ai's `getEnvApiKey`. */
  env?: EnvKeyLookup;
}

/**
 * The key to use for `provider`: the one stored in settings (for a custom endpoint: only if bound to `origin`), else
 * the usual environment variable (for example `OPENAI_API_KEY`), else undefined. For cloud credentials that are not
 * keys (Vertex, Bedrock) the lookup may answer pi-ai's "<authenticated>" marker, which pi-ai's providers understand.
 */
export function resolveApiKey(provider: string, secrets: Pick<SecretStore, "get">, lookup: KeyLookup = {}): string | undefined {
  const stored = secrets.get(provider, isBound(provider) ? lookup.origin : undefined);
  return stored ?? (lookup.env ?? getEnvApiKey)(provider);
}

/** Which source `resolveApiKey` would use, for the settings page; never reveals the key. */
export function apiKeySource(provider: string, secrets: Pick<SecretStore, "get">, lookup: KeyLookup = {}): ApiKeySource {
  if (secrets.get(provider, isBound(provider) ? lookup.origin : undefined) !== undefined) return "settings";
  return (lookup.env ?? getEnvApiKey)(provider) !== undefined ? "environment" : "none";
}
