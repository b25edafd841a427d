/**
 * Every model Paddock can use, in one place for main: pi-ai's catalogue, the user's custom endpoints and added models
 * (settings), and pi's `models.json` (pi-models-file.ts). It resolves a worker's model, lists the picker's options,
 * finds the key a worker's request to a `models.json` provider takes, and runs "Refresh models". Electron-free.
 */
import type { Api, Model } from "@earendil-works/pi-ai";
import { getSupportedThinkingLevels } from "@earendil-works/pi-ai";
import type { ModelOption, ModelRef, ProviderStatus } from "../../shared/protocol/app-api";
import type { PiModelsFileStatus, ProviderModelList } from "../../shared/protocol/model-lists";
import { customModel } from "../../shared/providers/custom-provider";
import type { ThinkingLevel } from "../../shared/agent/types";
import type { Settings } from "../../shared/settings/schema";
import { catalogModels, catalogProviders } from "./model-catalog";
import { builtInModels, piProviderModels, resolveModel, type ModelSources } from "./model-resolver";
import { piProviderKey, type PiModels, type PiModelsSource } from "./pi-models-file";
import { listProviderModels, type ListOptions } from "./provider-model-list";
import { endpointOrigin } from "./endpoint-keys";
import { apiKeySource, resolveApiKey, type SecretStore } from "./secrets";

export interface ModelDirectoryOptions {
  settings: { get(): Settings };
  secrets: Pick<SecretStore, "get">;
  /** Whether a built-in provider is usable without a key: a signed-in account or a cloud provider's fields (main/accounts). */
  configured?: (provider: string) => boolean;
  /** pi's `models.json`; absent: none is read (tests of other things). */
  piModels?: PiModelsSource;
  /** For "Refresh models" (tests pass their own fetch and timeout). */
  list?: ListOptions;
}

export class ModelDirectory {
  constructor(private readonly options: ModelDirectoryOptions) {}

  /** The sources as they are now (`models.json` as last read). */
  sources(): ModelSources {
    const settings = this.options.settings.get();
    return { customProviders: settings.customProviders, addedModels: settings.addedModels ?? [], piModels: this.piModels() };
  }

  /** See model-resolver.ts's resolveModel: throws a readable Error for a model that is not there. */
  resolve(ref: ModelRef): Model<any> {
    return resolveModel(ref, this.sources());
  }

  /**
   * The picker's models (reading `models.json` again first): built-in providers with a key, their catalogue's, the
   * file's and the added ones; then the providers `models.json` adds; then the custom endpoints'.
   */
  async list(): Promise<ModelOption[]> {
    await this.options.piModels?.reload();
    const sources = this.sources();
    const options: ModelOption[] = [];
    for (const provider of catalogProviders()) {
      if (this.keySource(provider) === "none") continue;
      for (const { model, origin } of builtInModels(provider, sources)) options.push(option(provider, model, origin));
    }
    for (const { entry, model } of piProviderModels(sources.piModels)) {
      options.push({ ...option(model.provider, model, "pi"), providerName: entry.name ?? `${entry.key} (pi)` });
    }
    for (const provider of sources.customProviders) {
      for (const id of provider.models) {
        const model = customModel(provider, id);
        options.push({ ...option(model.provider, model), name: `${id} (${provider.name})`, providerName: provider.name });
      }
    }
    return options;
  }

  /**
   * The key `models.json` gives a provider, for a worker's request to `sentTo`: a `pi:` provider's only for the
   * addresses the file gives it; a built-in provider's (when Settings and the environment have none) as pi uses it.
   */
  fileKey(provider: string, sentTo: string | undefined): string | undefined {
    const key = piProviderKey(provider);
    const entry = this.piModels().providers.find((p) => (key === undefined ? p.builtIn && p.key === provider : !p.builtIn && p.key === key));
    if (!entry?.apiKey) return undefined;
    if (key === undefined) return entry.apiKey;
    const origin = sentTo === undefined ? undefined : endpointOrigin(sentTo);
    const allowed = [entry.baseUrl, ...entry.models.map((m) => m.baseUrl)].flatMap((url) => (url ? [endpointOrigin(url)] : []));
    return origin !== undefined && allowed.includes(origin) ? entry.apiKey : undefined;
  }

  /** "Refresh models" for built-in `provider`, its ids marked known (in the catalogue) and added (by the user or pi). */
  async refresh(provider: string): Promise<ProviderModelList> {
    if (!catalogProviders().includes(provider)) return { ok: false, message: `Unknown provider "${provider}".`, models: [] };
    await this.options.piModels?.reload();
    const sources = this.sources();
    const models = builtInModels(provider, sources);
    const key = resolveApiKey(provider, this.options.secrets) ?? this.fileKey(provider, undefined);
    const result = await listProviderModels(provider, models.map((m) => m.model), key, this.options.list);
    const known = new Set(catalogModels(provider).map((m) => m.id));
    const added = new Set(models.filter((m) => m.origin !== undefined).map((m) => m.model.id));
    return { ...result, models: result.models.map((m) => ({ ...m, known: known.has(m.id), added: added.has(m.id) })) };
  }

  /** `models.json` read again, and what came of it: never a key. */
  async fileStatus(): Promise<PiModelsFileStatus> {
    const file = (await this.options.piModels?.reload()) ?? this.piModels();
    const models = file.providers.reduce((n, p) => n + (p.builtIn ? (this.keySource(p.key) !== "none" ? p.models.length : 0) : p.apiKey !== undefined ? p.models.length : 0), 0);
    const movedProviders = file.providers.filter((p) => p.builtIn && p.baseUrl !== undefined).map((p) => p.key);
    return { path: file.path, state: file.state, problems: file.problems, models, movedProviders };
  }

  private piModels(): PiModels {
    return this.options.piModels?.current() ?? { path: "", state: "none", providers: [], problems: [] };
  }

  /**
   * Where a built-in provider's credential comes from, in the order main uses them (accounts.ts, then this file's
   * `fileKey`): a saved key, a signed-in account or the cloud fields ("settings"), the environment, pi's `models.json`
   * ("pi"); "none" when there is none. The one answer to whether the provider can be used: its models are listed, its
   * key shown as set and "Refresh models" offered exactly when this is not "none".
   */
  keySource(provider: string): ProviderStatus["keySource"] {
    const source = apiKeySource(provider, this.options.secrets);
    if (source === "settings" || this.options.configured?.(provider) === true) return "settings";
    if (source === "environment") return source;
    return this.fileKey(provider, undefined) !== undefined ? "pi" : "none";
  }
}

function option(provider: string, model: Model<Api>, origin?: "added" | "pi"): ModelOption {
  return {
    provider,
    id: model.id,
    name: model.name,
    reasoning: model.reasoning,
    thinkingLevels: thinkingLevels(model),
    contextWindow: model.contextWindow,
    images: model.input.includes("image"),
    maxTokens: model.maxTokens,
    ...(origin ? { origin } : {}),
  };
}

function thinkingLevels(model: Parameters<typeof getSupportedThinkingLevels>[0]): ThinkingLevel[] {
  if (!model.reasoning) return ["off"];
  const levels = getSupportedThinkingLevels(model) as ThinkingLevel[];
  return levels.includes("off") ? levels : ["off", ...levels];
}
