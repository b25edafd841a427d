/**
 * Who the app is to the operating system, in one place. `APP_ID` is electron-builder's `appId` (electron-builder.yml,
 * which a test holds equal to this): on Windows the installer stamps it on the Start menu shortcut as its Application
 * User Model ID, and Windows shows a toast, and groups a taskbar button, only for the process whose own id matches a
 * shortcut's. Electron's default (`electron.app.Paddock`) matches none, so main sets this one before `ready`.
 * Electron-free.
 */

/** electron-builder's `appId` (electron-builder.yml), also the Windows Application User Model ID. */
export const APP_ID = "dev.paddock.app";

/**
 * The Application User Model ID main sets on Windows (`app.setAppUserModelId`, before `ready`), or undefined where
 * there is none to set. An unpackaged run (`npm start`) gets an id of its own, so its windows and toasts never join
 * the installed app's taskbar button.
 */
export function appUserModelId(platform: NodeJS.Platform, packaged: boolean): string | undefined {
  if (platform !== "win32") return undefined;
  return packaged ? APP_ID : `${APP_ID}.dev`;
}
