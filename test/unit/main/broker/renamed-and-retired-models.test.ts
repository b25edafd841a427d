/**
 * Saved settings and chats keep working on pi-ai 1.6.0 (issue 22): a provider pi-ai renamed is found under its new
 * name, a key stored under the old name serves the new one, and a model the catalogue no longer lists is refused in
 * words that name the closest current model, never "Provider X has no model Y".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closestModel, resolveModel } from "../../../../src/main/broker/model-resolver";
import { catalogModels } from "../../../../src/main/broker/model-catalog";
import { plaintextDevCipher, SecretStore } from "../../../../src/main/broker/secrets";
import { currentProviderId } from "../../../../src/shared/providers/renamed-providers";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("providers pi-ai renamed", () => {
  it("azure-openai-responses is azure, and its models resolve under either name", () => {
    expect(currentProviderId("azure-openai-responses")).toBe("azure");
    expect(currentProviderId("openai")).toBe("openai");
    const [first] = catalogModels("azure");
    expect(first).toBeDefined();
    expect(resolveModel({ provider: "azure-openai-responses", id: first.id }, { customProviders: [] })).toMatchObject({ provider: "azure", id: first.id });
  });

  it("a key stored under the old name is the new provider's", () => {
    const dir = mkdtempSync(join(tmpdir(), "paddock-renamed-"));
    dirs.push(dir);
    const file = join(dir, "secrets.json");
    const data = plaintextDevCipher.encrypt("azure-key").toString("base64");
    writeFileSync(file, JSON.stringify({ version: 2, keys: { "azure-openai-responses": { data } } }));
    const secrets = SecretStore.open(file, plaintextDevCipher);
    expect(secrets.get("azure")).toBe("azure-key");
    expect(secrets.providers()).toEqual(["azure"]);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).keys)).toEqual(["azure"]);
  });
});

describe("models the catalogue no longer lists", () => {
  it("are refused in words that offer the closest current model", () => {
    const resolve = () => resolveModel({ provider: "anthropic", id: "claude-opus-4-1" }, { customProviders: [] });
    expect(resolve).toThrow(/^Anthropic no longer offers the model "claude-opus-4-1"\. The closest current model is .+ \(claude-opus-4-\d+\): pick it, or another, in the model picker\.$/);
    expect(resolve).not.toThrow(/has no model/);
  });

  it("the closest model shares the longest start with the old id, then the fewest edits, then is the newest", () => {
    const models = ["claude-opus-4-5", "claude-opus-4-7", "claude-sonnet-4-6", "gpt-x"].map((id) => ({ id, name: id }));
    expect(closestModel("claude-opus-4-1", models)?.id).toBe("claude-opus-4-7");
    expect(closestModel("claude-sonnet-4-1", models)?.id).toBe("claude-sonnet-4-6");
    expect(closestModel("anything", [])).toBeUndefined();
  });
});
