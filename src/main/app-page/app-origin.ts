/**
 * Where the desktop app's page lives: `app://paddock/index.html`, served by main from the built renderer (see
 * page-files.ts), never from `file://`. A standard, secure scheme gives the page a real origin of its own, so
 * `'self'` in its policy means the app's files and nothing else on disk, and the policy travels as a response
 * header. Electron-free: main's adapters and the tests share these facts.
 */
import { SESSION_QUERY_PARAM } from "../../shared/protocol/desktop-bridge";

export const APP_SCHEME = "app";
const APP_HOST = "paddock";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page's path on that origin (the only document main serves). */
const APP_PAGE_PATH = "/index.html";

/**
 * How the scheme is registered (`protocol.registerSchemesAsPrivileged`, before app ready). `standard` gives it
 * origins and URL resolution like https, `secure` makes the page a secure context (crypto.randomUUID, clipboard),
 * `supportFetchAPI` lets module scripts and fetch load from it, `codeCache` keeps V8's compiled scripts between
 * launches. Deliberately absent: `bypassCSP` (the policy must hold), `corsEnabled` (no other origin may read the
 * app's files), `allowServiceWorkers`, `stream`.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, codeCache: true } as const;

/** The page's address, bound to `sessionId` when given (`?session=<id>`). */
export function appPageUrl(sessionId?: string): string {
  const url = new URL(`${APP_ORIGIN}${APP_PAGE_PATH}`);
  if (sessionId !== undefined) url.searchParams.set(SESSION_QUERY_PARAM, sessionId);
  return url.href;
}

/** Whether `url` is on the app's origin (`app://paddock`, any path): a URL main serves. */
export function isAppOriginUrl(url: string): boolean {
  const parsed = parse(url);
  // Node's URL keeps a non-special scheme's host as written and gives it an opaque origin: compare the parts.
  return parsed !== undefined && parsed.protocol === `${APP_SCHEME}:` && parsed.host.toLowerCase() === APP_HOST && parsed.username === "" && parsed.password === "";
}

/**
 * Whether `url` is the app's page (any query or fragment): the one document that may use the preload bridge and
 * hold permissions. In development, `devServerOrigin` (electron-vite's dev server) serves the page instead and
 * any URL on it counts.
 */
export function isAppPageUrl(url: string, devServerOrigin?: string): boolean {
  const parsed = parse(url);
  if (parsed === undefined) return false;
  if (devServerOrigin !== undefined && parsed.origin === devServerOrigin) return true;
  return isAppOriginUrl(url) && parsed.pathname === APP_PAGE_PATH;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
