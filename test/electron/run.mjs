/**
 * `npm run test:electron`: the Playwright `_electron` suite, or, where the Electron binary cannot be had, a loud
 * skip (exit 0; these machines cannot download it), or under CI a failure (missing-binary.mjs).
 * `--packaged <executable>` runs the suite against a packaged app instead (`npm run dist:test` makes one:
 * dist/test/linux-unpacked/paddock); one that is not there is an error, wherever it runs (app-under-test.mjs).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { appUnderTest, packagedOption } from "./app-under-test.mjs";
import { whenBinaryMissing } from "./missing-binary.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const option = packagedOption(process.argv.slice(2), process.cwd());
if ("error" in option) {
  console.error(`npm run test:electron: ${option.error}`);
  process.exit(1);
}
// The suite's files read the app to launch from here (appUnderTest).
if (option.packaged) process.env.PADDOCK_PACKAGED_APP = option.packaged;
const binary = appUnderTest(process.env);
if ("missing" in binary) {
  const { exitCode, message } = whenBinaryMissing(binary.missing, process.env);
  (exitCode === 0 ? console.log : console.error)(message);
  process.exit(exitCode);
}
// vitest's own script under this Node: `npx` is npx.cmd on Windows, which spawnSync cannot start without a shell.
const vitestScript = join(here, "../../node_modules/vitest/vitest.mjs");
const vitest = [process.execPath, vitestScript, "run", "--config", join(here, "vitest.electron.config.ts"), ...option.rest];
// Electron needs a display; on a headless Linux machine borrow a virtual one when xvfb-run is installed.
const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const command = headless && spawnSync("which", ["xvfb-run"]).status === 0 ? ["xvfb-run", "-a", ...vitest] : vitest;
const result = spawnSync(command[0], command.slice(1), { cwd: join(here, "../.."), stdio: "inherit" });
if (result.error) console.error(`npm run test:electron: could not start vitest: ${result.error.message}`);
process.exit(result.status ?? 1);
