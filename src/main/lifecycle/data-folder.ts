/**
 * Which folder the app keeps its data in (settings, keys, chats, Chromium's own data) and, with it, its
 * single-instance lock: Electron takes the lock in the user-data folder, so two runs share one exactly when they
 * share the folder. Electron-free; `electron/user-data.ts` applies it before the lock and before `ready`.
 *
 * The installed app's folder is `<appData>/Paddock` (its product name). An unpackaged run (`npm start`,
 * `npm run dev`) would get `<appData>/paddock` (package.json's name): on macOS and Windows, whose disks ignore case,
 * that is the same folder, so a development build would read and rewrite the installed app's chats and settings, and
 * whichever started second would only hand over to the other. There it gets `<appData>/Paddock Dev` instead. Linux
 * file systems tell the two apart, and a development profile made there before stays where it is.
 */
import { posix, resolve, win32 } from "node:path";

/** An unpackaged run's folder under `appData`, where the default would be the installed app's. */
export const DEV_DATA_FOLDER = "Paddock Dev";

export interface DataFolderInput {
  /** `PADDOCK_USER_DATA`: moves everything into this folder (portable installs, a second profile, tests). */
  override: string | undefined;
  /** `app.isPackaged`: an installed app (or `npm run dist:test`'s), not `npm start`. */
  packaged: boolean;
  /** `app.getPath("appData")`: the system's folder for apps' data. */
  appData: string;
  platform: NodeJS.Platform;
}

/** The user-data folder to set, or undefined to keep Electron's default (`<appData>/<app name>`). */
export function dataFolder(input: DataFolderInput): string | undefined {
  const override = input.override?.trim();
  if (override) return resolve(override);
  if (input.packaged || input.platform === "linux") return undefined;
  return (input.platform === "win32" ? win32 : posix).join(input.appData, DEV_DATA_FOLDER);
}
