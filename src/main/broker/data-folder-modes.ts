/**
 * Paddock's data folder is its user's alone (docs/security.md, "Main's files"): transcripts, settings, keys and
 * attachments are created in folders made 0700, as files made 0600. Electron-free.
 *
 * `keepDataFolderPrivate` fixes what older versions left (a 0755 folder, 0644 files) at start: it takes group and
 * other access away from the data folder itself and what lies directly in it, and from what lies directly in the
 * folders it is given (`sessions/`: the transcripts, the index, each chat's folder). Deeper entries sit inside those
 * folders, closed to everyone else. Cheap on every start after the first: a given folder is made private only after
 * its entries, so a private one is skipped whole (its mode is the mark that the pass was done); that leaves one
 * lstat per entry of the data folder itself (a dozen). The first pass over 10,000 chats (20,000 entries) took 0.2 s here, once.
 *
 * The data folder goes first, so from then on no other user can swap an entry for a link under it; symlinks are
 * never followed or changed, nor is anything but files and folders, nor anything another user owns. On Windows,
 * where modes are not how files are protected, it does nothing.
 */
import { chmodSync, lstatSync, readdirSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";

/** Group and other permission bits: what a private file or folder has none of. */
const SHARED_BITS = 0o077;

/**
 * Takes group and other access away from `dataDir`, its direct entries, and the direct entries of `inner` (folders
 * directly inside it). Never throws: what cannot be changed is left as it is.
 */
export function keepDataFolderPrivate(dataDir: string, inner: readonly string[]): void {
  if (process.platform === "win32") return;
  // The folder itself is followed if it is a link: where the user keeps it is theirs to choose.
  makePrivate(dataDir, statOf(dataDir, statSync));
  for (const folder of inner) {
    const stats = statOf(folder, lstatSync);
    if (!stats?.isDirectory() || (stats.mode & SHARED_BITS) === 0) continue;
    makeEntriesPrivate(folder);
    makePrivate(folder, stats);
  }
  makeEntriesPrivate(dataDir);
}

function makeEntriesPrivate(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(folder, name);
    const stats = statOf(path, lstatSync);
    if (stats?.isFile() || stats?.isDirectory()) makePrivate(path, stats);
  }
}

function makePrivate(path: string, stats: Stats | undefined): void {
  if (!stats || (stats.mode & SHARED_BITS) === 0 || stats.uid !== process.getuid?.()) return;
  try {
    // Only the shared bits go: a file the user made read-only stays so (0644 -> 0600, 0444 -> 0400, 0755 -> 0700).
    chmodSync(path, stats.mode & 0o700);
  } catch {
    // Left as it is (a read-only file system, say): the folders above it still keep others out.
  }
}

function statOf(path: string, how: (path: string) => Stats): Stats | undefined {
  try {
    return how(path);
  } catch {
    return undefined;
  }
}
