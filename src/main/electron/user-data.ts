/**
 * Where Paddock keeps its files (their layout inside the folder: `dataFiles` in broker/core.ts; which folder:
 * main/lifecycle/data-folder.ts). `PADDOCK_USER_DATA=<dir>` moves everything (settings, keys, sessions, Chromium's
 * own data, and the single-instance lock) into `<dir>`; an unpackaged run on macOS and Windows keeps its own folder
 * beside the installed app's.
 */
import { app } from "electron";
import { dataFolder } from "../lifecycle/data-folder";

/** Sets the user-data folder when it is not Electron's default. Call first, before the single-instance lock and before app ready. */
export function applyUserDataFolder(env: NodeJS.ProcessEnv = process.env): void {
  const dir = dataFolder({ override: env.PADDOCK_USER_DATA, packaged: app.isPackaged, appData: app.getPath("appData"), platform: process.platform });
  if (dir) app.setPath("userData", dir);
}
