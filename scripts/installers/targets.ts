/**
 * Which installers this system builds, read from electron-builder.yml (the one list of targets and arches), so
 * `npm run dist` and the release workflow never keep a second copy of it.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** electron-builder's key for a system's section (`mac`, `win`, `linux`), by Node's `process.platform`. */
const SECTIONS: Record<string, string> = { darwin: "mac", win32: "win", linux: "linux" };

export interface SystemBuilds {
  /** The section's key, which is also electron-builder's command-line flag (`--mac`). */
  section: string;
  /** Per arch, in the order first listed: the targets (dmg, zip, nsis, AppImage, deb) built for it. */
  byArch: Map<string, string[]>;
}

/**
 * What `configFile` says to build on `platform`. Throws with the reason on a system the file has no section for, or
 * an entry without an explicit arch list (which electron-builder would take as "this machine's arch").
 */
export function systemBuilds(configFile: string, platform: string): SystemBuilds {
  const section = SECTIONS[platform];
  if (!section) throw new Error(`Paddock builds installers on macOS, Windows and Linux, not on ${platform}.`);
  const config = parse(readFileSync(configFile, "utf8")) as Record<string, { target?: unknown } | null | undefined>;
  const listed = config[section]?.target;
  if (!Array.isArray(listed) || listed.length === 0) throw new Error(`${configFile} lists no ${section}.target.`);
  const byArch = new Map<string, string[]>();
  for (const entry of listed as Array<{ target?: unknown; arch?: unknown } | null>) {
    const arches = entry?.arch;
    if (typeof entry?.target !== "string" || !Array.isArray(arches) || !arches.every((arch) => typeof arch === "string")) {
      throw new Error(`${configFile}: each ${section}.target entry needs a target name and an arch list.`);
    }
    for (const arch of arches as string[]) byArch.set(arch, [...(byArch.get(arch) ?? []), entry.target]);
  }
  return { section, byArch };
}
