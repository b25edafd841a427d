/**
 * Finds the Electron binary WITHOUT require("electron"), which would try to download it. Honours
 * ELECTRON_OVERRIDE_DIST_PATH like the electron package does.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** @returns {{ path: string } | { missing: string }} */
export function findElectronBinary() {
  const pkg = join(repoRoot, "node_modules", "electron");
  const pathFile = join(pkg, "path.txt");
  const relative = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, relative || "electron");
    return existsSync(path) ? { path } : { missing: `ELECTRON_OVERRIDE_DIST_PATH has no ${path}` };
  }
  if (!relative) return { missing: `${pathFile} does not exist (the binary was never downloaded)` };
  const path = join(pkg, "dist", relative);
  return existsSync(path) ? { path } : { missing: `${path} does not exist` };
}

export function skipMessage(missing) {
  return `SKIPPED: Electron binary not available on this machine (${missing}). The Electron suite runs where it is.`;
}
