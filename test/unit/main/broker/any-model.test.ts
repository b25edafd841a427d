/**
 * Any model, not only the catalogue's (issue 22 §2): a built-in provider takes an id its catalogue lacks once the
 * user adds it, made from the provider's closest catalogue model with the user's limits; pi's models.json adds
 * models and providers the same way; the picker's list shows them; a worker's request to a models.json provider
 * gets that file's key only at the file's address.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveModel } from "../../../../src/main/broker/model-resolver";
import { catalogModels } from "../../../../src/main/broker/model-catalog";
import { ModelDirectory } from "../../../../src/main/broker/model-directory";
import { PiModelsSource } from "../../../../src/main/broker/pi-models-file";
import { catalogProviders } from "../../../../src/main/broker/model-catalog";
import { DEFAULT_SETTINGS, type Settings } from "../../../../src/shared/settings/schema";
import { AppService } from "../../../../src/main/broker/app-service";
import { startAppServiceRig } from "../../../../testkit/app-service-rig";

const dir = mkdtempSync(join(tmpdir(), "paddock-any-model-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const anthropicCatalog = catalogModels("anthropic");

describe("a model id the catalogue lacks", () => {
  it("is refused, naming the closest model, until the user adds it", () => {
    expect(() => resolveModel({ provider: "anthropic", id: "claude-opus-5-6" }, { customProviders: [] })).toThrow(/^Anthropic no longer offers the model "claude-opus-5-6"/);
  });

  it("once added, is made from the provider's closest catalogue model with the typed id and the user's limits", () => {
    const model = resolveModel({ provider: "anthropic", id: "claude-opus-5-6" }, {
      customProviders: [],
      addedModels: [{ provider: "anthropic", id: "claude-opus-5-6", contextWindow: 500_000, maxTokens: 64_000, images: false }],
    });
    const closest = anthropicCatalog.filter((m) => m.id.startsWith("claude-opus-5")).sort((a, b) => (a.id < b.id ? 1 : -1))[0];
    expect(model).toMatchObject({
      id: "claude-opus-5-6", name: "claude-opus-5-6", provider: "anthropic", api: "anthropic-messages", baseUrl: closest.baseUrl,
      contextWindow: 500_000, maxTokens: 64_000, input: ["text"], reasoning: closest.reasoning,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(model.compat).toEqual(closest.compat);
    // Left alone, the limits are the closest model's.
    const plain = resolveModel({ provider: "anthropic", id: "claude-opus-5-6" }, { customProviders: [], addedModels: [{ provider: "anthropic", id: "claude-opus-5-6" }] });
    expect(plain).toMatchObject({ contextWindow: closest.contextWindow, maxTokens: closest.maxTokens, input: closest.input });
  });

  it("a model that does not think asks for no thinking, whatever its neighbour's map", () => {
    const model = resolveModel({ provider: "anthropic", id: "claude-x" }, { customProviders: [], addedModels: [{ provider: "anthropic", id: "claude-x", reasoning: false }] });
    expect(model.reasoning).toBe(false);
    expect(model.thinkingLevelMap).toBeUndefined();
  });
});

describe("pi's models.json", () => {
  const piFile = (content: object) => {
    const path = join(dir, `models-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(content));
    return new PiModelsSource(path, { isBuiltIn: (id) => catalogProviders().includes(id), env: { PROXY_KEY: "sk-proxy" } });
  };
  const settings = (patch: Partial<Settings> = {}) => ({ get: () => ({ ...structuredClone(DEFAULT_SETTINGS) as Settings, ...patch }) });
  const secrets = (keys: Record<string, string>) => ({ get: (provider: string) => keys[provider] });

  it("moves a built-in provider's models to its baseUrl, adds its models, and adds providers of its own", async () => {
    const piModels = piFile({
      providers: {
        groq: { baseUrl: "http://127.0.0.1:9999/v1", models: [{ id: "groq-next", contextWindow: 64_000 }] },
        ollama: { baseUrl: "http://127.0.0.1:11434/v1", api: "openai-completions", apiKey: "$PROXY_KEY", name: "Ollama", models: [{ id: "qwen3:8b", reasoning: true }] },
        keyless: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", models: [{ id: "never-listed" }] },
      },
    });
    const directory = new ModelDirectory({ settings: settings(), secrets: secrets({ groq: "sk-groq" }), piModels });
    const options = await directory.list();
    const groq = options.filter((o) => o.provider === "groq");
    expect(groq.length).toBe(catalogModels("groq").length + 1);
    expect(groq.at(-1)).toMatchObject({ id: "groq-next", origin: "pi", contextWindow: 64_000 });
    expect(directory.resolve({ provider: "groq", id: catalogModels("groq")[0].id }).baseUrl).toBe("http://127.0.0.1:9999/v1");
    expect(directory.resolve({ provider: "groq", id: "groq-next" })).toMatchObject({ api: "openai-completions", baseUrl: "http://127.0.0.1:9999/v1" });
    expect(options.filter((o) => o.provider === "pi:ollama")).toEqual([
      expect.objectContaining({ id: "qwen3:8b", providerName: "Ollama", origin: "pi", reasoning: true, contextWindow: 128_000 }),
    ]);
    expect(directory.resolve({ provider: "pi:ollama", id: "qwen3:8b" })).toMatchObject({ provider: "pi:ollama", api: "openai-completions", baseUrl: "http://127.0.0.1:11434/v1", maxTokens: 16_384 });
    // A provider without a key is not offered, as in pi; its problem says so.
    expect(options.some((o) => o.provider === "pi:keyless")).toBe(false);
    expect((await directory.fileStatus()).problems.join(" ")).toMatch(/Provider "keyless": it has no "apiKey"/);
    // The file's key goes only to the file's address for it.
    expect(directory.fileKey("pi:ollama", "http://127.0.0.1:11434/v1")).toBe("sk-proxy");
    expect(directory.fileKey("pi:ollama", "http://evil.example/v1")).toBeUndefined();
    expect(directory.fileKey("pi:ollama", undefined)).toBeUndefined();
  });

  it("applies a provider's modelOverrides by id, as pi does: to the catalogue's models and the file's own, not to those the user added in Paddock", async () => {
    const [first, second] = catalogModels("groq");
    const piModels = piFile({
      providers: {
        groq: {
          models: [{ id: "groq-next", maxTokens: 2_000, headers: { "X-Own": "model" } }],
          modelOverrides: {
            [first.id]: { name: "Groq first (proxy)", contextWindow: 42_000, maxTokens: 4_000, input: ["text", "image"], cost: { input: 7 }, compat: { supportsStore: false } },
            "groq-next": { contextWindow: 99_000, headers: { "X-Own": "override", "X-Team": "t" } },
            "my-added": { contextWindow: 1_000 },
          },
        },
        ollama: { baseUrl: "http://127.0.0.1:11434/v1", api: "openai-completions", apiKey: "ollama", models: [{ id: "qwen3:8b" }], modelOverrides: { "qwen3:8b": { name: "Qwen 3", maxTokens: 8_192 } } },
      },
    });
    const directory = new ModelDirectory({
      settings: settings({ addedModels: [{ provider: "groq", id: "my-added", contextWindow: 64_000 }] }), secrets: secrets({ groq: "sk-groq" }), piModels,
    });
    const options = await directory.list();
    expect(options.find((o) => o.provider === "groq" && o.id === first.id)).toMatchObject({ name: "Groq first (proxy)", contextWindow: 42_000, maxTokens: 4_000, images: true });
    const model = directory.resolve({ provider: "groq", id: first.id });
    expect(model.cost).toEqual({ ...first.cost, input: 7 });
    expect(model.compat).toEqual({ ...(first.compat as object | undefined), supportsStore: false });
    expect(model.reasoning).toBe(first.reasoning);
    // Another model of the provider is left as it was.
    expect(directory.resolve({ provider: "groq", id: second.id })).toMatchObject({ name: second.name, contextWindow: second.contextWindow, cost: second.cost });
    // The file's own model: the override's fields over the entry's, its own header kept.
    expect(directory.resolve({ provider: "groq", id: "groq-next" })).toMatchObject({ contextWindow: 99_000, maxTokens: 2_000, headers: expect.objectContaining({ "X-Own": "model", "X-Team": "t" }) });
    expect(directory.resolve({ provider: "groq", id: "my-added" }).contextWindow).toBe(64_000);
    expect(options.find((o) => o.provider === "pi:ollama")).toMatchObject({ id: "qwen3:8b", name: "Qwen 3", maxTokens: 8_192 });
    expect(directory.resolve({ provider: "pi:ollama", id: "qwen3:8b" })).toMatchObject({ name: "Qwen 3", maxTokens: 8_192, contextWindow: 128_000 });
  });

  it("a built-in provider keyed only there is usable everywhere alike: its models listed, its key source shown, Refresh asked with that key", async () => {
    const piModels = piFile({ providers: { groq: { apiKey: "$PROXY_KEY" } } });
    const rig = await startAppServiceRig();
    try {
      const asked: { url: string; auth: string | null }[] = [];
      const fetch = (async (url: string, init?: RequestInit) => {
        asked.push({ url, auth: new Headers(init?.headers).get("authorization") });
        return new Response(JSON.stringify({ data: [{ id: "groq-next" }] }), { headers: { "content-type": "application/json" } });
      }) as unknown as typeof globalThis.fetch;
      const models = new ModelDirectory({ settings: rig.settings, secrets: { get: () => undefined }, piModels, list: { fetch } });
      const service = new AppService({ ...rig, models, openSession: async () => {} });
      expect((await service.listModels()).filter((m) => m.provider === "groq").length).toBe(catalogModels("groq").length);
      const status = (await service.providerStatus()).find((p) => p.provider === "groq");
      expect(status).toEqual({ provider: "groq", keySource: "pi" });
      const refreshed = await service.refreshModels("groq");
      expect(refreshed).toMatchObject({ ok: true, models: [{ id: "groq-next", known: false, added: false }] });
      expect(asked).toEqual([{ url: expect.stringMatching(/\/models$/), auth: "Bearer sk-proxy" }]);
    } finally {
      await rig.close();
    }
  });

  it("a broken file loses nothing else: the catalogue and added models stay", async () => {
    const path = join(dir, "broken-models.json");
    writeFileSync(path, "not json");
    const piModels = new PiModelsSource(path, { isBuiltIn: () => true });
    const directory = new ModelDirectory({
      settings: settings({ addedModels: [{ provider: "anthropic", id: "claude-opus-5-6" }] }), secrets: secrets({ anthropic: "sk-ant" }), piModels,
    });
    const options = await directory.list();
    expect(options.filter((o) => o.provider === "anthropic").length).toBe(anthropicCatalog.length + 1);
    expect(options.find((o) => o.id === "claude-opus-5-6")).toMatchObject({ origin: "added" });
    expect(await directory.fileStatus()).toMatchObject({ state: "unreadable", problems: [expect.stringContaining("is not valid JSON")] });
  });
});

describe("settings' added models", () => {
  it("a page adds them with one patch; one per provider and id; a custom endpoint's name is no provider here", async () => {
    const { applySettingsPatch } = await import("../../../../src/shared/settings/schema");
    const base = structuredClone(DEFAULT_SETTINGS) as Settings;
    const added = applySettingsPatch(base, { addedModels: [{ provider: "anthropic", id: "claude-opus-5-6", contextWindow: 400_000 }] });
    expect(added.addedModels).toEqual([{ provider: "anthropic", id: "claude-opus-5-6", contextWindow: 400_000 }]);
    expect(() => applySettingsPatch(base, { addedModels: [{ provider: "anthropic", id: "a" }, { provider: "anthropic", id: "a" }] })).toThrow(/anthropic's model "a" is added twice/);
    expect(() => applySettingsPatch(base, { addedModels: [{ provider: "custom:x", id: "a" }] })).toThrow(/Invalid settings change/);
  });
});
