/**
 * `npm run test:electron`: the Playwright `_electron` suite, or a loud skip (exit 0) where the Electron binary
 * cannot be had (these machines cannot download it).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findElectronBinary, skipMessage } from "../../scripts/electron-binary.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const binary = findElectronBinary();
if ("missing" in binary) {
  const line = "=".repeat(100);
  console.log(`${line}\n${skipMessage(binary.missing)}\n${line}`);
  process.exit(0);
}
const vitest = ["npx", "vitest", "run", "--config", join(here, "vitest.electron.config.ts"), ...process.argv.slice(2)];
// Electron needs a display; on a headless Linux machine borrow a virtual one when xvfb-run is installed.
const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const command = headless && spawnSync("which", ["xvfb-run"]).status === 0 ? ["xvfb-run", "-a", ...vitest] : vitest;
const result = spawnSync(command[0], command.slice(1), { cwd: join(here, "../.."), stdio: "inherit" });
process.exit(result.status ?? 1);
