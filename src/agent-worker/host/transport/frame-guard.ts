/**
 * Validation of everything that arrives on a session transport, before any of it reaches Comlink or the Agent.
 * Contract: never throws, whatever the input; a rejected frame gets an error reply (an RPC error when the frame
 * has an id, an `err` frame otherwise) and nothing else happens. The gate itself is shared/transport/rpc-guard.ts.
 */
import { MAX_FRAME_CHARS, SESSION_METHOD_SCHEMAS } from "../../../shared/protocol/session-protocol";
import { thrownErrorReply } from "../../../shared/transport/comlink-messages";
import { checkMethodCall, type GuardVerdict } from "../../../shared/transport/rpc-guard";

export { boundedSize, type GuardVerdict } from "../../../shared/transport/rpc-guard";

/** Checks one inbound RPC message (Comlink's wire format, read by comlink-messages.ts) against the session API. */
export function checkRpcMessage(message: unknown): GuardVerdict {
  return checkMethodCall(SESSION_METHOD_SCHEMAS, message, MAX_FRAME_CHARS);
}

/** The reply that makes the caller's promise reject with `message` (Comlink's shape for a thrown Error). */
export const rpcErrorReply: (id: string, message: string) => unknown = thrownErrorReply;
