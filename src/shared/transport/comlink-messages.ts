/**
 * Comlink 4's wire format, as far as Paddock reads or writes it: the one place outside Comlink that knows its
 * message shapes (comlink declares them only as const enums in its protocol.d.ts, nothing to import at run time).
 * `rpcEndpoint` carries these messages; the worker's frame guard judges them with `readMethodCall` before Comlink
 * sees them, and answers the ones it refuses with `thrownErrorReply`. A Comlink upgrade that changes the format
 * fails test/unit/shared/transport/comlink-messages.test.ts, which runs the real Comlink against these functions.
 */

/** A plain method call: `APPLY` of a path, every argument sent by value. */
export interface MethodCall {
  id: string;
  path: unknown[];
  args: unknown[];
}

export type MethodCallReading = { ok: true; call: MethodCall } | { ok: false; id?: string; error: string };

/** The request id of a Comlink message (1 to 200 characters), or undefined when it has none that will do. */
export function comlinkMessageId(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  return typeof id === "string" && id.length > 0 && id.length <= 200 ? id : undefined;
}

/**
 * Reads `message` as a method call whose arguments are all plain values (Comlink's `RAW` wire values: no proxies,
 * no transfer handlers). Anything else, property reads and writes, constructors, endpoints and releases included,
 * is refused with the reason and, when the message has one, its id. Never throws.
 */
export function readMethodCall(message: unknown): MethodCallReading {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { ok: false, error: "RPC message must be an object" };
  }
  const id = comlinkMessageId(message);
  if (id === undefined) return { ok: false, error: "RPC message needs a string id" };
  const m = message as { type?: unknown; path?: unknown; argumentList?: unknown };
  if (m.type !== "APPLY") return { ok: false, id, error: `Only method calls are allowed (got ${String(m.type).slice(0, 40)})` };
  if (!Array.isArray(m.path)) return { ok: false, id, error: "RPC message needs a method path" };
  const wire = m.argumentList ?? [];
  if (!Array.isArray(wire) || wire.some((w) => typeof w !== "object" || w === null || (w as { type?: unknown }).type !== "RAW")) {
    return { ok: false, id, error: `${m.path.map(String).join(".").slice(0, 80)}: arguments must be plain values` };
  }
  return { ok: true, call: { id, path: m.path, args: wire.map((w) => (w as { value?: unknown }).value) } };
}

/** The reply Comlink sends for a thrown Error: the caller's promise rejects with an Error whose message is `message`. */
export function thrownErrorReply(id: string, message: string): unknown {
  return {
    id,
    type: "HANDLER",
    name: "throw",
    value: { isError: true, value: { name: "Error", message, stack: undefined } },
  };
}
