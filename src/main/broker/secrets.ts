/**
 * Provider API keys, encrypted at rest and held only by main. Electron-free: the encryption comes in as a `Cipher`
 * (Electron's safeStorage in the app, `plaintextDevCipher` in the loopback dev host). Pages only ever learn whether a
 * key is set; workers receive a key when they ask main for it.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { getEnvApiKey } from "@mariozechner/pi-ai";

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

/** The file: `{ "version": 1, "keys": { "<provider>": "<base64 of the encrypted key>" } }`. */
interface SecretsFile {
  version: 1;
  keys: Record<string, string>;
}

export interface SecretStoreNotice {
  level: "warning";
  text: string;
}

export class SecretStore {
  /** Problems met while opening, for main to show the user once. */
  readonly notices: readonly SecretStoreNotice[];
  readonly #file: string;
  readonly #cipher: Cipher;
  readonly #encrypted: Map<string, string>;

  private constructor(file: string, cipher: Cipher, encrypted: Map<string, string>, notices: SecretStoreNotice[]) {
    this.notices = notices;
    this.#file = file;
    this.#cipher = cipher;
    this.#encrypted = encrypted;
  }

  /**
   * Reads `file` (missing: no keys). A file that is not a secrets file is moved aside to `<file>.corrupt-<time>` and
   * the store starts empty (with a notice), so a damaged file never stops the app. Throws only on I/O errors.
   */
  static open(file: string, cipher: Cipher): SecretStore {
    const notices: SecretStoreNotice[] = [];
    return new SecretStore(file, cipher, readSecretsFile(file, notices), notices);
  }

  /**
   * The provider's key, or undefined when none is stored or it cannot be decrypted here (for instance after the OS
   * keyring was reset); such a key must be entered again.
   */
  get(provider: string): string | undefined {
    const stored = this.#encrypted.get(provider);
    if (stored === undefined || !this.#cipher.isAvailable()) return undefined;
    try {
      return this.#cipher.decrypt(Buffer.from(stored, "base64"));
    } catch {
      return undefined;
    }
  }

  /**
   * Stores the provider's key (surrounding whitespace, as pasted, is dropped) or, with null, removes it; either is
   * on disk when this returns. Throws, storing nothing, when the key is empty or encryption is unavailable.
   */
  set(provider: string, key: string | null): void {
    if (provider.length === 0) throw new Error("A provider name is required");
    if (key === null) {
      if (!this.#encrypted.delete(provider)) return;
    } else {
      const trimmed = key.trim();
      if (trimmed.length === 0) throw new Error("An empty API key cannot be stored; pass null to remove the key");
      if (!this.#cipher.isAvailable()) {
        throw new Error(
          "This system offers no secure storage for API keys; set the provider's environment variable instead",
        );
      }
      this.#encrypted.set(provider, this.#cipher.encrypt(trimmed).toString("base64"));
    }
    this.#save();
  }

  /** Whether a key is stored for the provider (without decrypting it). */
  has(provider: string): boolean {
    return this.#encrypted.has(provider);
  }

  #save(): void {
    const data: SecretsFile = { version: 1, keys: Object.fromEntries(this.#encrypted) };
    // Write then rename, so a crash mid-write leaves the previous file whole; 0600 because it guards keys.
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(data, null, 2), { mode: 0o600 });
    renameSync(temp, this.#file);
  }
}

/** Where a provider's key comes from: a key stored in settings wins over the environment. */
export type ApiKeySource = "settings" | "environment" | "none";

/** Looks a provider's key up in the environment; pi-ai's `getEnvApiKey` knows the usual variable names. */
export type EnvKeyLookup = (provider: string) => string | undefined;

/**
 * The key to use for `provider`: the one stored in settings, else the usual environment variable (for example
 * `OPENAI_API_KEY`), else undefined. For cloud credentials that are not keys (Vertex, Bedrock) the lookup may answer
 * pi-ai's "<authenticated>" marker, which pi-ai's providers understand.
 */
export function resolveApiKey(
  provider: string,
  secrets: Pick<SecretStore, "get">,
  env: EnvKeyLookup = getEnvApiKey,
): string | undefined {
  return secrets.get(provider) ?? env(provider);
}

/** Which source `resolveApiKey` would use, for the settings page; never reveals the key. */
export function apiKeySource(
  provider: string,
  secrets: Pick<SecretStore, "get">,
  env: EnvKeyLookup = getEnvApiKey,
): ApiKeySource {
  if (secrets.get(provider) !== undefined) return "settings";
  return env(provider) !== undefined ? "environment" : "none";
}

function readSecretsFile(file: string, notices: SecretStoreNotice[]): Map<string, string> {
  if (!existsSync(file)) return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    parsed = undefined;
  }
  if (!isSecretsFile(parsed)) {
    const backup = `${file}.corrupt-${new Date().toISOString().replaceAll(":", "-")}`;
    renameSync(file, backup);
    notices.push({
      level: "warning",
      text: `The file holding your API keys was unreadable; it was saved as ${backup}. Please enter your keys again.`,
    });
    return new Map();
  }
  return new Map(Object.entries(parsed.keys));
}

function isSecretsFile(value: unknown): value is SecretsFile {
  if (typeof value !== "object" || value === null) return false;
  const { version, keys } = value as Partial<SecretsFile>;
  return (
    version === 1 &&
    typeof keys === "object" &&
    keys !== null &&
    !Array.isArray(keys) &&
    Object.values(keys).every((v) => typeof v === "string")
  );
}
