import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { endpointKeyStatus, endpointOrigin, keyOrigin, orphanedKeys, workerApiKey } from "../../../../src/main/broker/endpoint-keys";
import { plaintextDevCipher, SecretStore } from "../../../../src/main/broker/secrets";
import type { CustomProvider } from "../../../../src/shared/providers/custom-provider";

const lab = (baseUrl: string): CustomProvider => ({ id: "lab", name: "Lab", baseUrl, models: ["m"] });
const noEnv = () => undefined;

let dir: string;
let secrets: SecretStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-endpoint-keys-"));
  secrets = SecretStore.open(join(dir, "secrets.json"), plaintextDevCipher);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a custom endpoint's origin", () => {
  it("is scheme, host and port of the base URL; paths and default ports do not count", () => {
    expect(endpointOrigin("http://127.0.0.1:11434/v1")).toBe("http://127.0.0.1:11434");
    expect(endpointOrigin("https://gw.example.com:443/openai/v1/")).toBe("https://gw.example.com");
    expect(endpointOrigin("https://GW.example.com/v2")).toBe("https://gw.example.com");
    expect(endpointOrigin("ftp://x")).toBeUndefined();
    expect(endpointOrigin("http://[nope")).toBeUndefined();
  });

  it("is where the worker's model sends requests, else where the endpoint points now; none for built-in providers", () => {
    const endpoints = [lab("http://10.0.0.1:8000/v1")];
    expect(keyOrigin("custom:lab", undefined, endpoints)).toBe("http://10.0.0.1:8000");
    expect(keyOrigin("custom:lab", "http://10.0.0.2:8000/v1", endpoints)).toBe("http://10.0.0.2:8000");
    expect(keyOrigin("custom:gone", undefined, endpoints)).toBeUndefined();
    expect(keyOrigin("openai", "https://api.openai.com/v1", endpoints)).toBeUndefined();
  });
});

describe("the key main hands a worker", () => {
  it("a key saved for origin A is not sent once the endpoint's URL points to origin B, and is again when it points back", () => {
    secrets.set("custom:lab", "sk-a", "http://a.example:8000");
    expect(workerApiKey("custom:lab", undefined, secrets, [lab("http://a.example:8000/v1")], noEnv)).toBe("sk-a");
    expect(workerApiKey("custom:lab", undefined, secrets, [lab("http://b.example:8000/v1")], noEnv)).toBeUndefined();
    expect(workerApiKey("custom:lab", undefined, secrets, [lab("https://a.example:8000/v1")], noEnv)).toBeUndefined();
    expect(workerApiKey("custom:lab", undefined, secrets, [lab("http://a.example:8000/v2")], noEnv)).toBe("sk-a");
  });

  it("a worker whose model still points to A never gets the key saved for B", () => {
    secrets.set("custom:lab", "sk-b", "http://b.example:8000");
    const now = [lab("http://b.example:8000/v1")];
    expect(workerApiKey("custom:lab", "http://a.example:8000/v1", secrets, now, noEnv)).toBeUndefined();
    expect(workerApiKey("custom:lab", "http://b.example:8000/v1", secrets, now, noEnv)).toBe("sk-b");
  });

  it("an endpoint that is gone gets no key, whatever is stored", () => {
    secrets.set("custom:lab", "sk-a", "http://a.example:8000");
    expect(workerApiKey("custom:lab", undefined, secrets, [], noEnv)).toBeUndefined();
  });

  it("built-in providers' keys are unbound: stored, else the environment", () => {
    secrets.set("openai", "sk-o");
    expect(workerApiKey("openai", "https://api.openai.com/v1", secrets, [], noEnv)).toBe("sk-o");
    expect(workerApiKey("groq", undefined, secrets, [], (p) => (p === "groq" ? "gsk-env" : undefined))).toBe("gsk-env");
  });
});

describe("Settings' view of endpoint keys", () => {
  it("says set, not set, or saved for another address, and never carries the key", () => {
    expect(endpointKeyStatus(lab("http://a.example:8000/v1"), secrets)).toEqual({ provider: "custom:lab", keySource: "none", origin: "http://a.example:8000" });
    secrets.set("custom:lab", "sk-secret", "http://a.example:8000");
    expect(endpointKeyStatus(lab("http://a.example:8000/v1"), secrets)).toEqual({ provider: "custom:lab", keySource: "settings", origin: "http://a.example:8000" });
    const moved = endpointKeyStatus(lab("http://b.example:9000/v1"), secrets);
    expect(moved).toEqual({ provider: "custom:lab", keySource: "none", origin: "http://b.example:9000", keySavedFor: "http://a.example:8000" });
    expect(JSON.stringify(moved)).not.toContain("sk-secret");
  });

  it("names the keys of endpoints that are gone", () => {
    expect(orphanedKeys(["openai", "custom:lab", "custom:gone"], [lab("http://a.example")])).toEqual(["custom:gone"]);
  });
});
