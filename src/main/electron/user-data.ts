/**
 * Where Paddock keeps its files (their layout inside the folder: `dataFiles` in broker/core.ts).
 * `PADDOCK_USER_DATA=<dir>` moves everything (settings, keys, sessions, Chromium's
 * own data, and the single-instance lock) into `<dir>`: for portable installs, a second profile, or tests.
 */
import { resolve } from "node:path";
import { app } from "electron";

/** Applies `PADDOCK_USER_DATA` if set. Call first, before the single-instance lock and before app ready. */
export function applyUserDataOverride(env: NodeJS.ProcessEnv = process.env): void {
  const dir = env.PADDOCK_USER_DATA?.trim();
  if (dir) app.setPath("userData", resolve(dir));
}
