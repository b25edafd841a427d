/**
 * Validation of everything that arrives on a session transport, before any of it reaches Comlink or the Agent.
 * Contract: never throws, whatever the input; a rejected frame gets an error reply (an RPC error when the frame
 * has an id, an `err` frame otherwise) and nothing else happens.
 */
import { Value } from "typebox/value";
import { isSessionMethod, MAX_FRAME_CHARS, SESSION_METHOD_SCHEMAS } from "../../shared/protocol/session-protocol";

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

/** Checks one inbound RPC message (Comlink's wire format) against the session API. */
export function checkRpcMessage(message: unknown): GuardVerdict {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { ok: false, error: `RPC message must be an object, got ${describe(message)}` };
  }
  const m = message as { id?: unknown; type?: unknown; path?: unknown; argumentList?: unknown };
  const id = typeof m.id === "string" && m.id.length > 0 && m.id.length <= 200 ? m.id : undefined;
  if (!id) return { ok: false, error: "RPC message needs a string id" };
  if (boundedSize(message, MAX_FRAME_CHARS) > MAX_FRAME_CHARS) {
    return { ok: false, id, error: `RPC message is larger than ${MAX_FRAME_CHARS} characters` };
  }
  if (m.type !== "APPLY") return { ok: false, id, error: `Only method calls are allowed (got ${String(m.type).slice(0, 40)})` };
  if (!Array.isArray(m.path) || m.path.length !== 1 || !isSessionMethod(m.path[0])) {
    const name = Array.isArray(m.path) ? m.path.map(String).join(".").slice(0, 80) : "?";
    return { ok: false, id, error: `Unknown method: ${name}` };
  }
  const method = m.path[0];
  const wire = m.argumentList ?? [];
  if (!Array.isArray(wire) || wire.some((w) => typeof w !== "object" || w === null || (w as { type?: unknown }).type !== "RAW")) {
    return { ok: false, id, error: `${method}: arguments must be plain values` };
  }
  const args = wire.map((w) => (w as { value?: unknown }).value);
  const schema = SESSION_METHOD_SCHEMAS[method];
  if (!Value.Check(schema, args)) {
    const first = [...Value.Errors(schema, args)][0];
    const where = first && "instancePath" in first ? String((first as { instancePath?: unknown }).instancePath) : "";
    return { ok: false, id, error: `${method}: invalid arguments${where ? ` at ${where}` : ""}: ${first?.message ?? "schema mismatch"}` };
  }
  return { ok: true };
}

/** Comlink's reply shape for a thrown Error, so the caller's promise rejects with `message`. */
export function rpcErrorReply(id: string, message: string): unknown {
  return {
    id,
    type: "HANDLER",
    name: "throw",
    value: { isError: true, value: { name: "Error", message, stack: undefined } },
  };
}
