/**
 * Whether `out/` (what `npm run build` makes) was built from the sources as they are now. Integration, browser and
 * Electron tests run the built worker, MCP host, page and app, not src/: after a source change, a run without a build
 * would silently test the old code.
 *
 * The build's stamp is its own output: electron-vite rewrites every output file on each build, so a build is fresh
 * when no input changed after its oldest output was written. That costs one stat per source file (a few ms), never a
 * read. Inputs are what the three bundles are made of: src/ (every file: each folder is in some bundle), the build's
 * config and TypeScript settings, and the installed dependencies (npm rewrites node_modules/.package-lock.json on each
 * install). Deleted sources need no check: a bundle changes only if a file that stays changes to stop importing them.
 */
import { readdirSync, statSync, type Stats } from "node:fs";
import { join, relative } from "node:path";

/** What `npm run build` writes: the three entries of main's bundle, the preload and the page. */
export const BUILD_OUTPUTS = ["out/main/index.js", "out/main/agent-worker.js", "out/main/mcp-host.js", "out/preload/index.cjs", "out/renderer/index.html"];

/** The folders whose every file the build may read. */
export const BUILD_INPUT_FOLDERS = ["src"];

/** The single files the build reads besides them (those missing are skipped: tsconfig.base.json may go, say). */
export const BUILD_INPUT_FILES = [
  "electron.vite.config.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.base.json",
  "tsconfig.node.json",
  "tsconfig.web.json",
  "node_modules/.package-lock.json",
];

export type BuildFreshness = { fresh: true } | { fresh: false; reason: string };

/** Compares the inputs' newest change with the oldest output under `root` (the repository). */
export function buildFreshness(root: string): BuildFreshness {
  let oldestOutput: { file: string; mtimeMs: number } | undefined;
  for (const file of BUILD_OUTPUTS) {
    const stats = statOf(join(root, file));
    if (!stats?.isFile()) return { fresh: false, reason: `there is no build: ${file} is missing` };
    if (!oldestOutput || stats.mtimeMs < oldestOutput.mtimeMs) oldestOutput = { file, mtimeMs: stats.mtimeMs };
  }
  const built = oldestOutput!;
  const newest = newestInput(root);
  if (newest && newest.mtimeMs > built.mtimeMs) {
    return {
      fresh: false,
      reason: `the build is older than its sources: ${newest.file} changed at ${clock(newest.mtimeMs)}, after ${built.file} was built at ${clock(built.mtimeMs)}`,
    };
  }
  return { fresh: true };
}

/** The input changed last, by modification time. */
export function newestInput(root: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  const consider = (path: string, stats: Stats | undefined): void => {
    if (stats?.isFile() && (!newest || stats.mtimeMs > newest.mtimeMs)) newest = { file: relative(root, path), mtimeMs: stats.mtimeMs };
  };
  for (const file of BUILD_INPUT_FILES) consider(join(root, file), statOf(join(root, file)));
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a folder that vanished or cannot be read holds nothing the build could read either
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      // Symbolic links are followed to what they name (the build reads that); a FIFO or socket is no source.
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() || entry.isSymbolicLink()) consider(path, statOf(path));
    }
  };
  for (const folder of BUILD_INPUT_FOLDERS) walk(join(root, folder));
  return newest;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined; // missing, or a dangling link
  }
}

const clock = (ms: number): string => new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
