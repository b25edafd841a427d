/**
 * The `app://` scheme in Electron: registered as privileged before app ready, and answered by `servePageRequest`
 * (app-page/page-files.ts, Electron-free and tested there) for the built renderer. Nothing else here.
 */
import { protocol } from "electron";
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from "../app-page/app-origin";
import { servePageRequest } from "../app-page/page-files";

/**
 * Declares the scheme's privileges. Must run before app ready, and once: Electron keeps only the last call's list,
 * so every privileged scheme of the app belongs in this one call.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

/** Serves the files under `root` (out/renderer) on the scheme, for the default session. Call after app ready. */
export function serveAppPages(root: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    // Electron adds who asked to the request; absent when the browser itself asked (main's own loadURL).
    const initiatorOrigin = (request as Request & { initiatorOrigin?: string | null }).initiatorOrigin;
    return servePageRequest(root, { method: request.method, url: request.url, initiatorOrigin });
  });
}
