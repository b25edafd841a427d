/**
 * Builds this system's installers with electron-builder, after `electron-vite build` (the npm scripts run both):
 *   npm run dist        every target and arch electron-builder.yml lists for this system, into dist/
 *   npm run dist:dir    an unpacked app for this machine's arch only (dist/linux-unpacked/, dist/mac-arm64/, ...)
 *   npm run dist:test   the same from electron-builder.test.yml (inspector fuse on, for Playwright), into dist/test/
 * Extra arguments go to electron-builder: `npm run dist -- -c.mac.identity=null`.
 *
 * One electron-builder run per arch, each given only that arch's targets: before it, that arch's ripgrep package is
 * put into node_modules if npm skipped it (see installers/locked-package.ts). A download electron-builder cannot make ends
 * in a plain message (installers/builder-run.ts); other failures show electron-builder's own output.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { downloadFailureMessage, runElectronBuilder } from "./installers/builder-run";
import { ensureLockedPackage, ripgrepPackage } from "./installers/locked-package";
import { systemBuilds } from "./installers/targets";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function fail(message: string): never {
  console.error(`\nnpm run dist: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const unpackedOnly = args.includes("--dir");
const forTests = args.includes("--test");
const passThrough = args.filter((arg) => arg !== "--dir" && arg !== "--test");
const configFile = forTests ? "electron-builder.test.yml" : "electron-builder.yml";

let section: string;
let plan: Array<[arch: string, targets: string[]]>;
try {
  const builds = systemBuilds(join(root, "electron-builder.yml"), process.platform);
  section = builds.section;
  plan = unpackedOnly ? [[process.arch, ["dir"]]] : [...builds.byArch];
} catch (error) {
  fail((error as Error).message);
}
if (!existsSync(join(root, "out", "main", "index.js"))) fail("out/ holds no build; run `npm run build` first (`npm run dist` does).");

const electronVersion = (JSON.parse(readFileSync(join(root, "node_modules", "electron", "package.json"), "utf8")) as { version: string }).version;
const cli = createRequire(import.meta.url).resolve("electron-builder/cli.js");

for (const [arch, targets] of plan) {
  const ripgrep = ripgrepPackage(process.platform, arch);
  try {
    if (ensureLockedPackage({ root, name: ripgrep, os: process.platform, cpu: arch }) === "installed") {
      console.log(`npm run dist: installed ${ripgrep} for the ${arch} build`);
    }
  } catch (error) {
    fail(`the ${arch} build needs ${ripgrep}, which is not installed, and getting it failed:\n  ${(error as Error).message}`);
  }
  const code = await runElectronBuilder(
    cli,
    ["--config", configFile, `--${section}`, ...targets, `--${arch}`, "--publish", "never", ...passThrough],
    root,
    (failure) => downloadFailureMessage(failure, electronVersion, `${section} ${arch}`),
  );
  if (code !== 0) process.exit(code);
}
