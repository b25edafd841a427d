/**
 * AppServices for the browser host (`npm run dev:web`): app calls go to the host's HTTP API with the page's token
 * in a header; main's pushes come over one events WebSocket; each session's channel is a native WebSocket straight
 * to its worker, at the URL the host returns from attach. See src/web-host/http-server.ts for the other side.
 */
import type { AppApi } from "../../shared/protocol/app-api";
import { WebSocketTransport, type WebSocketLike } from "../../shared/transport/websocket-transport";
import type { AppServices, PageNotifications } from "../app/services";
import { HostUnreachableError, type SessionConnection } from "../store/session-client";
import { connectHostEvents } from "./host-events";
import { newViewerId, openSessionHandle } from "./session-handle";
import { PAGE_TOKEN_META, WEB_HOST_TOKEN_HEADER as TOKEN_HEADER } from "../../shared/protocol/ids";


/**
 * Builds the services from the token the host wrote into the page (or, in a page from elsewhere, the URL's
 * `?token=`) and the URL's `?session=`. Takes the token out of the address bar: the host's cookie lets a reload or a
 * new tab in without it. Throws when there is no token.
 */
export function createWebServices(location: Location): AppServices {
  const params = new URLSearchParams(location.search);
  const token = document.querySelector<HTMLMetaElement>(`meta[name="${PAGE_TOKEN_META}"]`)?.content || params.get("token");
  if (!token) throw new Error("This page needs the address the web host printed (it carries a token).");
  forgetTokenInAddressBar(location);

  const post = async (path: string, body: unknown, keepalive = false): Promise<any> => {
    const json = JSON.stringify(body);
    let response: Response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", [TOKEN_HEADER]: token },
        body: json,
        keepalive,
      });
    } catch {
      // fetch rejects only when no answer came at all: the host is not running (or not yet again).
      throw new HostUnreachableError();
    }
    const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
    if (!response.ok) throw new Error(typeof data?.error === "string" ? data.error : `HTTP ${response.status}`);
    return data;
  };

  const call = async (method: keyof AppApi, args: unknown[]) => (await post("/api/call", { method, args })).result;
  const app = new Proxy({} as AppApi, {
    get: (_, method: keyof AppApi) => {
      if (method === "openSession") {
        return async (id: string, where: "this-window" | "new-window") => {
          // Opened before the call, while the click still counts as a user gesture (popup blockers).
          if (where === "new-window") window.open(pageUrl(location, id), "_blank", "noopener");
          await call("openSession", [id, where]);
        };
      }
      return (...args: unknown[]) => call(method, args);
    },
  });

  // The host ties this page's viewers to its events socket: a page that vanishes without detaching lets go of them.
  const pageId = newViewerId();
  const attached = new Set<{ sessionId: string; viewerId: string }>();
  const detach = (viewer: { sessionId: string; viewerId: string }, keepalive = false) => {
    attached.delete(viewer);
    post(`/api/session/${encodeURIComponent(viewer.sessionId)}/detach`, { viewerId: viewer.viewerId, pageId }, keepalive).catch(() => {});
  };
  // A closed tab tells the host, so an idle chat's worker can stop after its grace period (a running one works on).
  window.addEventListener("pagehide", () => {
    for (const viewer of [...attached]) detach(viewer, true);
  });

  const eventsUrl = new URL("/api/events", location.href);
  eventsUrl.protocol = eventsUrl.protocol === "https:" ? "wss:" : "ws:";
  eventsUrl.searchParams.set("token", token);
  eventsUrl.searchParams.set("page", pageId);
  const hostEvents = connectHostEvents(eventsUrl.toString());

  return {
    app,
    initialSessionId: params.get("session") ?? undefined,
    onEvent: hostEvents.onEvent,
    onHostStatus: hostEvents.onStatus,
    notifications: browserNotifications(),
    openSession(sessionId) {
      const viewer = { sessionId, viewerId: newViewerId() };
      attached.add(viewer);
      const connector = async (): Promise<SessionConnection> => {
        const { url, restartedReason } = await post(`/api/session/${encodeURIComponent(sessionId)}/attach`, { viewerId: viewer.viewerId, pageId });
        return { transport: await openSocket(url), restartedReason };
      };
      return openSessionHandle(sessionId, connector, () => detach(viewer));
    },
  };
}

/** The Notifications API where the browser has it; the page falls back to telling the user in the page. */
function browserNotifications(): PageNotifications {
  const supported = typeof Notification !== "undefined";
  return {
    permission: () => (supported ? Notification.permission : "unsupported"),
    requestPermission: async () => (supported ? Notification.requestPermission() : "unsupported"),
    show: ({ title, body, tag }, onClick) => {
      if (!supported || Notification.permission !== "granted") return false;
      // One tag per chat and reason: several tabs of this page showing the same news make one notification.
      const note = new Notification(title, { body, tag });
      note.onclick = () => {
        window.focus();
        onClick();
        note.close();
      };
      return true;
    },
  };
}

/** A chat's page address, without the token: the host's cookie lets it in. */
function pageUrl(location: Location, sessionId: string): string {
  const url = new URL("/", location.href);
  url.searchParams.set("session", sessionId);
  return url.toString();
}

/** Rewrites the address without `token` (no navigation, no history entry), so it stays out of history and bookmarks. */
function forgetTokenInAddressBar(location: Location): void {
  const url = new URL(location.href);
  if (!url.searchParams.has("token")) return;
  url.searchParams.delete("token");
  history.replaceState(history.state, "", url.toString());
}

/** Resolves once the socket is open; rejects if it closes or fails first. */
function openSocket(url: string): Promise<WebSocketTransport> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const fail = () => reject(new Error("Could not connect to the chat's agent process"));
    socket.addEventListener("error", fail, { once: true });
    socket.addEventListener("close", fail, { once: true });
    socket.addEventListener("open", () => {
      socket.removeEventListener("error", fail);
      socket.removeEventListener("close", fail);
      resolve(new WebSocketTransport(socket as unknown as WebSocketLike));
    }, { once: true });
  });
}
