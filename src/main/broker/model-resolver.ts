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

/** Throws a readable Error when the provider or model is unknown. */
export function resolveModel(ref: ModelRef, customProviders: readonly CustomProvider[]): Model<any> {
  const customId = customProviderId(ref.provider);
  if (customId !== undefined) {
    const provider = customProviders.find((p) => p.id === customId);
    if (!provider) throw new Error(`Unknown custom provider "${customId}". Add it in Settings first.`);
    return customModel(provider, ref.id);
  }
  if (!catalogProviders().includes(ref.provider)) throw new Error(`Unknown provider "${ref.provider}"`);
  const model = catalogModels(ref.provider).find((m) => m.id === ref.id);
  if (!model) throw new Error(`Provider "${ref.provider}" has no model "${ref.id}"`);
  return model;
}
