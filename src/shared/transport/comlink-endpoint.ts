import type { Endpoint } from "comlink";
import type { Transport } from "./transport";

type Listener = Parameters<Endpoint["addEventListener"]>[1];
type MessageEventLike = Parameters<Extract<Listener, (...args: never[]) => unknown>>[0];

/**
 * Comlink's Endpoint over one lane of a transport (default "rpc", the session channel's). Comlink wants DOM-style
 * `{ data }` events; the transport carries `{ ch: lane, m }` frames so RPC and other traffic can share one port.
 *
 * `filter` (worker side) may inspect each inbound RPC message first and return false to swallow it (it has then
 * answered it itself), so Comlink only ever sees messages that passed validation.
 */
export function rpcEndpoint(
  transport: Transport,
  { lane = "rpc", filter }: { lane?: string; filter?: (message: unknown) => boolean } = {},
): Endpoint {
  const listeners = new Map<Listener, () => void>();
  return {
    postMessage(message: unknown) {
      transport.send({ ch: lane, m: message });
    },
    addEventListener(_type: string, listener: Listener) {
      const off = transport.onMessage((frame) => {
        if (typeof frame !== "object" || frame === null || (frame as { ch?: unknown }).ch !== lane) return;
        const message = (frame as { m?: unknown }).m;
        if (filter && !filter(message)) return;
        const event = { data: message } as unknown as MessageEventLike;
        if (typeof listener === "function") listener(event);
        else listener.handleEvent(event);
      });
      listeners.set(listener, off);
    },
    removeEventListener(_type: string, listener: Listener) {
      listeners.get(listener)?.();
      listeners.delete(listener);
    },
  };
}
