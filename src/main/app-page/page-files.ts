/**
 * What `app://paddock/...` answers: the built renderer's files (out/renderer, inside the asar when packaged), each
 * with its content type and the page's Content-Security-Policy as a response header. Electron-free: the Electron
 * adapter (main/electron/app-protocol.ts) only hands requests to `servePageRequest`, Node tests call it as is, and
 * the web host (web-host/http-server.ts) takes its content types from `contentTypeOf`.
 *
 * Contract: never serves a file outside the root, whatever the URL says (`..`, its percent-encoded forms,
 * backslashes, absolute or drive paths, another host); a missing file is a 404; nothing here throws for bad input.
 */
import { readFile, stat } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import { contentSecurityPolicy } from "../../shared/security/content-security-policy";
import { APP_ORIGIN, isAppOriginUrl } from "./app-origin";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/** The content type a file is served with, from its extension; unknown ones as bytes (the browser then sniffs nothing: nosniff). */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
}

/**
 * Headers on every answer, errors included: the strict policy (no inline or eval'd script, nothing from the
 * network, no framing), no sniffing, no referrer, and no embedding by any other origin.
 */
function pageHeaders(contentType: string): Record<string, string> {
  return {
    "content-type": contentType,
    "content-security-policy": contentSecurityPolicy(),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-cache",
  };
}

export type PageFile = { ok: true; file: string } | { ok: false; status: 400 | 403 | 404; reason: string };

/**
 * The file under `root` that `url` names, judged by its spelling only (the caller checks that it exists):
 * each path segment is percent-decoded once and must be a plain name (no `.`, `..`, slashes, backslashes, colons,
 * NUL); the result must lie inside `root`. A path ending in `/` names a folder, and no answer (the page is
 * `/index.html`). Dot segments, `%2e%2e` included, are already resolved by the URL parser (as Chromium does for a
 * standard scheme) and never climb above the origin's root.
 */
export function resolvePageFile(root: string, url: string): PageFile {
  if (!isAppOriginUrl(url)) return { ok: false, status: 404, reason: "not an app address" };
  return resolvePagePath(root, new URL(url).pathname);
}

/** The same for a URL's (already parsed) path, whatever its origin: the web host serves the same files over http. */
export function resolvePagePath(root: string, pathname: string): PageFile {
  const segments = pathname.split("/").slice(1);
  // `/` and `folder/` name folders, and main serves only files.
  if (segments.length === 0 || segments.at(-1) === "") return { ok: false, status: 404, reason: "no file named" };
  const names: string[] = [];
  for (const segment of segments) {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return { ok: false, status: 400, reason: "malformed percent-encoding" };
    }
    if (name === "" || name === "." || name === ".." || /[/\\:\0]/.test(name)) {
      return { ok: false, status: 403, reason: "the path leaves the app's files" };
    }
    names.push(name);
  }
  const base = resolve(root);
  const file = resolve(base, ...names);
  // Belt and braces: whatever the checks above missed, nothing outside the root is ever named.
  if (!file.startsWith(base + sep)) return { ok: false, status: 403, reason: "the path leaves the app's files" };
  return { ok: true, file };
}

/** The part of a request `servePageRequest` reads (a fetch `Request` has it). */
export interface PageRequest {
  method: string;
  url: string;
  /** Electron's: who asked (an origin, "null" for an opaque one); absent when the browser itself asked. */
  initiatorOrigin?: string | null;
}

/**
 * Answers one request for the app's files under `root`. GET and HEAD only; a request started by a page of another
 * origin (there should be none) is refused, so no other page can load the app's files even where the scheme's
 * own rules would let it.
 */
export async function servePageRequest(root: string, request: PageRequest): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return failure(405, "only GET and HEAD");
  if (request.initiatorOrigin !== undefined && request.initiatorOrigin !== APP_ORIGIN) return failure(403, "asked by another origin");
  const found = resolvePageFile(root, request.url);
  if (!found.ok) return failure(found.status, found.reason);
  let body: Buffer;
  try {
    const info = await stat(found.file);
    if (!info.isFile()) return failure(404, "not found");
    body = request.method === "HEAD" ? Buffer.alloc(0) : await readFile(found.file);
  } catch {
    return failure(404, "not found");
  }
  return new Response(request.method === "HEAD" ? null : new Uint8Array(body), { status: 200, headers: pageHeaders(contentTypeOf(found.file)) });
}

function failure(status: number, reason: string): Response {
  return new Response(`${status}: ${reason}\n`, { status, headers: pageHeaders("text/plain; charset=utf-8") });
}
