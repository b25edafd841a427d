/**
 * Which web permissions a page gets (Electron-free; security.ts installs it as the session's request and check
 * handlers). Only the app's own page, and only what it uses: writing the clipboard backs the "copy" buttons on
 * code blocks. Camera, microphone, geolocation, notifications (main shows those), clipboard reading, and
 * everything else are denied.
 *
 * The asker is the frame that asks, as Electron's `details` name it (`requestingUrl`, and a check's
 * `requestingOrigin`), never the window's page (`webContents.getURL()`): a frame inside the page, or a request
 * still in flight when the page navigated, would otherwise borrow the page's standing.
 */
import { isAppOriginUrl, isAppPageUrl } from "./app-origin";

const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(["clipboard-sanitized-write"]);

/** The frame asking for a permission, as Electron describes it; either part may be missing. */
export interface PermissionAsker {
  /** The last URL the asking frame loaded (a request's `details.requestingUrl`; a check's, when it has one). */
  requestingUrl?: string;
  /** The asking frame's origin (a check's `requestingOrigin`). */
  requestingOrigin?: string;
}

/**
 * Whether the frame `asker` describes may have `permission`: the app's page itself (its URL, and its origin when
 * given, must both be the app's). An asker Electron names neither way gets no.
 */
export function permissionGranted(permission: string, asker: PermissionAsker, devServerOrigin?: string): boolean {
  if (!ALLOWED_PERMISSIONS.has(permission)) return false;
  const { requestingUrl, requestingOrigin } = asker;
  if (!requestingUrl && !requestingOrigin) return false;
  if (requestingUrl && !isAppPageUrl(requestingUrl, devServerOrigin)) return false;
  if (requestingOrigin && !isAppOrigin(requestingOrigin, devServerOrigin)) return false;
  return true;
}

/** Whether `origin` (an origin, not a URL) is the app page's: `app://paddock`, or the dev server's in development. */
function isAppOrigin(origin: string, devServerOrigin: string | undefined): boolean {
  if (devServerOrigin !== undefined && origin === devServerOrigin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return isAppOriginUrl(origin) && (parsed.pathname === "" || parsed.pathname === "/") && parsed.search === "" && parsed.hash === "";
}
