/**
 * AppServices for the Electron app, over the preload bridge (`window.paddock`, see shared/protocol/desktop-bridge.ts).
 * App calls go through `paddock.call`, validated by main. A session's channel is a MessagePort that the preload
 * posts to this window after `acquireSessionPort`; main ties the worker's viewer to that port.
 */
import type { AppApi, AppEvent } from "../../shared/protocol/app-api";
import { SESSION_PORT_CHANNEL, SESSION_QUERY_PARAM, type PaddockBridge, type SessionPortMessage } from "../../shared/protocol/desktop-bridge";
import { DomMessagePortTransport } from "../../shared/transport/dom-message-port-transport";
import type { AppServices } from "./app-services";
import type { SessionConnection } from "../store/session-client";
import { openSessionHandle } from "./session-handle";

const PORT_TIMEOUT_MS = 30_000;

export function createElectronServices(bridge: PaddockBridge, location: Location): AppServices {
  const app = new Proxy({} as AppApi, {
    get: (_, method: string) => (...args: unknown[]) => bridge.call(method, args),
  });
  const ports = new PortRequests(bridge);
  return {
    app,
    initialSessionId: new URLSearchParams(location.search).get(SESSION_QUERY_PARAM) ?? undefined,
    onCommand: (listener) => bridge.onCommand(listener),
    folderDialog: true,
    saveDialog: true,
    spellChecker: true,
    // Main sends only AppEvents on this channel (and the preload passes on only objects with a type).
    onEvent: (listener) => bridge.onEvent((event) => listener(event as AppEvent)),
    openSession(sessionId) {
      const connector = () => ports.acquire(sessionId);
      // Main notices a closed port; closing the transport (in client.close) is all a viewer owes.
      return openSessionHandle(sessionId, connector, () => {}, () => app.retrySessionWorker(sessionId));
    },
  };
}

/**
 * The page's pending port requests, by nonce. Each request takes only the port posted with its own nonce; a port
 * nobody waits for (its request timed out, or was superseded) is closed at once, so the worker's end does not
 * linger.
 */
class PortRequests {
  readonly #pending = new Map<string, (message: SessionPortMessage, port: MessagePort) => void>();

  constructor(private readonly bridge: PaddockBridge) {
    window.addEventListener("message", (event: MessageEvent) => {
      // Only the preload (same window) posts ports; anything else is ignored.
      if (event.source !== window) return;
      const data = event.data as Partial<SessionPortMessage> | null;
      const port = event.ports[0];
      if (data?.type !== SESSION_PORT_CHANNEL || !port) return;
      const take = typeof data.nonce === "string" ? this.#pending.get(data.nonce) : undefined;
      if (take) take(data as SessionPortMessage, port);
      else port.close();
    });
  }

  /** Asks main for a port to the session's worker and waits for the preload to post it to this window. */
  acquire(sessionId: string): Promise<SessionConnection> {
    const nonce = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error("The chat's agent process did not answer")), PORT_TIMEOUT_MS);
      const finish = (error?: Error, connection?: SessionConnection) => {
        clearTimeout(timer);
        this.#pending.delete(nonce);
        if (error) reject(error);
        else resolve(connection!);
      };
      this.#pending.set(nonce, (message, port) => {
        if (message.sessionId !== sessionId) {
          port.close();
          finish(new Error("Main answered with a port to another chat"));
          return;
        }
        finish(undefined, { transport: new DomMessagePortTransport(port), restartedReason: message.restartedReason });
      });
      this.bridge.acquireSessionPort(sessionId, nonce).catch((e: unknown) => finish(e instanceof Error ? e : new Error(String(e))));
    });
  }
}
