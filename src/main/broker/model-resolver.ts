/**
 * Turns a model reference from settings or the UI into a pi-ai Model: a built-in provider's model from pi-ai's
 * catalogue, or a model on one of the user's OpenAI-compatible endpoints. Main does this for the workers (they ask
 * over the control channel): main owns the settings, and a worker then never loads pi-ai's 550 KB catalogue until a
 * provider module needs it.
 */
import type { Model } from "@earendil-works/pi-ai";
import { catalogModels, catalogProviders } from "./model-catalog";
import type { ModelRef } from "../../shared/protocol/app-api";
import { customModel, customProviderId, type CustomProvider } from "../../shared/providers/custom-provider";
import { providerDisplayName } from "../../shared/providers/provider-names";
import { currentProviderId } from "../../shared/providers/renamed-providers";

/**
 * Throws a readable Error when the provider or model is unknown. A provider pi-ai renamed is found under its new
 * name (renamed-providers.ts). A model the catalogue no longer lists (a chat or a default saved with an older pi-ai)
 * is refused in words that name the closest current model, so the chat that names it opens without a model and says
 * what to pick (the worker shows this text: see SessionHost.open).
 */
export function resolveModel(ref: ModelRef, customProviders: readonly CustomProvider[]): Model<any> {
  const customId = customProviderId(ref.provider);
  if (customId !== undefined) {
    const provider = customProviders.find((p) => p.id === customId);
    if (!provider) throw new Error(`Unknown custom provider "${customId}". Add it in Settings first.`);
    return customModel(provider, ref.id);
  }
  const providerId = currentProviderId(ref.provider);
  if (!catalogProviders().includes(providerId)) throw new Error(`Unknown provider "${ref.provider}"`);
  const models = catalogModels(providerId);
  const model = models.find((m) => m.id === ref.id);
  if (!model) throw new Error(retiredModelText(providerId, ref.id, closestModel(ref.id, models)));
  return model;
}

/** What the chat says of a model its provider's catalogue no longer lists. */
export function retiredModelText(provider: string, id: string, closest: Model<any> | undefined): string {
  const name = providerDisplayName(provider);
  const offer = closest ? ` The closest current model is ${closest.name} (${closest.id}): pick it, or another, in the model picker.` : " Pick another in the model picker.";
  return `${name} no longer offers the model "${id}".${offer}`;
}

/**
 * The current model most like a retired id: the one sharing the longest start with it ("claude-opus-4-1" ->
 * "claude-opus-4-7"), then the fewest edits; among equals the newer-sounding, higher id.
 */
export function closestModel(id: string, models: readonly Model<any>[]): Model<any> | undefined {
  let best: { model: Model<any>; prefix: number; distance: number } | undefined;
  for (const model of models) {
    const prefix = commonPrefix(id, model.id);
    const distance = editDistance(id, model.id);
    const better = !best || prefix > best.prefix || (prefix === best.prefix && (distance < best.distance || (distance === best.distance && model.id > best.model.id)));
    if (better) best = { model, prefix, distance };
  }
  return best?.model;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
