import type { SessionHandle } from "./app-services";
import { frameCoalesced } from "../store/frame-coalesced";
import { SessionClient, type SessionConnector } from "../store/session-client";
import { errorText } from "../../shared/error-text";

/** A chat opens with this many of its newest messages (several screens); older ones load right behind. */
const OPEN_WITH_MESSAGES = 100;

/**
 * Turns a session connector into the App's SessionHandle: a SessionClient that starts connecting at once. The
 * handle is usable before the connection is ready (the view says "connecting"); if the first connection fails,
 * the view shows the reason as a notice and the connection as closed. `release` runs once, on `close()`.
 */
export function openSessionHandle(sessionId: string, connector: SessionConnector, release: () => void, retryWorker?: () => Promise<void>): SessionHandle {
  const client = new SessionClient(sessionId, connector, { historyTail: OPEN_WITH_MESSAGES, ...(retryWorker ? { retryWorker } : {}) });
  let closed = false;
  client.start().catch((error: unknown) => {
    if (closed) return;
    client.mirror.addNotice("error", `Could not open this chat: ${errorText(error)}`);
    client.close();
  });
  const view = frameCoalesced(client.mirror);
  return {
    subscribe: view.subscribe,
    getView: view.getView,
    commands: client,
    close: () => {
      if (closed) return;
      closed = true;
      client.close();
      release();
    },
  };
}

/** A random id for one viewer of a session (a page may view several sessions over its life). */
export function newViewerId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
