/**
 * Turns a model reference from settings or the UI into a pi-ai Model: a built-in provider's model from pi-ai's
 * catalogue, one the user added to a built-in provider (settings' `addedModels`), one from pi's `models.json`, or a
 * model on one of the user's OpenAI-compatible endpoints. Main does this for the workers (they ask over the control
 * channel): main owns the settings, and a worker then never loads pi-ai's 550 KB catalogue until a provider module
 * needs it. `sourceModels` lists the same models, for the picker: one place decides what exists.
 */
import type { Api, Model } from "@earendil-works/pi-ai";
import { catalogModels, catalogProviders } from "./model-catalog";
import type { ModelRef } from "../../shared/protocol/app-api";
import { customModel, customProviderId, type CustomProvider } from "../../shared/providers/custom-provider";
import { providerDisplayName } from "../../shared/providers/provider-names";
import { currentProviderId } from "../../shared/providers/renamed-providers";
import { closestModel } from "../../shared/providers/closest-model";
import type { AddedModel } from "../../shared/settings/schema";
import { modelLike } from "./added-model";
import { piProviderKey, piProviderName, type PiModelEntry, type PiModelOverride, type PiModels, type PiProviderEntry } from "./pi-models-file";

export { closestModel };

/** Where models beyond the catalogue come from: settings' endpoints and added models, and pi's `models.json`. */
export interface ModelSources {
  customProviders: readonly CustomProvider[];
  addedModels?: readonly AddedModel[];
  piModels?: Pick<PiModels, "providers">;
}

/**
 * Throws a readable Error when the provider or model is unknown. A provider pi-ai renamed is found under its new
 * name (renamed-providers.ts). A model the catalogue no longer lists (a chat or a default saved with an older pi-ai)
 * and nobody added is refused in words that name the closest current model, so the chat that names it opens without
 * a model and says what to pick (the worker shows this text: see SessionHost.open).
 */
export function resolveModel(ref: ModelRef, sources: ModelSources): Model<any> {
  const customId = customProviderId(ref.provider);
  if (customId !== undefined) {
    const provider = sources.customProviders.find((p) => p.id === customId);
    if (!provider) throw new Error(`Unknown custom provider "${customId}". Add it in Settings first.`);
    return customModel(provider, ref.id);
  }
  const piKey = piProviderKey(ref.provider);
  if (piKey !== undefined) {
    const entry = sources.piModels?.providers.find((p) => !p.builtIn && p.key === piKey);
    const model = entry?.models.find((m) => m.id === ref.id);
    if (!entry || !model) throw new Error(`pi's models.json no longer lists the model "${ref.id}" of provider "${piKey}". Pick another in the model picker.`);
    return overridden(piModel(entry, model), entry, model);
  }
  const providerId = currentProviderId(ref.provider);
  if (!catalogProviders().includes(providerId)) throw new Error(`Unknown provider "${ref.provider}"`);
  const model = builtInModels(providerId, sources).find((m) => m.model.id === ref.id)?.model;
  if (!model) throw new Error(retiredModelText(providerId, ref.id, closestModel(ref.id, catalogModels(providerId))));
  return model;
}

/** A model of a built-in provider, and where it comes from. */
export interface SourcedModel {
  model: Model<Api>;
  origin?: "added" | "pi";
}

/**
 * Every model of built-in `provider`: the catalogue's, then those `models.json` adds (replacing a catalogue model of
 * the same id, as pi does), then the user's added ones that neither lists. `models.json`'s `baseUrl` and headers for
 * the provider apply to all of them, as in pi; its `modelOverrides` to the catalogue's and its own, last, as in pi.
 * An added model is the user's own in Paddock: its fields are the ones Settings show, so no override changes it.
 */
export function builtInModels(provider: string, sources: ModelSources): SourcedModel[] {
  const catalog = catalogModels(provider);
  const file = sources.piModels?.providers.find((p) => p.builtIn && p.key === provider);
  const out = new Map<string, SourcedModel>();
  for (const model of catalog) out.set(model.id, { model: overridden(withProvider(model, file), file) });
  for (const entry of file?.models ?? []) {
    const base = catalog.find((m) => m.id === entry.id);
    const model = modelLike(entry.id, catalog, fileChanges(entry, file), base);
    if (model) out.set(entry.id, { model: overridden(withProvider(model, file), file, entry), origin: "pi" });
  }
  for (const added of sources.addedModels ?? []) {
    if (added.provider !== provider || out.has(added.id)) continue;
    const model = modelLike(added.id, catalog, added);
    if (model) out.set(added.id, { model: withProvider(model, file), origin: "added" });
  }
  return [...out.values()];
}

/** The models of the providers `models.json` adds ("pi:<key>"), those whose key could be resolved. */
export function piProviderModels(piModels: Pick<PiModels, "providers"> | undefined): { entry: PiProviderEntry; model: Model<Api> }[] {
  return (piModels?.providers ?? [])
    .filter((p) => !p.builtIn && p.apiKey !== undefined)
    .flatMap((entry) => entry.models.map((m) => ({ entry, model: overridden(piModel(entry, m), entry, m) })));
}

/**
 * `model` with its provider's `modelOverrides` entry for its id, applied as pi 1.6.0 applies one: each field the
 * override gives replaces the model's; a cost's rates, the thinking map, headers and compatibility are merged into
 * the model's. A header the file's own entry for the model sets stays (pi's order: override, then definition).
 */
function overridden(model: Model<Api>, provider: PiProviderEntry | undefined, entry?: PiModelEntry): Model<Api> {
  const override = provider?.modelOverrides?.get(model.id);
  return override ? applyModelOverride(model, override, entry?.headers) : model;
}

export function applyModelOverride(model: Model<Api>, override: PiModelOverride, ownHeaders?: Record<string, string>): Model<Api> {
  const out: Model<Api> = {
    ...model,
    name: override.name ?? model.name,
    reasoning: override.reasoning ?? model.reasoning,
    input: override.input ?? model.input,
    contextWindow: override.contextWindow ?? model.contextWindow,
    maxTokens: override.maxTokens ?? model.maxTokens,
  };
  if (override.cost) {
    const { tiers, ...rates } = override.cost;
    out.cost = { ...model.cost, ...rates, ...(tiers ? { tiers } : {}) };
  }
  if (override.thinkingLevelMap) out.thinkingLevelMap = { ...model.thinkingLevelMap, ...override.thinkingLevelMap };
  if (override.headers) out.headers = { ...model.headers, ...override.headers, ...ownHeaders };
  if (override.compat) out.compat = mergedCompat(model.compat as Record<string, unknown> | undefined, override.compat) as Model<Api>["compat"];
  return out;
}

/** pi's merge of compatibility settings: key by key, and so are the routing and chat-template objects within. */
function mergedCompat(base: Record<string, unknown> | undefined, change: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base, ...change };
  for (const key of ["openRouterRouting", "vercelGatewayRouting", "chatTemplateKwargs", "chatTemplateArgs"]) {
    const [a, b] = [base?.[key], change[key]];
    if ((typeof a === "object" && a !== null) || (typeof b === "object" && b !== null)) merged[key] = { ...(a as object | undefined), ...(b as object | undefined) };
  }
  return merged;
}

/** The catalogue model with `models.json`'s address and headers for its provider. */
function withProvider(model: Model<Api>, file: PiProviderEntry | undefined): Model<Api> {
  if (!file?.baseUrl && !file?.headers && !file?.compat) return model;
  return {
    ...model,
    ...(file.baseUrl ? { baseUrl: file.baseUrl } : {}),
    ...(file.headers ? { headers: { ...model.headers, ...file.headers } } : {}),
    ...(file.compat ? { compat: { ...(model.compat as object | undefined), ...file.compat } as Model<Api>["compat"] } : {}),
  };
}

function fileChanges(entry: PiModelEntry, provider: PiProviderEntry | undefined) {
  return {
    ...(entry.name ? { name: entry.name } : {}),
    ...(entry.reasoning !== undefined ? { reasoning: entry.reasoning } : {}),
    ...(entry.input ? { images: entry.input.includes("image") } : {}),
    ...(entry.contextWindow ? { contextWindow: entry.contextWindow } : {}),
    ...(entry.maxTokens ? { maxTokens: entry.maxTokens } : {}),
    ...((entry.api ?? provider?.api) ? { api: entry.api ?? provider?.api } : {}),
    ...(entry.baseUrl ? { baseUrl: entry.baseUrl } : {}),
    ...(entry.headers ? { headers: entry.headers } : {}),
    ...(entry.compat ? { compat: entry.compat } : {}),
  };
}

/** A model of a provider `models.json` adds, with pi's defaults for what the file leaves out. */
function piModel(provider: PiProviderEntry, entry: PiModelEntry): Model<Api> {
  const headers = { ...provider.headers, ...entry.headers };
  const compat = { ...provider.compat, ...entry.compat };
  return {
    id: entry.id,
    name: entry.name ?? entry.id,
    api: (entry.api ?? provider.api) as Api,
    provider: piProviderName(provider.key),
    baseUrl: entry.baseUrl ?? provider.baseUrl ?? "",
    reasoning: entry.reasoning ?? false,
    input: entry.input ?? ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    // pi's defaults for a models.json model (models-configuration.md).
    contextWindow: entry.contextWindow ?? 128_000,
    maxTokens: entry.maxTokens ?? 16_384,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(Object.keys(compat).length > 0 ? { compat: compat as Model<Api>["compat"] } : {}),
  };
}

/** What the chat says of a model its provider's catalogue no longer lists. */
export function retiredModelText(provider: string, id: string, closest: Model<any> | undefined): string {
  const name = providerDisplayName(provider);
  const offer = closest ? ` The closest current model is ${closest.name} (${closest.id}): pick it, or another, in the model picker.` : " Pick another in the model picker.";
  return `${name} no longer offers the model "${id}".${offer}`;
}
