/**
 * Puts a package npm skipped into node_modules, exactly as package-lock.json pins it.
 *
 * ripgrep ships as one npm package per system and arch (optional dependencies of @vscode/ripgrep), and npm installs
 * only the one for the machine it runs on. An installer for this system's other arch (x64 on an Apple silicon
 * runner, arm64 on an x64 Windows one) needs that arch's package in node_modules when electron-builder packs it;
 * without it the app would start and its grep and find tools would fail.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The ripgrep package for a system (`process.platform`) and arch. */
export function ripgrepPackage(platform: string, arch: string): string {
  return `@vscode/ripgrep-${platform}-${arch}`;
}

export interface Pin {
  version: string;
  integrity: string;
}

/** What `lockFile` pins for `name` (the hoisted copy, the one electron-builder packs). Throws when it pins nothing. */
export function lockedPin(lockFile: string, name: string): Pin {
  const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { packages?: Record<string, Partial<Pin>> };
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry?.version || !entry.integrity) throw new Error(`${lockFile} pins no ${name}: run \`npm install\` and commit the lockfile.`);
  return { version: entry.version, integrity: entry.integrity };
}

/**
 * Installs `name@version` for another system or arch into the empty folder `scratch`, the way npm would for that
 * machine: as an optional dependency with npm's `--os`/`--cpu`, no install scripts. Returns npm's failure text, or
 * null when npm succeeded.
 */
export type ScratchInstall = (scratch: string, name: string, version: string, os: string, cpu: string) => string | null;

export const installWithNpm: ScratchInstall = (scratch, name, version, os, cpu) => {
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ private: true, optionalDependencies: { [name]: version } }));
  const args = ["install", "--prefix", scratch, `--os=${os}`, `--cpu=${cpu}`, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
  // Under `npm run`, npm_execpath is the npm that runs us; otherwise the one on PATH (npm.cmd on Windows needs a shell).
  const npmCli = process.env.npm_execpath;
  const run = npmCli?.endsWith(".js")
    ? spawnSync(process.execPath, [npmCli, ...args], { cwd: scratch, encoding: "utf8" })
    : spawnSync("npm", args, { cwd: scratch, encoding: "utf8", shell: process.platform === "win32" });
  if (run.status === 0) return null;
  return (run.stderr || run.error?.message || `npm exited with ${run.status}`).trim();
};

export interface EnsureOptions {
  /** The project folder: package-lock.json and node_modules. */
  root: string;
  name: string;
  /** The system and arch the package is for (`process.platform` / `process.arch` spelling). */
  os: string;
  cpu: string;
  install?: ScratchInstall;
}

/**
 * Makes sure `root`/node_modules holds `name` at the version package-lock.json pins. When it does not, installs it
 * into a scratch folder, checks that what npm got has the integrity the lockfile records, and only then copies it
 * in (replacing another version of it, if one was there). Touches no other package. Throws with the reason, leaving
 * node_modules as it was, when the lockfile pins no such package, npm fails or the integrity differs.
 */
export function ensureLockedPackage({ root, name, os, cpu, install = installWithNpm }: EnsureOptions): "present" | "installed" {
  const pin = lockedPin(join(root, "package-lock.json"), name);
  const target = join(root, "node_modules", ...name.split("/"));
  if (installedVersion(target) === pin.version) return "present";
  const scratch = mkdtempSync(join(tmpdir(), "paddock-package-"));
  try {
    const failure = install(scratch, name, pin.version, os, cpu);
    if (failure !== null) throw new Error(`npm could not install ${name}@${pin.version}: ${failure}`);
    const fetched = join(scratch, "node_modules", ...name.split("/"));
    if (installedVersion(fetched) !== pin.version) throw new Error(`npm did not install ${name}@${pin.version} (for ${os}-${cpu}).`);
    const integrity = lockedPin(join(scratch, "package-lock.json"), name).integrity;
    if (integrity !== pin.integrity) {
      throw new Error(`${name}@${pin.version} from the registry has integrity ${integrity}; package-lock.json says ${pin.integrity}.`);
    }
    rmSync(target, { recursive: true, force: true });
    cpSync(fetched, target, { recursive: true });
    return "installed";
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function installedVersion(folder: string): string | undefined {
  const manifest = join(folder, "package.json");
  if (!existsSync(manifest)) return undefined;
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
