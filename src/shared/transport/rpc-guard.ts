/**
 * The schema gate for a Comlink lane whose caller is not trusted: one argument-list schema per method, and every
 * inbound message judged against them before Comlink sees it. Used by a session's worker (the session channel,
 * agent-worker/host/frame-guard.ts) and by main for what a worker asks of it (the control channel's "w2c" lane).
 * Contract: never throws, whatever the input.
 */
import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import { comlinkMessageId, readMethodCall, thrownErrorReply } from "./comlink-messages";

export type GuardVerdict = { ok: true } | { ok: false; id?: string; error: string };

/** Rough size of a JSON-like value in characters, giving up as soon as it passes `limit`. */
export function boundedSize(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (typeof v === "string") total += v.length + 2;
    else if (typeof v === "object" && v !== null) {
      const entries = Array.isArray(v) ? v : Object.entries(v);
      total += 2 + entries.length;
      for (const e of entries) stack.push(e);
    } else total += 8;
  }
  return total;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return `a ${typeof value}`;
}

/**
 * Checks one inbound RPC message (Comlink's wire format, read by comlink-messages.ts): a plain method call of one of
 * `schemas`' methods, with arguments its schema accepts, no larger than `maxChars`.
 */
export function checkMethodCall(schemas: Readonly<Record<string, TSchema>>, message: unknown, maxChars: number): GuardVerdict {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { ok: false, error: `RPC message must be an object, got ${describe(message)}` };
  }
  const id = comlinkMessageId(message);
  if (!id) return { ok: false, error: "RPC message needs a string id" };
  if (boundedSize(message, maxChars) > maxChars) {
    return { ok: false, id, error: `RPC message is larger than ${maxChars} characters` };
  }
  const reading = readMethodCall(message);
  if (!reading.ok) return { ok: false, id, error: reading.error };
  const { path, args } = reading.call;
  const method = path[0];
  if (path.length !== 1 || typeof method !== "string" || !Object.prototype.hasOwnProperty.call(schemas, method)) {
    return { ok: false, id, error: `Unknown method: ${path.map(String).join(".").slice(0, 80)}` };
  }
  const schema = schemas[method]!;
  if (!Value.Check(schema, args)) {
    const first = [...Value.Errors(schema, args)][0];
    const where = first && "instancePath" in first ? String((first as { instancePath?: unknown }).instancePath) : "";
    return { ok: false, id, error: `${method}: invalid arguments${where ? ` at ${where}` : ""}: ${first?.message ?? "schema mismatch"}` };
  }
  return { ok: true };
}

/**
 * The gate as an `rpcEndpoint` filter: a message `checkMethodCall` refuses goes no further; the caller learns why,
 * through `reply` as a Comlink error reply when the message has an id, else through `unanswerable` (dropped when
 * absent: there is no call to answer).
 */
export function methodCallFilter(
  schemas: Readonly<Record<string, TSchema>>,
  maxChars: number,
  answer: { reply(message: unknown): void; unanswerable?(error: string): void },
): (message: unknown) => boolean {
  return (message) => {
    const verdict = checkMethodCall(schemas, message, maxChars);
    if (verdict.ok) return true;
    if (verdict.id) answer.reply(thrownErrorReply(verdict.id, verdict.error));
    else answer.unanswerable?.(verdict.error);
    return false;
  };
}
