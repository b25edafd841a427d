/**
 * Validation of everything that arrives on a session transport, before any of it reaches Comlink or the Agent.
 * Contract: never throws, whatever the input; a rejected frame gets an error reply (an RPC error when the frame
 * has an id, an `err` frame otherwise) and nothing else happens.
 */
import { Value } from "typebox/value";
import { isSessionMethod, MAX_FRAME_CHARS, SESSION_METHOD_SCHEMAS } from "../../../shared/protocol/session-protocol";
import { comlinkMessageId, readMethodCall, thrownErrorReply } from "../../../shared/transport/comlink-messages";

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

/** Checks one inbound RPC message (Comlink's wire format, read by comlink-messages.ts) against the session API. */
export function checkRpcMessage(message: unknown): GuardVerdict {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { ok: false, error: `RPC message must be an object, got ${describe(message)}` };
  }
  const id = comlinkMessageId(message);
  if (!id) return { ok: false, error: "RPC message needs a string id" };
  if (boundedSize(message, MAX_FRAME_CHARS) > MAX_FRAME_CHARS) {
    return { ok: false, id, error: `RPC message is larger than ${MAX_FRAME_CHARS} characters` };
  }
  const reading = readMethodCall(message);
  if (!reading.ok) return { ok: false, id, error: reading.error };
  const { path, args } = reading.call;
  if (path.length !== 1 || !isSessionMethod(path[0])) {
    return { ok: false, id, error: `Unknown method: ${path.map(String).join(".").slice(0, 80)}` };
  }
  const method = path[0];
  const schema = SESSION_METHOD_SCHEMAS[method];
  if (!Value.Check(schema, args)) {
    const first = [...Value.Errors(schema, args)][0];
    const where = first && "instancePath" in first ? String((first as { instancePath?: unknown }).instancePath) : "";
    return { ok: false, id, error: `${method}: invalid arguments${where ? ` at ${where}` : ""}: ${first?.message ?? "schema mismatch"}` };
  }
  return { ok: true };
}

/** The reply that makes the caller's promise reject with `message` (Comlink's shape for a thrown Error). */
export const rpcErrorReply: (id: string, message: string) => unknown = thrownErrorReply;
