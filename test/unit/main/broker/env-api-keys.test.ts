/**
 * main's environment key lookup (env-api-keys.ts) is pi-ai 1.6.0's `getEnvApiKey`, which pi-ai exports only from its
 * `/compat` entry: the provider -> variable table is read from pi-ai's built source here, so a provider pi-ai adds or
 * a variable it renames cannot slip past.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { AMBIENT_CREDENTIALS, getEnvApiKey } from "../../../../src/main/broker/env-api-keys";

/** pi-ai's `envMap` in getApiKeyEnvVars: provider -> its variables, in order. */
function piAiTable(): Map<string, string[]> {
  const source = readFileSync(resolve("node_modules/@earendil-works/pi-ai/dist/env-api-keys.js"), "utf8");
  const body = source.slice(source.indexOf("const envMap = {"), source.indexOf("const envVars = envMap[provider]"));
  expect(body.length, "pi-ai's envMap moved: update this reader").toBeGreaterThan(500);
  const table = new Map<string, string[]>();
  for (const entry of body.matchAll(/^\s*"?([a-z0-9-]+)"?: (\[[^\]]*\]|"[A-Z0-9_]+"),$/gm)) {
    table.set(entry[1], [...entry[2].matchAll(/"([A-Z0-9_]+)"/g)].map((m) => m[1]));
  }
  return table;
}

describe("getEnvApiKey (main)", () => {
  it("finds each provider's key under the variables pi-ai 1.6.0 reads, first one first", () => {
    const table = piAiTable();
    expect(table.size).toBeGreaterThan(30);
    for (const [provider, names] of table) {
      for (const [i, name] of names.entries()) {
        const env = Object.fromEntries(names.slice(i).map((n) => [n, `key-${n}`]));
        expect(getEnvApiKey(provider, env), `${provider} ${name}`).toBe(`key-${name}`);
      }
    }
  });

  it("anthropic and copilot as pi-ai special-cases them; ambient cloud credentials; nothing for the rest", () => {
    expect(getEnvApiKey("anthropic", { ANTHROPIC_AUTH_TOKEN: "bearer" })).toBeUndefined();
    expect(getEnvApiKey("anthropic", { ANTHROPIC_API_KEY: "sk-ant" })).toBe("sk-ant");
    expect(getEnvApiKey("github-copilot", { COPILOT_GITHUB_TOKEN: "gh" })).toBe("gh");
    expect(getEnvApiKey("amazon-bedrock", { AWS_PROFILE: "dev" })).toBe(AMBIENT_CREDENTIALS);
    expect(getEnvApiKey("amazon-bedrock", { AWS_ACCESS_KEY_ID: "a" })).toBeUndefined();
    expect(getEnvApiKey("openai", {})).toBeUndefined();
    expect(getEnvApiKey("no-such-provider", { OPENAI_API_KEY: "x" })).toBeUndefined();
  });
});
