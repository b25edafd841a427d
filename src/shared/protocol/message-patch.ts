/**
 * Structural patches between two versions of a streaming assistant message.
 *
 * pi-ai providers mutate one partial message in place and announce each change with a small event. Forwarding the
 * whole partial per event costs O(n^2) bytes over a reply; these patches carry only what changed, so a reply costs
 * O(n). `diffMessage` runs in the worker, `applyPatches` in the mirror; both are pure.
 */

import { isRecord } from "../is-record";

export type PatchPath = readonly (string | number)[];

export type Patch =
  /** Append `a` to the string at `p` (a missing string counts as ""). */
  | { p: PatchPath; a: string }
  /** Set the value at `p`. */
  | { p: PatchPath; v: unknown }
  /** Delete the key at `p`. */
  | { p: PatchPath; d: 1 };

/**
 * The provider event behind an update: which block's streaming string grew, and by what. During streaming the
 * streaming strings (text, thinking, partialArgs) are owned by the events: pi-ai's live partial message runs ahead
 * of the events the agent loop has consumed so far, so reading those strings from it would double text. They are
 * grown by the events' deltas only, and reconciled with the final message at message_end.
 */
export interface HotField {
  contentIndex: number;
  field: string;
  delta: string;
}

/**
 * The block fields whose content only events may change while a message streams: for each, the block type that has
 * it and the provider event whose delta grows it. The one table of these facts; the wire codec derives from it.
 */
export const STREAMED_BLOCK_FIELDS = [
  { block: "text", field: "text", event: "text_delta" },
  { block: "thinking", field: "thinking", event: "thinking_delta" },
  { block: "toolCall", field: "partialArgs", event: "toolcall_delta" },
] as const;

export type StreamedBlockField = (typeof STREAMED_BLOCK_FIELDS)[number];

const STREAMED_FIELDS = new Set<string>(STREAMED_BLOCK_FIELDS.map((s) => s.field));

type Obj = Record<string, unknown>;

/** Deep equality over JSON-like values; `undefined`-valued keys count as absent, as they would on the wire. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Obj;
  const bo = b as Obj;
  const aKeys = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bKeys = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (aKeys.length !== bKeys.length) return false;
  for (const k of aKeys) if (!jsonEqual(ao[k], bo[k])) return false;
  return true;
}

/** Diffs two JSON-like values into `out`; strings that only grew become appends. */
function diffValue(before: unknown, after: unknown, path: PatchPath, out: Patch[]): void {
  if (before === after) return;
  if (typeof before === "string" && typeof after === "string") {
    if (after.length > before.length && after.startsWith(before)) out.push({ p: path, a: after.slice(before.length) });
    else out.push({ p: path, v: after });
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    for (const key of Object.keys(after)) {
      const next = after[key];
      if (next === undefined) {
        if (before[key] !== undefined) out.push({ p: [...path, key], d: 1 });
        continue;
      }
      if (before[key] === undefined) out.push({ p: [...path, key], v: next });
      else if (before[key] !== next) diffValue(before[key], next, [...path, key], out);
    }
    for (const key of Object.keys(before)) {
      if (before[key] !== undefined && !(key in after)) out.push({ p: [...path, key], d: 1 });
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && after.length >= before.length) {
    for (let i = 0; i < after.length; i++) {
      if (i >= before.length) out.push({ p: [...path, i], v: after[i] });
      else if (before[i] !== after[i]) diffValue(before[i], after[i], [...path, i], out);
    }
    return;
  }
  if (!jsonEqual(before, after)) out.push({ p: path, v: after });
}

/**
 * Patches that turn `before` into `after`, comparing every field (message_end: the final reconciliation).
 * Never mutates its inputs.
 */
export function diffMessage(before: object, after: object): Patch[] {
  const out: Patch[] = [];
  diffValue(before, after, [], out);
  return out;
}

/**
 * Patches for one streaming update: every field compared as in `diffMessage`, except the streamed strings, which
 * only grow by `hot.delta` (see HotField). A block that is new gets its streamed strings empty; the deltas fill them.
 */
export function diffStreamingUpdate(before: object, live: object, hot: HotField | undefined): Patch[] {
  const out: Patch[] = [];
  diffTopLevel(before as Obj, live as Obj, out);
  const beforeContent = Array.isArray((before as Obj).content) ? ((before as Obj).content as Obj[]) : [];
  const liveContent = Array.isArray((live as Obj).content) ? ((live as Obj).content as Obj[]) : [];
  if (!Array.isArray((before as Obj).content)) out.push({ p: ["content"], v: [] });
  for (let i = 0; i < liveContent.length; i++) {
    const liveBlock = liveContent[i];
    if (!isRecord(liveBlock)) continue;
    if (i >= beforeContent.length) {
      const fresh: Obj = {};
      for (const [k, v] of Object.entries(liveBlock)) fresh[k] = STREAMED_FIELDS.has(k) && typeof v === "string" ? "" : v;
      out.push({ p: ["content", i], v: fresh });
      continue;
    }
    const beforeBlock = beforeContent[i];
    for (const key of Object.keys(liveBlock)) {
      if (STREAMED_FIELDS.has(key)) continue;
      const next = liveBlock[key];
      if (next === undefined) continue;
      if (beforeBlock[key] === undefined) out.push({ p: ["content", i, key], v: next });
      else if (beforeBlock[key] !== next) diffValue(beforeBlock[key], next, ["content", i, key], out);
    }
  }
  if (hot && hot.delta.length > 0 && hot.contentIndex < Math.max(liveContent.length, beforeContent.length)) {
    out.push({ p: ["content", hot.contentIndex, hot.field], a: hot.delta });
  }
  return out;
}

function diffTopLevel(b: Obj, a: Obj, out: Patch[]): void {
  for (const key of Object.keys(a)) {
    if (key === "content") continue;
    if (a[key] === undefined) {
      if (b[key] !== undefined) out.push({ p: [key], d: 1 });
    } else if (b[key] === undefined) out.push({ p: [key], v: a[key] });
    else if (b[key] !== a[key]) diffValue(b[key], a[key], [key], out);
  }
  for (const key of Object.keys(b)) {
    if (key !== "content" && b[key] !== undefined && !(key in a)) out.push({ p: [key], d: 1 });
  }
}

function applyAt(target: unknown, path: PatchPath, index: number, patch: Patch): unknown {
  const key = path[index];
  const container: Obj | unknown[] = Array.isArray(target) ? target.slice() : { ...(target as Obj) };
  const record = container as Record<string | number, unknown>;
  if (index === path.length - 1) {
    if ("a" in patch) record[key] = (typeof record[key] === "string" ? (record[key] as string) : "") + patch.a;
    else if ("v" in patch) record[key] = patch.v;
    else if (Array.isArray(container)) container.splice(key as number, 1);
    else delete record[key];
    return container;
  }
  record[key] = applyAt(record[key] ?? (typeof path[index + 1] === "number" ? [] : {}), path, index + 1, patch);
  return container;
}

/**
 * Applies patches immutably: every object on a patched path is copied, everything else is shared. An empty path is
 * not allowed (messages are patched field by field).
 */
export function applyPatches<T extends object>(message: T, patches: readonly Patch[]): T {
  let result: unknown = message;
  for (const patch of patches) {
    if (patch.p.length === 0) throw new Error("A message patch needs a non-empty path");
    result = applyAt(result, patch.p, 0, patch);
  }
  return result as T;
}

/**
 * The first copy of a streaming assistant message: its streamed strings emptied, because the events that will
 * grow them may still be queued behind this one (see HotField).
 */
export function streamingStart<T extends object>(message: T): T {
  const copy = snapshotMessage(message) as Obj;
  if (Array.isArray(copy.content)) {
    copy.content = (copy.content as unknown[]).map((block) => {
      if (!isRecord(block)) return block;
      const out: Obj = { ...block };
      for (const key of Object.keys(out)) if (STREAMED_FIELDS.has(key) && typeof out[key] === "string") out[key] = "";
      return out;
    });
  }
  return copy as T;
}

/** A copy deep enough to stay stable while a provider keeps mutating the original in place. */
export function snapshotMessage<T extends object>(message: T): T {
  return structuredCloneJson(message);
}

function structuredCloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => structuredCloneJson(v)) as T;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) out[k] = structuredCloneJson(v);
  return out as T;
}
