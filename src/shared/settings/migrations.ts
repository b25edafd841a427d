/**
 * Older settings file layouts, and the steps that carry each one a version forward. Each step is a pure function on
 * plain data: it never validates (schema.ts does that once, after the last step) and never throws. Keys a step does
 * not know pass through untouched, so validation and salvage see them.
 */

import { isRecord } from "../is-record";
import { currentProviderId } from "../providers/renamed-providers";

type Raw = Record<string, unknown>;

/**
 * Version 1, flat:
 * `{ version: 1, escAbort?: boolean, model?: "provider/id", queueMode?: "one-at-a-time" | "all", ... }`.
 * One `queueMode` drove both the steering and the follow-up queue.
 */
export function migrateV1ToV2(v1: Raw): Raw {
  const { escAbort, model, queueMode, version: _version, ...rest } = v1;
  const v2: Raw = { ...rest, version: 2 };
  if (typeof escAbort === "boolean") {
    v2.abort = { ...asRecord(rest.abort), escAction: escAbort ? "abort" : "nothing" };
  }
  const defaultModel = parseModelString(model);
  if (defaultModel) v2.defaultModel = defaultModel;
  if (queueMode !== undefined) {
    v2.steeringMode = queueMode;
    v2.followUpMode = queueMode;
  }
  return v2;
}

/**
 * Version 2 named providers as pi-ai 0.73 did; version 3 as pi-ai 1.6.0 does (`azure-openai-responses` is `azure`,
 * renamed-providers.ts). The default model is the one setting that names a provider.
 */
export function migrateV2ToV3(v2: Raw): Raw {
  const v3: Raw = { ...v2, version: 3 };
  const model = v2.defaultModel;
  if (isRecord(model) && typeof model.provider === "string" && currentProviderId(model.provider) !== model.provider) {
    v3.defaultModel = { ...model, provider: currentProviderId(model.provider) };
  }
  return v3;
}

/**
 * The steps, keyed by the version they start from. A file without a version predates versioning: it is read as
 * version 1, whose step also passes through any keys that already have their version-2 shape.
 */
export const MIGRATIONS: Readonly<Record<number, (raw: Raw) => Raw>> = {
  1: migrateV1ToV2,
  2: migrateV2ToV3,
};

/** `"openai/gpt-4o"` -> `{ provider: "openai", id: "gpt-4o" }`; ids may contain further slashes. */
function parseModelString(value: unknown): { provider: string; id: string } | undefined {
  if (typeof value !== "string") return undefined;
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) return undefined;
  return { provider: value.slice(0, slash), id: value.slice(slash + 1) };
}

function asRecord(value: unknown): Raw {
  return isRecord(value) ? value : {};
}
