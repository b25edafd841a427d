/**
 * Electron's security checklist, applied in one place: locked-down web preferences for every window, no navigation
 * or new windows, external links in the system browser, permissions denied unless listed, a strict CSP.
 * No business logic: main's wiring calls these for each session and window it creates.
 */
import { shell, type BrowserWindow, type Session, type WebPreferences } from "electron";
import { contentSecurityPolicy as sharedPolicy } from "../../shared/security/content-security-policy";

/**
 * Web preferences for every Paddock window. Every security-relevant option is set explicitly, so a change of
 * Electron's defaults can never loosen them.
 */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
  };
}

/**
 * The page may navigate nowhere and open no window: links to http(s) go to the system browser instead, anything
 * else is dropped. `<webview>` cannot attach. Call once per window, before loading its page.
 */
export function hardenWindow(win: BrowserWindow): void {
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: "deny" };
  });
  contents.on("will-navigate", (event) => {
    event.preventDefault();
    openExternally(event.url);
  });
  contents.on("will-redirect", (event) => {
    // A redirect of the app's own page would load foreign content into a window that has the preload bridge.
    if (event.isMainFrame) event.preventDefault();
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
}

export interface SessionSecurityOptions {
  /** Whether `url` is one of the app's own pages (the built renderer, or the dev server in development). */
  isAppUrl(url: string): boolean;
  /** Development only: the Vite dev server's origin, whose module reloading needs inline scripts and a socket. */
  devServerOrigin?: string;
}

/**
 * Permissions granted to the app's own pages; everything else (camera, geolocation, notifications, clipboard
 * reading...) is denied. Writing the clipboard backs the "copy" buttons on code blocks.
 */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(["clipboard-sanitized-write"]);

/**
 * Denies permission requests and checks by default and adds the CSP header to the app's pages. Call once per
 * session (`session.defaultSession` unless windows get their own partitions), before any window loads.
 */
export function hardenSession(ses: Session, options: SessionSecurityOptions): void {
  ses.setPermissionRequestHandler((contents, permission, callback) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && options.isAppUrl(contents.getURL()));
  });
  ses.setPermissionCheckHandler((contents, permission, requestingOrigin) => {
    // A file:// page's origin is just "file:///", which says nothing about which page asks: judge its full URL.
    return ALLOWED_PERMISSIONS.has(permission) && options.isAppUrl(contents?.getURL() ?? requestingOrigin);
  });
  const policy = contentSecurityPolicy(options.devServerOrigin);
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType !== "mainFrame" || !options.isAppUrl(details.url)) {
      callback({});
      return;
    }
    callback({ responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [policy] } });
  });
}

/**
 * The app pages' Content-Security-Policy: only the app's own scripts, no eval, no plugins, no framing, network only
 * to the app's origin. Inline styles stay allowed because syntax highlighters and virtualized lists set `style`
 * attributes. `file://` pages get no response headers, so the built index.html must carry the same policy in a
 * `<meta http-equiv>` tag.
 */
/** The response-header policy for the app's pages (see shared/security/content-security-policy.ts). */
export function contentSecurityPolicy(devServerOrigin?: string): string {
  return sharedPolicy({ devServer: devServerOrigin !== undefined });
}

/** Hands http(s) URLs to the system browser; every other scheme (file:, javascript:, custom protocols) is ignored. */
function openExternally(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return;
  }
  if (protocol === "http:" || protocol === "https:") void shell.openExternal(url);
}
