/**
 * The web host's HTTP server: loopback only; the API answers only the host's token or a page credential.
 *
 * - `GET /?token=<the host's token>` (the printed address): the page, with a fresh page credential written into it
 *   (`<meta name="paddock-token">`, page-credentials.ts). The page keeps the credential in sessionStorage and takes
 *   the token out of the address bar at once (a token left there ends up in history, bookmarks and screen shares).
 *   No cookie carries either: browsers send a cookie for `127.0.0.1` to every port, so any other local server a tab
 *   visited would get it (a cookie this host set before is cleared).
 * - Any other `GET` under the renderer build (a reload without the token, the page's scripts and styles): the built
 *   files as they are, with no credential. They hold no secret; a wrong token in the URL is still refused.
 * - `POST /api/...`: JSON in, JSON out, the credential in the `x-paddock-token` header only, so another site in the
 *   same browser cannot make calls: a custom header needs a CORS preflight, which is never granted. The header takes
 *   a live page credential of this port, or the host's token itself (scripts that read the printed address: tests,
 *   the bench). `POST /api/renew` answers a new credential for a live one (pages renew theirs before it expires).
 * - `GET /api/events?token=` upgraded to a WebSocket: main's pushes (AppEvent JSON, one per message). A WebSocket,
 *   not a streamed response: a page holds it for its whole life, and long-lived HTTP requests would use up the
 *   browser's six connections per host across tabs. A browser cannot set headers on it, so the credential travels in
 *   the query, and the Origin must be this host's own.
 * - The Host header must name this loopback address, which stops DNS-rebinding pages from reaching the API.
 *
 * Bad input answers 400 with `{ error }`; a failure inside a route answers 500 with `{ error }`; a missing, wrong or
 * expired credential 401 with the reason in words.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { extname, resolve } from "node:path";
import { WebSocketServer } from "ws";
import { contentSecurityPolicy, withMetaPolicy } from "../shared/security/content-security-policy";
import { PAGE_TOKEN_META, SESSION_ID_PATTERN, WEB_HOST_TOKEN_HEADER as TOKEN_HEADER } from "../shared/protocol/ids";
import { errorText } from "../shared/error-text";
import { MAX_IMPORT_CHARS } from "../shared/protocol/app-api-schema";
import { contentTypeOf, resolvePagePath } from "../main/app-page/page-files";
import { PageCredentials } from "./page-credentials";
import { tokenMatches } from "./token-match";

export { tokenMatches } from "./token-match";

const MAX_BODY_BYTES = 1024 * 1024;
/** An AppApi call may carry a chat export to import (`importSession`), in UTF-8 and JSON-escaped. */
const MAX_CALL_BODY_BYTES = MAX_IMPORT_CHARS * 2;

/** What the API routes do; each may throw (answered as 500). */
export interface WebHostRoutes {
  /** One AppApi call; its errors are the caller's bad input (answered as 400). */
  call(method: unknown, args: unknown): Promise<unknown>;
  /** A page attaches a viewer of a session (`pageId`: the page holding it, see page-viewers.ts). */
  attach(viewer: PageViewer): Promise<{ url: string; restartedReason?: string }>;
  detach(viewer: PageViewer): Promise<void>;
  /** A page's events socket opened: `send` each pushed event until the returned function is called. */
  subscribe(send: (event: unknown) => void, pageId: string | undefined): () => void;
}

export interface PageViewer {
  sessionId: string;
  viewerId: string;
  pageId?: string;
}

export interface HttpServerOptions {
  port: number;
  staticDir: string;
  token: string;
  routes: WebHostRoutes;
  /** How long a page credential lives unused (page-credentials.ts; default 12 hours). */
  credentialLifetimeMs?: number;
  /** The clock for page credentials (tests move it). */
  now?: () => number;
}

export interface RunningHttpServer {
  /** The page's address, token included. */
  url: string;
  port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Thrown by a route to answer 400 (the caller asked for something that cannot be). */
export class BadRequest extends Error {}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const staticDir = resolve(options.staticDir);
  const sockets = new Set<Socket>();
  let port = 0;
  let credentials: PageCredentials | undefined;
  /** Throws 401, saying why, unless `presented` is the host's token or a live page credential of this port. */
  const requireCredential = (presented: string | null | undefined): void => {
    if (tokenMatches(presented, options.token)) return;
    const check = credentials!.check(presented);
    if (check === "expired") throw new HttpError(401, `This page's access to the web host expired: ${OPEN_PRINTED_ADDRESS}`);
    if (check !== "valid") throw new HttpError(401, `missing or wrong token: ${OPEN_PRINTED_ADDRESS}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : error instanceof BadRequest ? 400 : 500;
      sendJson(res, status, { error: errorText(error) });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host ?? "";
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HttpError(403, "wrong Host header");
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    if (url.pathname.startsWith("/api/")) {
      requireCredential(headerValue(req.headers[TOKEN_HEADER]));
      if (req.method !== "POST") throw new HttpError(405, "API calls are POST");
      const body = await readJsonBody(req, url.pathname === "/api/call" ? MAX_CALL_BODY_BYTES : MAX_BODY_BYTES);
      if (url.pathname === "/api/renew") return sendJson(res, 200, { credential: credentials!.issue() });
      return sendJson(res, 200, await route(url.pathname, body));
    }
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "method not allowed");
    const fromQuery = url.searchParams.get("token");
    if (fromQuery !== null && !tokenMatches(fromQuery, options.token)) throw new HttpError(401, `wrong token: ${OPEN_PRINTED_ADDRESS}`);
    serveStatic(url.pathname, res, fromQuery !== null);
  }

  async function route(path: string, body: Record<string, unknown>): Promise<unknown> {
    if (path === "/api/call") {
      try {
        return { result: (await options.routes.call(body.method, body.args)) ?? null };
      } catch (error) {
        throw new HttpError(400, errorText(error));
      }
    }
    const match = /^\/api\/session\/([^/]+)\/(attach|detach)$/.exec(path);
    if (!match) throw new HttpError(404, `no route ${path}`);
    const sessionId = decodeURIComponent(match[1]);
    if (!SESSION_ID_PATTERN.test(sessionId)) throw new HttpError(400, "invalid session id");
    const viewerId = body.viewerId;
    if (typeof viewerId !== "string" || !SESSION_ID_PATTERN.test(viewerId)) throw new HttpError(400, "viewerId must match [A-Za-z0-9_-]{1,100}");
    const pageId = body.pageId;
    if (pageId !== undefined && (typeof pageId !== "string" || !SESSION_ID_PATTERN.test(pageId))) throw new HttpError(400, "pageId must match [A-Za-z0-9_-]{1,100}");
    const viewer = { sessionId, viewerId, ...(pageId ? { pageId } : {}) };
    if (match[2] === "attach") return options.routes.attach(viewer);
    await options.routes.detach(viewer);
    return {};
  }

  /** Serves a file of the build; `withCredential`: the first load (the token was checked), which gets a credential. */
  function serveStatic(pathname: string, res: ServerResponse, withCredential: boolean): void {
    const found = resolvePagePath(staticDir, pathname === "/" ? "/index.html" : pathname);
    if (!found.ok) throw new HttpError(404, "not found");
    const file = found.file;
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error("not a file");
      size = stat.size;
    } catch {
      throw new HttpError(404, "not found");
    }
    const headers: Record<string, string | number> = {
      "content-type": contentTypeOf(file),
      "content-length": size,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    };
    if (extname(file) === ".html") {
      // Earlier versions kept the token in this cookie, which the browser sends to every port: cleared on sight.
      if (withCredential) headers["set-cookie"] = `paddock-token-${port}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;
      // The shipped page's policy forbids WebSockets; this host's pages talk to workers over ws://127.0.0.1.
      const page = withMetaPolicy(readFileSync(file, "utf8"), { loopbackWebSockets: true });
      const html = Buffer.from(withCredential ? withPageCredential(page, credentials!.issue()) : page);
      res.writeHead(200, { ...headers, "content-length": html.length, "content-security-policy": contentSecurityPolicy({ loopbackWebSockets: true }) });
      res.end(html);
      return;
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  }

  const events = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  server.on("upgrade", (req, socket, head) => {
    // Node removes its own error handling from an upgraded socket: without this, a peer resetting it would be an
    // unhandled error, and end the host.
    socket.on("error", () => socket.destroy());
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\n\r\n`, () => socket.destroy());
    };
    let url: URL;
    try {
      url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    } catch {
      return refuse("400 Bad Request");
    }
    const origin = req.headers.origin;
    const ours = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
    const hostOk = req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;
    if (url.pathname !== "/api/events" || !hostOk || !ours) return refuse("403 Forbidden");
    try {
      requireCredential(url.searchParams.get("token"));
    } catch {
      return refuse("403 Forbidden");
    }
    const page = url.searchParams.get("page");
    const pageId = page !== null && SESSION_ID_PATTERN.test(page) ? page : undefined;
    events.handleUpgrade(req, socket, head, (ws) => {
      const unsubscribe = options.routes.subscribe((event) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
      }, pageId);
      ws.on("close", unsubscribe);
      ws.on("error", () => ws.terminate());
      // The page only listens; anything it sends is ignored.
    });
  });

  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, "127.0.0.1", () => ok());
  });
  port = (server.address() as AddressInfo).port;
  credentials = new PageCredentials({
    token: options.token,
    port,
    ...(options.credentialLifetimeMs !== undefined ? { lifetimeMs: options.credentialLifetimeMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    url: `http://127.0.0.1:${port}/?token=${options.token}`,
    port,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        for (const client of events.clients) client.terminate();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** What a 401 tells the page's user to do. */
const OPEN_PRINTED_ADDRESS = "open the address the web host printed (it carries its token)";

/**
 * Writes a page credential into the page's head for its scripts (`PAGE_TOKEN_META`). Only the first load, whose
 * request carried the host's token, gets one; another site cannot read the answer (no CORS).
 */
function withPageCredential(html: string, credential: string): string {
  // Made of base64url, digits and dots; escaped all the same, so it could never add markup.
  const attribute = credential.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return html.replace("</head>", () => `<meta name="${PAGE_TOKEN_META}" content="${attribute}" />\n</head>`);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function readJsonBody(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const type = headerValue(req.headers["content-type"]) ?? "";
  if (!type.startsWith("application/json")) throw new HttpError(400, "send JSON (content-type: application/json)");
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > limit) throw new HttpError(413, `request body over ${limit} bytes`);
    parts.push(part);
  }
  let body: unknown;
  try {
    body = size === 0 ? {} : JSON.parse(Buffer.concat(parts).toString("utf8"));
  } catch {
    throw new HttpError(400, "request body is not JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "request body must be a JSON object");
  return body as Record<string, unknown>;
}

function sendJson(res: ServerResponse, status: number, data: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(data);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(text);
}

