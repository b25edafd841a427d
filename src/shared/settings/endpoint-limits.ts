/**
 * A custom endpoint's limits, as numbers, read from the one place that sets them: CustomProviderSchema (typebox's
 * static types do not name a schema's keywords, so they are read here once). For messages that state the limits
 * and for code that keeps within them.
 */
import { CustomProviderSchema } from "./schema";

/** The numeric keyword `key` of `schema`; throws at load when the schema does not set it (a schema change to follow). */
function keyword(schema: object, key: "maxLength" | "maxItems" | "maximum"): number {
  const value = (schema as Record<string, unknown>)[key];
  if (typeof value !== "number") throw new Error(`CustomProviderSchema: expected a ${key}`);
  return value;
}

const fields = CustomProviderSchema.properties;

export const ENDPOINT_LIMITS = {
  /** An id's length: the pattern's `{0,63}` after the first character. */
  id: 64,
  name: keyword(fields.name, "maxLength"),
  baseUrl: keyword(fields.baseUrl, "maxLength"),
  modelId: keyword(fields.models.items, "maxLength"),
  models: keyword(fields.models, "maxItems"),
  /** Context window and output limit, in tokens. */
  tokens: keyword(fields.contextWindow, "maximum"),
} as const;
