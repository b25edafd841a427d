/**
 * A model a built-in provider's catalogue lacks, made from the provider's closest catalogue model: its API, address,
 * headers, compatibility and thinking map, with the new id and the limits the user (or pi's `models.json`) set. What
 * the user types in the model picker, picks from "Refresh models", or a pi user lists in `models.json`, becomes one.
 */
import type { Api, Model } from "@earendil-works/pi-ai";
import { closestModel } from "../../shared/providers/closest-model";

/** What may replace the closest model's fields. */
export interface ModelChanges {
  name?: string;
  reasoning?: boolean;
  images?: boolean;
  contextWindow?: number;
  maxTokens?: number;
  api?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

/**
 * The model `id` of the provider whose catalogue is `catalog`, made from `base` (default: the catalogue's model
 * closest to `id`) with `changes`. Its price is zero: Paddock does not know it, and the closest model's would
 * mislead. Undefined when the catalogue is empty (nothing to make it from).
 */
export function modelLike(id: string, catalog: readonly Model<Api>[], changes: ModelChanges = {}, base = closestModel(id, catalog)): Model<Api> | undefined {
  if (!base) return undefined;
  const reasoning = changes.reasoning ?? base.reasoning;
  const readsImages = changes.images ?? base.input.includes("image");
  const { thinkingLevelMap, promptCache: _unknownLifetime, ...rest } = base;
  const model: Model<Api> = {
    ...rest,
    id,
    name: changes.name ?? id,
    reasoning,
    input: readsImages ? ["text", "image"] : ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: changes.contextWindow ?? base.contextWindow,
    maxTokens: changes.maxTokens ?? base.maxTokens,
    ...(changes.api ? { api: changes.api as Api } : {}),
    ...(changes.baseUrl ? { baseUrl: changes.baseUrl } : {}),
    ...(changes.headers ? { headers: { ...base.headers, ...changes.headers } } : {}),
    ...(changes.compat ? { compat: { ...(base.compat as object | undefined), ...changes.compat } as Model<Api>["compat"] } : {}),
  };
  // The provider's way of asking for thinking stays; a model that does not think asks for none.
  if (reasoning && thinkingLevelMap) model.thinkingLevelMap = thinkingLevelMap;
  return model;
}
