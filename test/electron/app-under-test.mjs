/**
 * Which Electron app the `_electron` suite launches: by default the development binary (node_modules/electron) with
 * the built out/main/index.js; with `npm run test:electron -- --packaged <executable>` (run.mjs puts the path in
 * PADDOCK_PACKAGED_APP) a packaged app as electron-builder made it, e.g. `npm run dist:test`'s
 * dist/test/linux-unpacked/paddock, which loads its own app.asar and is launched with no entry point.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { findElectronBinary } from "../../scripts/electron-binary.mjs";

/**
 * Takes `--packaged <path>` out of the runner's arguments.
 * @param {string[]} args the runner's arguments
 * @param {string} cwd what a relative path is relative to
 * @returns {{ rest: string[], packaged?: string } | { error: string }}
 */
export function packagedOption(args, cwd) {
  const at = args.indexOf("--packaged");
  if (at === -1) return { rest: args };
  const path = args[at + 1];
  if (!path || path.startsWith("-")) {
    return { error: "--packaged needs the path of a packaged app's executable, e.g. --packaged dist/test/linux-unpacked/paddock" };
  }
  const packaged = resolve(cwd, path);
  if (!existsSync(packaged) || !statSync(packaged).isFile()) {
    return { error: `--packaged ${path}: there is no app at ${packaged}; build one with \`npm run dist:test\` (into dist/test/)` };
  }
  return { rest: [...args.slice(0, at), ...args.slice(at + 2)], packaged };
}

/**
 * @param {Record<string, string | undefined>} env PADDOCK_PACKAGED_APP names a packaged app's executable
 * @returns {{ path: string, packaged: boolean } | { missing: string }}
 */
export function appUnderTest(env) {
  const packaged = env.PADDOCK_PACKAGED_APP;
  if (packaged) return existsSync(packaged) ? { path: packaged, packaged: true } : { missing: `PADDOCK_PACKAGED_APP names ${packaged}, which does not exist` };
  const binary = findElectronBinary();
  return "missing" in binary ? binary : { path: binary.path, packaged: false };
}

/**
 * The arguments that start the app: a packaged app knows its entry point; the development binary is given out/'s.
 * @param {{ packaged: boolean }} app
 * @param {string} mainEntry out/main/index.js
 * @returns {string[]}
 */
export function entryArguments(app, mainEntry) {
  return app.packaged ? [] : [mainEntry];
}
