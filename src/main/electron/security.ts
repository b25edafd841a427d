/**
 * Electron's security checklist, applied in one place: locked-down web preferences for every window, no navigation
 * or new windows, external links handed to the system, permissions denied unless listed, the strict CSP. The
 * decisions themselves are Electron-free (src/main/app-page/, pinned by test/unit/main/app-page/window-options.test.ts); this
 * file only hooks them to Electron's events. The app's page is served, policy header and all, by app-protocol.ts.
 */
import { shell, type BrowserWindow, type Session, type WebPreferences } from "electron";
import { navigationVerdict, type NavigationVerdict } from "../app-page/navigation-lock";
import { permissionGranted } from "../app-page/page-permissions";
import type { SpellCheckConfig } from "../app-page/spell-check";
import { secureWebPreferences as preferences } from "../app-page/web-preferences";
import { contentSecurityPolicy } from "../../shared/security/content-security-policy";

/** Web preferences for every Paddock window (see app-page/web-preferences.ts). */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return preferences(preloadPath) satisfies WebPreferences;
}

/**
 * The page may navigate nowhere and open no window: http(s) and mailto links go to the system instead, anything
 * else is dropped. `<webview>` cannot attach. Call once per window, before loading its page.
 */
export function hardenWindow(win: BrowserWindow): void {
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(navigationVerdict("window-open", url));
    return { action: "deny" };
  });
  contents.on("will-navigate", (event) => {
    event.preventDefault();
    openExternally(navigationVerdict("will-navigate", event.url));
  });
  contents.on("will-redirect", (event) => {
    // A redirect of the app's own page would load foreign content into a window that has the preload bridge.
    event.preventDefault();
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
}

export interface SessionSecurityOptions {
  /** Development only: the Vite dev server's origin, whose module reloading needs inline scripts and a socket. */
  devServerOrigin?: string;
}

/**
 * Denies permission requests and checks unless `permissionGranted` says otherwise, judged by the asking frame. In development, adds the CSP
 * header to the dev server's pages (the shipped page gets it from the app:// handler). Call once per session
 * (`session.defaultSession` unless windows get their own partitions), before any window loads.
 */
export function hardenSession(ses: Session, options: SessionSecurityOptions): void {
  const { devServerOrigin } = options;
  // The frame that asks decides (its URL, a check's origin too), not the window's page (contents.getURL()).
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permissionGranted(permission, { requestingUrl: details.requestingUrl }, devServerOrigin));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permissionGranted(permission, { requestingUrl: details.requestingUrl, requestingOrigin }, devServerOrigin));
  if (devServerOrigin === undefined) return;
  const policy = contentSecurityPolicy({ devServer: true });
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType !== "mainFrame" || new URL(details.url).origin !== devServerOrigin) {
      callback({});
      return;
    }
    callback({ responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [policy] } });
  });
}

/**
 * Opens `url` in the system browser by the same rule as a page's link (the navigation lock's verdict: http(s) and
 * mailto only): main's own links, such as an account sign-in's page (main/accounts/sign-in.ts).
 */
export function openExternalLink(url: string): void {
  openExternally(navigationVerdict("window-open", url));
}

/** Hands the verdict's address, if it has one, to the system (browser or mail client). */
function openExternally(verdict: NavigationVerdict): void {
  const url = verdict.openExternally;
  if (url === undefined) return;
  // No handler for the scheme (a machine without a mail client) must not become an unhandled rejection in main.
  shell.openExternal(url).catch((error: unknown) => console.error(`paddock: could not open ${url}: ${(error as Error).message}`));
}

/**
 * Sets up the session's spell checker (main/app-page/spell-check.ts): the dictionaries' address first, so a
 * dictionary load the change starts already uses it.
 */
export function applySpellCheck(ses: Session, config: SpellCheckConfig): void {
  ses.setSpellCheckerDictionaryDownloadURL(config.dictionaryUrl);
  ses.setSpellCheckerEnabled(config.enabled);
}
