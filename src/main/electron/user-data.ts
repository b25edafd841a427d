/**
 * Where Paddock keeps its files. `PADDOCK_USER_DATA=<dir>` moves everything (settings, keys, sessions, Chromium's
 * own data, and the single-instance lock) into `<dir>`: for portable installs, a second profile, or tests.
 */
import { join, resolve } from "node:path";
import { app } from "electron";

/** Applies `PADDOCK_USER_DATA` if set. Call first, before the single-instance lock and before app ready. */
export function applyUserDataOverride(env: NodeJS.ProcessEnv = process.env): void {
  const dir = env.PADDOCK_USER_DATA?.trim();
  if (dir) app.setPath("userData", resolve(dir));
}

export interface AppFiles {
  /** Folder of `settings.json`. */
  settingsDir: string;
  secretsFile: string;
  /** Folder of the sessions' transcripts (`<id>.jsonl`). */
  sessionsDir: string;
  sessionIndexFile: string;
}

export function appFiles(userData: string = app.getPath("userData")): AppFiles {
  const sessionsDir = join(userData, "sessions");
  return {
    settingsDir: userData,
    secretsFile: join(userData, "secrets.json"),
    sessionsDir,
    sessionIndexFile: join(sessionsDir, "index.json"),
  };
}
