/**
 * A record (an object used as a map) whose keys are checked. Pure: no Node, DOM or Electron.
 *
 * TypeBox's `Type.Record(Type.String({ pattern }), Value)` becomes JSON Schema's `patternProperties` alone: a key
 * that matches the pattern must hold a `Value`, and a key that does not is simply not checked, so
 * `{ "<hash>/../../.bashrc": … }` passes a record of attachment ids. `KeyedRecord` also sets
 * `additionalProperties: false`, so every key must match. The key's other limits (`minLength`...) are dropped by
 * TypeBox too: say them in the pattern.
 */
import { Type, type TObjectOptions, type TSchema } from "typebox";

/**
 * A record schema whose every key matches `keyPattern` in full, with `value` under each. The pattern must be anchored
 * (`^…$`), or it would accept any key that merely contains a match: an unanchored one throws, at load time.
 */
export function KeyedRecord<Value extends TSchema>(keyPattern: string, value: Value, options: TObjectOptions = {}) {
  if (!keyPattern.startsWith("^") || !keyPattern.endsWith("$") || keyPattern.endsWith("\\$")) {
    throw new Error(`A record's key pattern must be anchored (^…$) to check the whole key: ${keyPattern}`);
  }
  return Type.Record(Type.String({ pattern: keyPattern }), value, { ...options, additionalProperties: false });
}

/** Any key at all (a tool call's arguments): said once, so "every key is checked" has no exception to look for. */
export const ANY_KEY = "^[\\s\\S]*$";
