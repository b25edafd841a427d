/**
 * AppServices for the browser host (`npm run dev:web`): app calls go to the host's HTTP API with the page's token
 * in a header; main's pushes come over one events WebSocket; each session's channel is a native WebSocket straight
 * to its worker, at the URL the host returns from attach. See src/web-host/http-server.ts for the other side.
 */
import type { AppApi } from "../../shared/protocol/app-api";
import { WebSocketTransport, type WebSocketLike } from "../../shared/transport/websocket-transport";
import type { AppServices, PageNotifications } from "./app-services";
import { HostUnreachableError, type SessionConnection } from "../store/session-client";
import { connectHostEvents } from "./host-events";
import { newViewerId, openSessionHandle } from "./session-handle";
import { PAGE_TOKEN_META, WEB_HOST_TOKEN_HEADER as TOKEN_HEADER } from "../../shared/protocol/ids";


/** Where a tab keeps its page credential: sessionStorage, which is this origin's (port included) and this tab's. */
const CREDENTIAL_KEY = "paddock-credential";
/** A page credential handed to a tab this page opens, in the new address's fragment (never sent to a server). */
const CREDENTIAL_FRAGMENT = "credential";
/** How often an open page renews its credential (it lives 12 hours unused: web-host/page-credentials.ts). */
const RENEW_EVERY_MS = 30 * 60 * 1000;

/**
 * Builds the services from the page credential the host wrote into the page (the first load, by the printed address),
 * the one a page of this host handed over in the address's fragment (a tab it opened), or the one this tab kept (a
 * reload), and from the URL's `?session=`. Takes the token and the credential out of the address bar. No cookie
 * carries either (web-host/http-server.ts says why). Throws when there is no credential.
 */
export function createWebServices(location: Location): AppServices {
  const params = new URLSearchParams(location.search);
  let credential = document.querySelector<HTMLMetaElement>(`meta[name="${PAGE_TOKEN_META}"]`)?.content
    || new URLSearchParams(location.hash.slice(1)).get(CREDENTIAL_FRAGMENT)
    || storedCredential();
  forgetSecretsInAddressBar(location);
  if (!credential) throw new Error("This page needs the address the web host printed (it carries a token).");
  const keep = (next: string) => {
    credential = next;
    try {
      sessionStorage.setItem(CREDENTIAL_KEY, next);
    } catch {
      // Storage turned off: this page works on; a reload needs the printed address again.
    }
  };
  keep(credential);

  const post = async (path: string, body: unknown, keepalive = false): Promise<any> => {
    const json = JSON.stringify(body);
    let response: Response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", [TOKEN_HEADER]: credential! },
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
  // Renewed at once (a reload may bring back an old one) and then while the page is open, so it never runs out here.
  const renew = () => post("/api/renew", {}).then(({ credential: next }) => typeof next === "string" && keep(next), () => {});
  void renew();
  setInterval(() => void renew(), RENEW_EVERY_MS);
  const app = new Proxy({} as AppApi, {
    get: (_, method: keyof AppApi) => {
      if (method === "openSession") {
        return async (id: string, where: "this-window" | "new-window") => {
          // Opened before the call, while the click still counts as a user gesture (popup blockers).
          if (where === "new-window") window.open(pageUrl(location, id, credential!), "_blank", "noopener");
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

  const eventsUrl = () => {
    const url = new URL("/api/events", location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.hash = "";
    url.search = "";
    url.searchParams.set("token", credential!);
    url.searchParams.set("page", pageId);
    return url.toString();
  };
  const hostEvents = connectHostEvents(eventsUrl);

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
      return openSessionHandle(sessionId, connector, () => detach(viewer), () => app.retrySessionWorker(sessionId));
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

function storedCredential(): string | null {
  try {
    return sessionStorage.getItem(CREDENTIAL_KEY);
  } catch {
    return null;
  }
}

/**
 * A chat's page address for a new tab, without the host's token: this page's credential goes in the fragment, which
 * the browser never sends (a tab opened with noopener does not get a copy of this one's sessionStorage).
 */
function pageUrl(location: Location, sessionId: string, credential: string): string {
  const url = new URL("/", location.href);
  url.searchParams.set("session", sessionId);
  url.hash = new URLSearchParams({ [CREDENTIAL_FRAGMENT]: credential }).toString();
  return url.toString();
}

/**
 * Rewrites the address without `token` and a handed-over credential (no navigation, no history entry), so neither
 * stays in history and bookmarks.
 */
function forgetSecretsInAddressBar(location: Location): void {
  const url = new URL(location.href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  if (!url.searchParams.has("token") && !fragment.has(CREDENTIAL_FRAGMENT)) return;
  url.searchParams.delete("token");
  if (fragment.has(CREDENTIAL_FRAGMENT)) url.hash = "";
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
