/**
 * A folder's identity: the device and inode that `stat` reports, which stay with the folder itself whatever its path
 * comes to lead to. Main checks a subagent's folder and hands the child its real path with this identity; the child
 * works there only if that path still is that folder (a folder swapped for a symlink to `/` in between is refused).
 *
 * Node only (main, the workers); no Electron.
 */
import { realpathSync, statSync, type BigIntStats } from "node:fs";
import { stat } from "node:fs/promises";
import type { FolderIdentity } from "../shared/protocol/control-protocol";

/** The identity of what `stats` (a `stat(path, { bigint: true })`) describes, as JSON-safe text. */
export function folderIdentity(stats: BigIntStats): FolderIdentity {
  return { dev: stats.dev.toString(), ino: stats.ino.toString() };
}

/** The identity of the folder at `path` now (links followed), or undefined when there is none to stat. */
export async function identityOf(path: string): Promise<FolderIdentity | undefined> {
  const stats = await stat(path, { bigint: true }).catch(() => undefined);
  return stats?.isDirectory() ? folderIdentity(stats) : undefined;
}

/**
 * Why `path` is not, right now, the folder `identity` names as its own real path (no symlink on the way, same device
 * and inode); undefined when it is. Never throws.
 */
export function folderMismatch(path: string, identity: FolderIdentity): string | undefined {
  try {
    const real = realpathSync(path);
    if (real !== path) return `${path} now leads to ${real} (it, or a folder above it, was replaced by a link)`;
    const stats = statSync(path, { bigint: true });
    if (!stats.isDirectory()) return `${path} is no longer a folder`;
    const now = folderIdentity(stats);
    if (now.dev !== identity.dev || now.ino !== identity.ino) return `${path} is no longer the folder it was (it was replaced)`;
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    return `${path} cannot be opened (${code ?? String(error)})`;
  }
}
