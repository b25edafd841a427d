/**
 * Which web permissions a page gets (Electron-free; security.ts installs it as the session's request and check
 * handlers). Only the app's own page, and only what it uses: writing the clipboard backs the "copy" buttons on
 * code blocks. Camera, microphone, geolocation, notifications (main shows those), clipboard reading, and
 * everything else are denied.
 */
import { isAppPageUrl } from "./app-origin";

const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(["clipboard-sanitized-write"]);

/**
 * Whether the page at `pageUrl` may have `permission`. `pageUrl` is the asking page's full URL; without one
 * (Electron gives no webContents for some checks) the answer is no.
 */
export function permissionGranted(permission: string, pageUrl: string | undefined, devServerOrigin?: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && pageUrl !== undefined && isAppPageUrl(pageUrl, devServerOrigin);
}
