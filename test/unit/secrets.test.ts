import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeySource, plaintextDevCipher, resolveApiKey, SecretStore, type Cipher } from "../../src/main/broker/secrets";

/** A stand-in for safeStorage: reversible only with the same secret byte, like a keyring-bound key. */
function xorCipher(secret: number, available = true): Cipher {
  const flip = (data: Buffer) => Buffer.from(data.map((b) => b ^ secret));
  return {
    isAvailable: () => available,
    encrypt: (plain) => Buffer.concat([Buffer.from("ENC:"), flip(Buffer.from(plain, "utf8"))]),
    decrypt: (data) => {
      const plain = flip(data.subarray(4)).toString("utf8");
      if (!data.subarray(0, 4).equals(Buffer.from("ENC:")) || !plain.startsWith("sk-")) throw new Error("bad key");
      return plain;
    },
  };
}

let dir: string;
const file = () => join(dir, "secrets.json");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-secrets-"));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe("SecretStore", () => {
  it("stores keys encrypted, persists them, and removes them with null", () => {
    const store = SecretStore.open(file(), xorCipher(0x5a));
    expect(store.has("openai")).toBe(false);
    store.set("openai", "  sk-live-123\n");
    store.set("custom:ollama", "sk-local");

    const onDisk = readFileSync(file(), "utf8");
    expect(onDisk).not.toContain("sk-live-123");
    expect(JSON.parse(onDisk).keys.openai).toBe(xorCipher(0x5a).encrypt("sk-live-123").toString("base64"));
    expect(statSync(file()).mode & 0o777).toBe(0o600);

    const reopened = SecretStore.open(file(), xorCipher(0x5a));
    expect(reopened.get("openai")).toBe("sk-live-123");
    expect(reopened.has("custom:ollama")).toBe(true);
    reopened.set("openai", null);
    expect(SecretStore.open(file(), xorCipher(0x5a)).get("openai")).toBeUndefined();
    expect(SecretStore.open(file(), xorCipher(0x5a)).get("custom:ollama")).toBe("sk-local");
  });

  it("refuses empty keys and storage without encryption, storing nothing", () => {
    const store = SecretStore.open(file(), xorCipher(1, false));
    expect(() => store.set("openai", "   ")).toThrow(/empty API key/);
    expect(() => store.set("openai", "sk-1")).toThrow(/no secure storage/);
    expect(store.has("openai")).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("answers undefined for a key it can no longer decrypt", () => {
    SecretStore.open(file(), xorCipher(0x11)).set("anthropic", "sk-ant");
    const store = SecretStore.open(file(), xorCipher(0x22));
    expect(store.has("anthropic")).toBe(true);
    expect(store.get("anthropic")).toBeUndefined();
  });

  it("moves a damaged file aside, starts empty and says so", () => {
    writeFileSync(file(), "{ not json");
    const store = SecretStore.open(file(), plaintextDevCipher);
    expect(store.has("openai")).toBe(false);
    expect(store.notices).toHaveLength(1);
    expect(store.notices[0].text).toMatch(/enter your keys again/);
    expect(readdirSync(dir).filter((f) => f.startsWith("secrets.json.corrupt-"))).toHaveLength(1);
    store.set("openai", "sk-new");
    expect(SecretStore.open(file(), plaintextDevCipher).get("openai")).toBe("sk-new");
  });
});

describe("resolveApiKey", () => {
  it("prefers the stored key, then pi-ai's environment variables", () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "");
    const store = SecretStore.open(file(), plaintextDevCipher);
    expect(resolveApiKey("openai", store)).toBe("sk-from-env");
    expect(apiKeySource("openai", store)).toBe("environment");
    store.set("openai", "sk-from-settings");
    expect(resolveApiKey("openai", store)).toBe("sk-from-settings");
    expect(apiKeySource("openai", store)).toBe("settings");
    expect(resolveApiKey("anthropic", store)).toBeUndefined();
    expect(apiKeySource("anthropic", store)).toBe("none");
  });

  it("takes another environment lookup", () => {
    const store = SecretStore.open(file(), plaintextDevCipher);
    const env = (provider: string) => (provider === "custom:vllm" ? "sk-vllm" : undefined);
    expect(resolveApiKey("custom:vllm", store, env)).toBe("sk-vllm");
    expect(resolveApiKey("openai", store, env)).toBeUndefined();
  });
});
