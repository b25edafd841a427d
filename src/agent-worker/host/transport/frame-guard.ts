/**
 * Validation of everything that arrives on a session transport, before any of it reaches Comlink or the Agent.
 * Contract: never throws, whatever the input; a rejected frame gets an error reply (an RPC error when the frame
 * has an id, an `err` frame otherwise) and nothing else happens. The gate itself is shared/transport/rpc-guard.ts.
 */
import { MAX_FRAME_CHARS, SESSION_METHOD_SCHEMAS } from "../../../shared/protocol/session-protocol";
import type { Transport } from "../../../shared/transport/transport";
import { checkMethodCall, methodCallFilter, type GuardVerdict } from "../../../shared/transport/rpc-guard";

/** Checks one inbound RPC message (Comlink's wire format, read by comlink-messages.ts) against the session API. */
export function checkRpcMessage(message: unknown): GuardVerdict {
  return checkMethodCall(SESSION_METHOD_SCHEMAS, message, MAX_FRAME_CHARS);
}

/** The session channel's `rpcEndpoint` filter: a refused call is answered on `transport` (an RPC error, else an `err` frame). */
export function sessionCallFilter(transport: Transport): (message: unknown) => boolean {
  return methodCallFilter(SESSION_METHOD_SCHEMAS, MAX_FRAME_CHARS, {
    reply: (m) => transport.send({ ch: "rpc", m }),
    unanswerable: (message) => transport.send({ ch: "err", message }),
  });
}
