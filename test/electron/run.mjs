/**
 * `npm run test:electron`: the Playwright `_electron` suite, or, where the Electron binary cannot be had, a loud
 * skip (exit 0; these machines cannot download it), or under CI a failure (missing-binary.mjs).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findElectronBinary } from "../../scripts/electron-binary.mjs";
import { whenBinaryMissing } from "./missing-binary.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const binary = findElectronBinary();
if ("missing" in binary) {
  const { exitCode, message } = whenBinaryMissing(binary.missing, process.env);
  (exitCode === 0 ? console.log : console.error)(message);
  process.exit(exitCode);
}
const vitest = ["npx", "vitest", "run", "--config", join(here, "vitest.electron.config.ts"), ...process.argv.slice(2)];
// Electron needs a display; on a headless Linux machine borrow a virtual one when xvfb-run is installed.
const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const command = headless && spawnSync("which", ["xvfb-run"]).status === 0 ? ["xvfb-run", "-a", ...vitest] : vitest;
const result = spawnSync(command[0], command.slice(1), { cwd: join(here, "../.."), stdio: "inherit" });
process.exit(result.status ?? 1);
