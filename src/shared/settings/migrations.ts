/**
 * Older settings file layouts, and the steps that carry each one a version forward. Each step is a pure function on
 * plain data: it never validates (schema.ts does that once, after the last step) and never throws. Keys a step does
 * not know pass through untouched, so validation and salvage see them.
 */

import { isRecord } from "../is-record";

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
 * The steps, keyed by the version they start from. A file without a version predates versioning: it is read as
 * version 1, whose step also passes through any keys that already have their version-2 shape.
 */
export const MIGRATIONS: Readonly<Record<number, (raw: Raw) => Raw>> = {
  1: migrateV1ToV2,
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
