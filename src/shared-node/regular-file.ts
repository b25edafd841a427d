/**
 * Reading a file that someone else may have put there (a repository's AGENTS.md, a project's agent definitions), the
 * safe way: only a regular file is ever opened, and never more than a bound is read.
 *
 * A plain `readFile` follows a symlink anywhere, and opening a FIFO with nobody writing to it blocks one of libuv's
 * four threads until someone does: four such reads park them all, and every file and DNS call of the process waits.
 * So the path is judged with lstat first (a FIFO, socket, device or folder is never opened), opened with O_NONBLOCK
 * and O_NOFOLLOW (a FIFO swapped in after the lstat does not block, a symlink swapped in is refused), and the open
 * handle is checked again: a regular file, the very one lstat saw.
 *
 * Node only (main, the workers); no Electron.
 */
import { closeSync, constants, fstatSync, openSync, type BigIntStats, type Stats } from "node:fs";
import { lstat, open, readlink } from "node:fs/promises";
import { descriptorPathsKnown } from "./descriptor-paths";

/** Why a file was not read, in words a user reads ("a FIFO", "a symbolic link", "larger than 64 KB (70000 bytes)"). */
export type RegularFileProblem = { kind: "missing" | "link" | "folder" | "not-a-file" | "too-large" | "unreadable"; reason: string };

export type RegularFileRead =
  | { ok: true; bytes: Buffer; /** The file's whole size; more than `bytes.length` when it was cut. */ size: number; cut: boolean }
  | ({ ok: false } & RegularFileProblem);

export interface RegularFileOptions {
  /** Read at most this many bytes. */
  maxBytes: number;
  /** A larger file: "refuse" it (kind "too-large"), or "cut" it to its first `maxBytes` bytes. Default "refuse". */
  larger?: "refuse" | "cut";
  /**
   * `path` is a real path (absolute, no symlink on the way): then, where the system tells (Linux's /proc), the file
   * opened must be the one at that path, so a folder on the way swapped for a link in between is caught too (O_NOFOLLOW
   * guards the last component only).
   */
  real?: boolean;
}

/**
 * Opening for reading without following a link at the path or blocking on a FIFO. Where the system has them: POSIX.
 * Windows has neither (and no FIFOs in its file system).
 */
export const SAFE_READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const OPEN_FLAGS = SAFE_READ_FLAGS;

/**
 * The synchronous open for hot loops that read many files (the checkpoint store's scan): `path` opened with
 * SAFE_READ_FLAGS and checked on the handle to be a regular file. Null (nothing left open) when it is missing, a link,
 * a FIFO, a folder or anything else; the caller closes `fd`.
 */
export function openRegularFileSync(path: string): { fd: number; stat: Stats } | null {
  let fd: number;
  try {
    fd = openSync(path, SAFE_READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) return { fd, stat };
  } catch {
    // unreadable: as missing
  }
  closeSync(fd);
  return null;
}

/**
 * Reads `path` if it is a regular file: never follows a symlink at `path` itself (kind "link": a caller that allows
 * links judges `realpath(path)` and reads that), never opens anything but a regular file, never reads more than
 * `maxBytes`. Never throws: every failure is a problem in words.
 */
export async function readRegularFile(path: string, options: RegularFileOptions): Promise<RegularFileRead> {
  let seen: BigIntStats;
  try {
    seen = await lstat(path, { bigint: true });
  } catch (error) {
    return failure(error);
  }
  if (seen.isSymbolicLink()) return { ok: false, kind: "link", reason: "a symbolic link" };
  if (seen.isDirectory()) return { ok: false, kind: "folder", reason: fileKind(seen) };
  if (!seen.isFile()) return { ok: false, kind: "not-a-file", reason: fileKind(seen) };

  let handle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    // Checked on the open handle: what is read is what was measured, and what lstat saw.
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) return { ok: false, kind: "not-a-file", reason: fileKind(info) };
    if (info.dev !== seen.dev || info.ino !== seen.ino || (options.real && !(await opened(handle.fd, path)))) {
      return { ok: false, kind: "unreadable", reason: "replaced while being opened" };
    }
    const size = Number(info.size);
    if (size > options.maxBytes && (options.larger ?? "refuse") === "refuse") {
      return { ok: false, kind: "too-large", reason: `larger than ${formatBytes(options.maxBytes)} (${size} bytes)` };
    }
    // Up to the bound, whatever the size said: a file may grow while it is read.
    const buffer = Buffer.alloc(Math.min(size, options.maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { ok: true, bytes: buffer.subarray(0, filled), size, cut: size > filled };
  } catch (error) {
    return failure(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Whether descriptor `fd` is the file at `path`, as far as the system tells (true where it does not). */
async function opened(fd: number, path: string): Promise<boolean> {
  if (!(await descriptorPathsKnown())) return true;
  const actual = await readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  return actual === undefined || actual === path;
}

/** What a non-regular file is, in words. */
function fileKind(info: BigIntStats): string {
  if (info.isDirectory()) return "a folder, not a file";
  if (info.isSymbolicLink()) return "a symbolic link";
  const kind = specialFileKind(info);
  return kind === NOT_REGULAR ? kind : `${kind}, not a regular file`;
}

const NOT_REGULAR = "not a regular file";

/**
 * What a file that is neither regular, a folder nor a link is, in words ("a FIFO (named pipe)"): the one wording for
 * every reader that refuses such files (here, and the workspace tools' checked-open.ts).
 */
export function specialFileKind(info: Stats | BigIntStats): string {
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return NOT_REGULAR;
}

function failure(error: unknown): { ok: false } & RegularFileProblem {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, kind: "missing", reason: "not there" };
  // O_NOFOLLOW on a symlink swapped in after the lstat.
  if (code === "ELOOP" || code === "EMLINK") return { ok: false, kind: "link", reason: "a symbolic link" };
  return { ok: false, kind: "unreadable", reason: `could not be read (${code ?? (error instanceof Error ? error.message : String(error))})` };
}

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
