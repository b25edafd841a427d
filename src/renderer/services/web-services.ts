/**
 * AppServices for the browser host (`npm run dev:web`): app calls go to the host's HTTP API with the page's token
 * in a header; each session's channel is a native WebSocket straight to its worker, at the URL the host returns
 * from attach. See src/web-host/http-server.ts for the other side.
 */
import type { AppApi } from "../../shared/protocol/app-api";
import { WebSocketTransport, type WebSocketLike } from "../../shared/transport/websocket-transport";
import type { AppServices } from "../app/services";
import type { SessionConnection } from "../store/session-client";
import { newViewerId, openSessionHandle } from "./session-handle";
import { WEB_HOST_TOKEN_HEADER as TOKEN_HEADER } from "../../shared/protocol/ids";


/** Builds the services from the page URL (`?token=...&session=...`). Throws when the URL has no token. */
export function createWebServices(location: Location): AppServices {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  if (!token) throw new Error("This page needs the address the web host printed (it carries a token).");

  const post = async (path: string, body: unknown, keepalive = false): Promise<any> => {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", [TOKEN_HEADER]: token },
      body: JSON.stringify(body),
      keepalive,
    });
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
          if (where === "new-window") window.open(pageUrl(location, token, id), "_blank", "noopener");
          await call("openSession", [id, where]);
        };
      }
      return (...args: unknown[]) => call(method, args);
    },
  });

  const attached = new Set<{ sessionId: string; viewerId: string }>();
  const detach = (viewer: { sessionId: string; viewerId: string }, keepalive = false) => {
    attached.delete(viewer);
    post(`/api/session/${encodeURIComponent(viewer.sessionId)}/detach`, { viewerId: viewer.viewerId }, keepalive).catch(() => {});
  };
  // A closed tab tells the host, so the last viewer's worker stops instead of idling until the host quits.
  window.addEventListener("pagehide", () => {
    for (const viewer of [...attached]) detach(viewer, true);
  });

  return {
    app,
    initialSessionId: params.get("session") ?? undefined,
    openSession(sessionId) {
      const viewer = { sessionId, viewerId: newViewerId() };
      attached.add(viewer);
      const connector = async (): Promise<SessionConnection> => {
        const { url, restartedReason } = await post(`/api/session/${encodeURIComponent(sessionId)}/attach`, { viewerId: viewer.viewerId });
        return { transport: await openSocket(url), restartedReason };
      };
      return openSessionHandle(sessionId, connector, () => detach(viewer));
    },
  };
}

function pageUrl(location: Location, token: string, sessionId: string): string {
  const url = new URL("/", location.href);
  url.searchParams.set("token", token);
  url.searchParams.set("session", sessionId);
  return url.toString();
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
