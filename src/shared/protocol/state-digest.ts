/**
 * A digest of a session's mirrored state, computed the same way in the worker and the mirror. Used only when a
 * session runs with integrity checks on: equal digests after a batch prove the mirror matches the worker.
 * Canonical: object keys sorted, `undefined` values dropped (as on the wire), Sets as sorted arrays.
 */
import type { AgentMessage } from "../agent/types";
import type { AgentStateData } from "../agent/state";

function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (value instanceof Set) return canonical([...value].sort());
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonical(v))).join(",")}]`;
  const entries = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/** FNV-1a over the canonical JSON, as 8 hex digits; cheap, and collisions do not matter for a sync check. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export function stateDigest(
  state: Readonly<AgentStateData>,
  steering: readonly AgentMessage[],
  followUp: readonly AgentMessage[],
): string {
  return fnv1a(canonical({ ...state, steering, followUp }));
}
