/**
 * Vitest's global set-up: the browser tests need a Chromium. When `findBrowser` finds none, one is got once and the
 * run says so: Debian's `chromium` when running as root on Debian or Ubuntu, else Playwright's own download. If that
 * fails too, the run stops at once with the command to run, instead of every browser test failing on its own.
 * The path found is passed to the tests as CHROMIUM_PATH.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findBrowser } from "./find-browser";
import { cliFilters } from "./run-filters";

export default function setup(): void {
  // `vitest run test/unit/...`: no browser test in the run, so nothing to find or get.
  const filters = cliFilters();
  if (filters.length > 0 && !filters.some((f) => f.includes("e2e"))) return;
  let found = findBrowser();
  if (!found.path) {
    const how = getBrowser();
    found = findBrowser();
    if (!found.path) {
      throw new Error(
        `No Chromium for the browser tests (looked in: ${found.tried.join(", ")}). ${how}\n` +
          `Install one and run again: \`npx playwright install chromium\`, or on Debian/Ubuntu \`sudo apt-get install chromium\`, ` +
          `or point CHROMIUM_PATH at a Chrome or Chromium.`,
      );
    }
  }
  process.env.CHROMIUM_PATH = found.path;
}

/** Tries to install a browser, saying what it did; never throws. */
function getBrowser(): string {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  try {
    if (process.platform === "linux" && isRoot && existsSync("/etc/debian_version")) {
      console.log("browser tests: no Chromium found; installing Debian's chromium (apt-get install chromium)...");
      execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 600_000 });
      return "Tried apt-get install chromium.";
    }
    console.log("browser tests: no Chromium found; downloading Playwright's (npx playwright-core install chromium)...");
    execFileSync("npx", ["--no-install", "playwright-core", "install", "chromium"], { stdio: "inherit", timeout: 600_000, shell: process.platform === "win32" });
    return "Tried npx playwright-core install chromium.";
  } catch (error) {
    return `Getting one failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}.`;
  }
}
