import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeySource, plaintextDevCipher, resolveApiKey, SecretStore, type Cipher } from "../../../../src/main/broker/secrets";

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

const OLLAMA = "http://127.0.0.1:11434";

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
    store.set("custom:ollama", "sk-local", OLLAMA);

    const onDisk = readFileSync(file(), "utf8");
    expect(onDisk).not.toContain("sk-live-123");
    expect(JSON.parse(onDisk).keys.openai).toEqual({ data: xorCipher(0x5a).encrypt("sk-live-123").toString("base64") });
    expect(statSync(file()).mode & 0o777).toBe(0o600);

    const reopened = SecretStore.open(file(), xorCipher(0x5a));
    expect(reopened.get("openai")).toBe("sk-live-123");
    expect(reopened.has("custom:ollama")).toBe(true);
    expect(reopened.get("custom:ollama", OLLAMA)).toBe("sk-local");
    reopened.set("openai", null);
    expect(SecretStore.open(file(), xorCipher(0x5a)).get("openai")).toBeUndefined();
    expect(SecretStore.open(file(), xorCipher(0x5a)).get("custom:ollama", OLLAMA)).toBe("sk-local");
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

  it("sets a damaged file aside, starts empty and says so", () => {
    writeFileSync(file(), "{ not json");
    const store = SecretStore.open(file(), plaintextDevCipher);
    expect(store.has("openai")).toBe(false);
    const backups = readdirSync(dir).filter((f) => /^secrets\.corrupt-.+\.json$/.test(f));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0]), "utf8")).toBe("{ not json");
    expect(store.notices).toEqual([
      { level: "warning", text: `The file holding your API keys was unreadable; it was saved as ${join(dir, backups[0])} and your API keys must be entered again.` },
    ]);
    store.set("openai", "sk-new");
    expect(SecretStore.open(file(), plaintextDevCipher).get("openai")).toBe("sk-new");
  });
});

describe("custom endpoints' keys, bound to an origin", () => {
  it("gives a custom endpoint's key only for the origin it was saved for", () => {
    const store = SecretStore.open(file(), xorCipher(0x5a));
    store.set("custom:lab", "sk-lab", "https://lab.example:8443");
    expect(store.get("custom:lab", "https://lab.example:8443")).toBe("sk-lab");
    expect(store.get("custom:lab", "https://elsewhere.example:8443")).toBeUndefined();
    expect(store.get("custom:lab", "http://lab.example:8443")).toBeUndefined();
    expect(store.get("custom:lab")).toBeUndefined();
    expect(store.boundOrigin("custom:lab")).toBe("https://lab.example:8443");
    expect(JSON.parse(readFileSync(file(), "utf8")).keys["custom:lab"].origin).toBe("https://lab.example:8443");
    expect(resolveApiKey("custom:lab", store, { origin: "https://lab.example:8443", env: () => undefined })).toBe("sk-lab");
    expect(resolveApiKey("custom:lab", store, { origin: "https://evil.example", env: () => undefined })).toBeUndefined();
  });

  it("binds custom endpoints' keys and only those", () => {
    const store = SecretStore.open(file(), xorCipher(0x5a));
    expect(() => store.set("custom:lab", "sk-lab")).toThrow(/needs the endpoint's origin/);
    expect(() => store.set("openai", "sk-1", "https://api.openai.com")).toThrow(/not bound/);
    expect(store.providers()).toEqual([]);
  });

  it("forgets several keys in one write, and nothing when none was stored", () => {
    const store = SecretStore.open(file(), plaintextDevCipher);
    store.set("custom:a", "sk-a", OLLAMA);
    store.set("custom:b", "sk-b", OLLAMA);
    store.set("openai", "sk-o");
    store.forget(["custom:a", "custom:b", "custom:never"]);
    expect(SecretStore.open(file(), plaintextDevCipher).providers()).toEqual(["openai"]);
  });

  it("binds keys saved before binding to their endpoint's current origin, drops a removed endpoint's, and says nothing", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const v1 = { version: 1, keys: { openai: b64("sk-o"), "custom:lab": b64("sk-lab"), "custom:gone": b64("sk-gone") } };
    writeFileSync(file(), JSON.stringify(v1));
    const originOf = (provider: string) => (provider === "custom:lab" ? "http://10.0.0.5:8000" : undefined);
    const store = SecretStore.open(file(), plaintextDevCipher, { originOf });
    expect(store.notices).toEqual([]);
    expect(store.get("openai")).toBe("sk-o");
    expect(store.get("custom:lab", "http://10.0.0.5:8000")).toBe("sk-lab");
    expect(store.has("custom:gone")).toBe(false);
    expect(JSON.parse(readFileSync(file(), "utf8"))).toEqual({
      version: 2,
      keys: { openai: { data: b64("sk-o") }, "custom:lab": { data: b64("sk-lab"), origin: "http://10.0.0.5:8000" } },
    });
    expect(readdirSync(dir)).toEqual(["secrets.json"]);
  });

  it("keeps the readable keys of a damaged file", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    writeFileSync(file(), JSON.stringify({ version: 2, keys: { openai: { data: b64("sk-o") }, groq: { data: 42 }, "custom:x": { data: b64("sk-x") } } }));
    const store = SecretStore.open(file(), plaintextDevCipher);
    expect(store.providers()).toEqual(["openai"]);
    expect(store.notices[0].text).toMatch(/had problems \(.*keys\.groq\.data: must be string.*\); it was saved as .*secrets\.corrupt-.*\.json and the 1 key it could read was kept; the others must be entered again\.$/);
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
    expect(resolveApiKey("custom:vllm", store, { env })).toBe("sk-vllm");
    expect(resolveApiKey("openai", store, { env })).toBeUndefined();
  });
});
