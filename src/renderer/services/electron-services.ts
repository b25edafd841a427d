/**
 * AppServices for the Electron app, over the preload bridge (`window.paddock`, see src/preload/api.ts). App calls
 * go through `paddock.call`, validated by main. A session's channel is a MessagePort that the preload posts to
 * this window after `acquireSessionPort`; main ties the worker's viewer to that port.
 */
import type { AppApi, AppEvent } from "../../shared/protocol/app-api";
import { DomMessagePortTransport } from "../../shared/transport/dom-message-port-transport";
import type { PaddockBridge, SessionPortMessage } from "../../preload/api";
import { SESSION_QUERY_PARAM } from "../../preload/api";
import type { AppServices } from "../app/services";
import type { SessionConnection } from "../store/session-client";
import { openSessionHandle } from "./session-handle";

const PORT_TIMEOUT_MS = 30_000;

export function createElectronServices(bridge: PaddockBridge, location: Location): AppServices {
  const app = new Proxy({} as AppApi, {
    get: (_, method: string) => (...args: unknown[]) => bridge.call(method, args),
  });
  return {
    app,
    initialSessionId: new URLSearchParams(location.search).get(SESSION_QUERY_PARAM) ?? undefined,
    onCommand: (listener) => bridge.onCommand(listener),
    folderDialog: true,
    // Main sends only AppEvents on this channel (and the preload passes on only objects with a type).
    onEvent: (listener) => bridge.onEvent((event) => listener(event as AppEvent)),
    openSession(sessionId) {
      const connector = () => acquirePort(bridge, sessionId);
      // Main notices a closed port; closing the transport (in client.close) is all a viewer owes.
      return openSessionHandle(sessionId, connector, () => {});
    },
  };
}

/** Asks main for a port to the session's worker and waits for the preload to post it to this window. */
function acquirePort(bridge: PaddockBridge, sessionId: string): Promise<SessionConnection> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error("The chat's agent process did not answer")), PORT_TIMEOUT_MS);
    const onMessage = (event: MessageEvent) => {
      // Only the preload (same window) posts ports; anything else is ignored.
      if (event.source !== window) return;
      const data = event.data as Partial<SessionPortMessage> | null;
      if (data?.type !== "paddock:session-port" || data.sessionId !== sessionId || !event.ports[0]) return;
      finish(undefined, { transport: new DomMessagePortTransport(event.ports[0]), restartedReason: data.restartedReason });
    };
    const finish = (error?: Error, connection?: SessionConnection) => {
      clearTimeout(timer);
      window.removeEventListener("message", onMessage);
      if (error) reject(error);
      else resolve(connection!);
    };
    window.addEventListener("message", onMessage);
    bridge.acquireSessionPort(sessionId).catch((e: unknown) => finish(e instanceof Error ? e : new Error(String(e))));
  });
}
