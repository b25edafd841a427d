/**
 * The browser host's push channel: one WebSocket per page to `/api/events`, reopened with growing pauses while the
 * host is away. It is also how the page knows the host is there at all: a host that stopped or crashed closes it.
 */
import type { AppEvent } from "../../shared/protocol/app-api";
import { Listeners } from "../../shared/transport/transport";
import type { HostStatus } from "./app-services";

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];

export interface HostEvents {
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** Told each change: "reconnecting" when the socket drops, "connected" when it is back. */
  onStatus(listener: (status: HostStatus) => void): () => void;
}

/**
 * Opens the socket at `url()` (credential included; asked again for each reconnection, since the page renews its
 * credential) and keeps it open for the page's life.
 */
export function connectHostEvents(url: () => string): HostEvents {
  const events = new Listeners<[AppEvent]>();
  const statuses = new Listeners<[HostStatus]>();
  let status: HostStatus = "connected";
  let failures = 0;
  const setStatus = (next: HostStatus) => {
    if (next === status) return;
    status = next;
    statuses.emit(next);
  };
  const open = () => {
    const socket = new WebSocket(url());
    socket.addEventListener("open", () => {
      failures = 0;
      setStatus("connected");
    });
    socket.addEventListener("message", (message) => {
      let event: unknown;
      try {
        event = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (typeof event === "object" && event !== null && typeof (event as { type?: unknown }).type === "string") {
        events.emit(event as AppEvent);
      }
    });
    socket.addEventListener("close", () => {
      setStatus("reconnecting");
      const delay = RETRY_DELAYS_MS[Math.min(failures++, RETRY_DELAYS_MS.length - 1)];
      setTimeout(open, delay);
    });
  };
  open();
  return {
    onEvent: (listener) => events.add(listener),
    onStatus: (listener) => statuses.add(listener),
  };
}
