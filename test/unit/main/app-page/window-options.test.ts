/**
 * The main process's window options, as main builds them: each window's web preferences, the app scheme's
 * privileges, the policy the page is served with, the navigation lock and the permissions. These are the
 * Electron-free modules security.ts, app-protocol.ts and index.ts pass to Electron unchanged (src/main/app-page/),
 * so a change that loosens any of them fails here, without the Electron binary.
 */
import { describe, expect, it } from "vitest";
import { APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, appPageUrl, isAppPageUrl } from "../../../../src/main/app-page/app-origin";
import { navigationVerdict } from "../../../../src/main/app-page/navigation-lock";
import { servePageRequest } from "../../../../src/main/app-page/page-files";
import { permissionGranted } from "../../../../src/main/app-page/page-permissions";
import { secureWebPreferences } from "../../../../src/main/app-page/web-preferences";

/** The policy as the page receives it, from the app:// handler's own answer. */
async function servedPolicy(): Promise<Map<string, string[]>> {
  const response = await servePageRequest("/nonexistent", { method: "GET", url: appPageUrl() });
  const header = response.headers.get("content-security-policy") ?? "";
  return new Map(header.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
}

describe("every window's web preferences", () => {
  it("isolate the page: context isolation, the OS sandbox, no Node anywhere, web security on", () => {
    expect(secureWebPreferences("/app/preload/index.cjs")).toEqual({
      preload: "/app/preload/index.cjs",
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
    });
  });
});

describe("the page's origin", () => {
  it("is a standard, secure scheme that neither bypasses the policy nor lets other origins read it", () => {
    expect(APP_SCHEME).toBe("app");
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: true, codeCache: true });
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty("bypassCSP");
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty("corsEnabled");
  });

  it("names one page, and only it may use the bridge and hold permissions", () => {
    expect(appPageUrl()).toBe(`${APP_ORIGIN}/index.html`);
    expect(appPageUrl("s-1")).toBe(`${APP_ORIGIN}/index.html?session=s-1`);
    expect(isAppPageUrl(appPageUrl("s-1"))).toBe(true);
    expect(isAppPageUrl("app://PADDOCK/index.html#x")).toBe(true);
    for (const url of ["app://paddock/assets/x.js", "app://other/index.html", "app://user@paddock/index.html", "file:///app/out/renderer/index.html", "https://paddock/index.html", "http://localhost:5173/", "not a url"]) {
      expect(isAppPageUrl(url), url).toBe(false);
    }
    // In development the dev server's pages are the app's, and only while it runs.
    expect(isAppPageUrl("http://localhost:5173/?session=s-1", "http://localhost:5173")).toBe(true);
    expect(isAppPageUrl("http://localhost:5174/", "http://localhost:5173")).toBe(false);
  });

  it("grants the page writing the clipboard, and nothing else to anyone", () => {
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: appPageUrl() })).toBe(true);
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: "https://evil.example/" })).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", {})).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: "", requestingOrigin: "" })).toBe(false);
    for (const permission of ["media", "geolocation", "notifications", "clipboard-read", "openExternal", "fullscreen"]) {
      expect(permissionGranted(permission, { requestingUrl: appPageUrl(), requestingOrigin: APP_ORIGIN }), permission).toBe(false);
    }
  });

  it("judges the frame that asks, by its URL and (a check's) origin, not the window's page", () => {
    // A check: Electron gives the asking frame's origin, and its URL when it has one; both must be the app's.
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: appPageUrl("s-1"), requestingOrigin: APP_ORIGIN })).toBe(true);
    expect(permissionGranted("clipboard-sanitized-write", { requestingOrigin: APP_ORIGIN })).toBe(true);
    expect(permissionGranted("clipboard-sanitized-write", { requestingOrigin: `${APP_ORIGIN}/` })).toBe(true);
    // A frame of another origin inside the app's page: its own URL and origin say so, whatever the page is.
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: "https://ads.example/frame", requestingOrigin: "https://ads.example" })).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: appPageUrl(), requestingOrigin: "https://ads.example" })).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: "https://ads.example/", requestingOrigin: APP_ORIGIN })).toBe(false);
    // Another file on the app's origin is not the page; neither is an origin that is a whole URL.
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: "app://paddock/assets/x.js" })).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", { requestingOrigin: "app://paddock/index.html" })).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", { requestingOrigin: "app://other" })).toBe(false);
    expect(permissionGranted("clipboard-sanitized-write", { requestingOrigin: "not an origin" })).toBe(false);
    // In development, the dev server's page and origin.
    const dev = "http://localhost:5173";
    expect(permissionGranted("clipboard-sanitized-write", { requestingUrl: `${dev}/?session=s-1`, requestingOrigin: dev }, dev)).toBe(true);
    expect(permissionGranted("clipboard-sanitized-write", { requestingOrigin: "http://localhost:5174" }, dev)).toBe(false);
  });
});

describe("the policy the page is served with", () => {
  it("runs only the app's own scripts: no inline, no eval, no plugins, no framing, no base or form targets", async () => {
    const policy = await servedPolicy();
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'none'"]);
    // Network only to the app's own origin: no sockets, no remote hosts.
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    const all = [...policy.values()].flat();
    expect(all).not.toContain("'unsafe-eval'");
    expect(all.filter((source) => /^(https?|wss?):/.test(source))).toEqual([]);
    expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
  });
});

describe("the navigation lock", () => {
  it("denies every new window and navigation, handing web and mail links to the system", () => {
    expect(navigationVerdict("window-open", "https://example.com/a?b=c")).toEqual({ allow: false, openExternally: "https://example.com/a?b=c" });
    expect(navigationVerdict("will-navigate", "http://example.com")).toEqual({ allow: false, openExternally: "http://example.com/" });
    expect(navigationVerdict("window-open", "mailto:someone@example.com")).toEqual({ allow: false, openExternally: "mailto:someone@example.com" });
    // The parsed address is what goes out, host in punycode, never the raw text.
    expect(navigationVerdict("window-open", "https://bаnk.com/")).toEqual({ allow: false, openExternally: "https://xn--bnk-6cd.com/" });
  });

  it("drops everything else: files, scripts, data, custom schemes, the app's own pages", () => {
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,<b>x</b>", "vscode://open", "smb://server/share", "about:blank", appPageUrl("s-2"), "", "not a url"]) {
      expect(navigationVerdict("window-open", url), url).toEqual({ allow: false });
      expect(navigationVerdict("will-navigate", url), url).toEqual({ allow: false });
    }
  });

  it("never follows a redirect or attaches a webview, whatever the address", () => {
    for (const url of ["https://example.com/", appPageUrl()]) {
      expect(navigationVerdict("will-redirect", url)).toEqual({ allow: false });
      expect(navigationVerdict("attach-webview", url)).toEqual({ allow: false });
    }
  });
});
