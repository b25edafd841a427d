/**
 * Reading skill and prompt template folders someone else may have filled (a cloned repository's `.claude/skills`):
 * links are followed to where they really lead, and a project's may not lead out of the project; only regular files
 * are opened (never a FIFO), never more than a bound; a folder with too many entries is looked at only in part.
 * Nothing here throws: what cannot be used becomes a problem in words.
 */
import { createHash } from "node:crypto";
import { readdir, realpath, stat } from "node:fs/promises";
import { sep } from "node:path";
import { readRegularFile } from "../../shared-node/regular-file";
import type { ResourceProblem } from "../../shared/protocol/skills";

/** More entries than this in one folder: the rest are not looked at (a skills folder is a handful). */
export const MAX_FOLDER_ENTRIES = 1000;

/** Where links may lead: anywhere (the user's own folders), or only within `within` (a workspace's real path). */
export interface LinkPolicy {
  within?: string;
}

export type Entry = { name: string; path: string; real: string; kind: "file" | "folder" | "other" };

/** Whether the absolute `path` is `root` or below it. */
export function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The entries of `dir`, by name, each with where it really leads. A missing or unreadable folder has none (and no
 * problem: most of the folders looked in do not exist). A link that leads nowhere, or out of the project, is left out
 * with a problem.
 */
export async function listFolder(dir: string, policy: LinkPolicy, problems: ResourceProblem[]): Promise<Entry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  if (names.length > MAX_FOLDER_ENTRIES) {
    problems.push({ path: dir, reason: `more than ${MAX_FOLDER_ENTRIES} entries: only the first ${MAX_FOLDER_ENTRIES} were looked at` });
    names = names.slice(0, MAX_FOLDER_ENTRIES);
  }
  const entries: Entry[] = [];
  for (const name of names) {
    const path = `${dir}${dir.endsWith(sep) ? "" : sep}${name}`;
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) {
      problems.push({ path, reason: "a link to something that is not there" });
      continue;
    }
    if (policy.within !== undefined && !isWithin(policy.within, real)) {
      problems.push({ path, reason: `leads out of the project (to ${real}): skipped` });
      continue;
    }
    const info = await stat(real).catch(() => undefined);
    entries.push({ name, path, real, kind: info?.isDirectory() ? "folder" : info?.isFile() ? "file" : "other" });
  }
  return entries;
}

/**
 * The text of the regular file at `real` (a real path), with a hash of its bytes, or a problem naming `path`. A FIFO,
 * socket or device is never opened; a file larger than `maxBytes` is refused.
 */
export async function readResourceFile(
  path: string,
  real: string,
  maxBytes: number,
  problems: ResourceProblem[],
): Promise<{ text: string; hash: string } | undefined> {
  const read = await readRegularFile(real, { maxBytes, real: true });
  if (!read.ok) {
    problems.push({ path, reason: read.reason });
    return undefined;
  }
  return { text: read.bytes.toString("utf8"), hash: createHash("sha256").update(read.bytes).digest("hex") };
}
