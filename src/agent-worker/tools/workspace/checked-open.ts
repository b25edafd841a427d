import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { NO_FOLLOW, WorkspaceEscapeError, type Access, type WorkspacePaths } from "./workspace-paths";
import { descriptorPathsKnown } from "../../../shared-node/descriptor-paths";
import { specialFileKind } from "../../../shared-node/regular-file";

/*
 * How the file tools open what the path gate let through, so that what they open is what was checked.
 *
 * The gate (WorkspacePaths) checks a path's real path, but a process running at the same time (a command the model
 * started) can swap a folder on that path for a symlink to somewhere else between the check and the open: O_NOFOLLOW
 * guards only the last component. So every open here is followed by asking where the opened thing really is, and the
 * gate's rules are applied to that answer:
 * - On Linux the kernel says it (`/proc/self/fd/N`), and a folder, once opened and checked, is used through that same
 *   descriptor (`/proc/self/fd/N/name` opens `name` in that very folder, like openat(2)): a file is only ever created,
 *   truncated or read in a folder already verified.
 * - Elsewhere (macOS: Node has no F_GETPATH) the path is resolved again after opening, must still be allowed, and must
 *   lead to the same file (device and inode) as the descriptor. A swap that is undone before that re-check cannot be
 *   told from no swap at all; there, a write may create an empty file or open (never truncate or write) one outside
 *   before the refusal.
 *
 * Only regular files are read or written, and nothing is opened blocking: a FIFO or a device refuses at once instead
 * of hanging the worker's file threads.
 */

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOCTTY = constants.O_NOCTTY ?? 0;

/** An opened regular file, checked: its handle and its fstat. */
export interface CheckedFile {
  handle: FileHandle;
  info: Stats;
}

/** An opened folder, checked. */
export interface CheckedFolder {
  /** A path that reaches this very folder (`/proc/self/fd/N` on Linux; elsewhere its real path): for readdir, spawn's cwd, names in it. */
  path: string;
  handle: FileHandle;
  /**
   * Where `path` is the real path (not Linux), checks again that it still leads to this folder: call it after using
   * `path`, before returning what was found there. Nothing to do on Linux.
   */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the regular file at `real` (a path the gate returned for `input`) for reading, checked. A folder, a FIFO, a
 * socket or a device is refused with a message saying so, without blocking.
 */
export async function openFileForReading(paths: WorkspacePaths, input: string, real: string): Promise<CheckedFile> {
  if (real === paths.root) throw new Error(`${input} is a directory. Use ls to list it.`);
  const folder = await openFolder(paths, input, dirname(real), "read").catch(asMissingFile(real));
  try {
    const at = join(folder.path, basename(real));
    refuseUnlessRegular(input, await inRealTerms(lstat(at), folder.path, dirname(real)));
    const handle = await inRealTerms(open(at, constants.O_RDONLY | NO_FOLLOW | O_NONBLOCK | O_NOCTTY), folder.path, dirname(real));
    return await checked(paths, input, real, handle, "read");
  } finally {
    await folder.close();
  }
}

/**
 * Opens the regular file at `real` (a path the gate returned for `input`) for writing, checked, without changing it
 * yet: `create` makes it (and its missing folders) when it does not exist, else it must exist. Refused: anything but a
 * regular file, and a file with more than one hard link (writing it would change the other copies too). Write the new
 * content with `replaceContent`.
 */
export async function openFileForWriting(paths: WorkspacePaths, input: string, real: string, create: boolean): Promise<CheckedFile> {
  if (real === paths.root) throw new Error(`${input} is a directory. Use ls to list it.`);
  const folder = await openFolder(paths, input, dirname(real), "write", create).catch(asMissingFile(real));
  try {
    const at = join(folder.path, basename(real));
    const before = await inRealTerms(lstat(at), folder.path, dirname(real)).catch((error: NodeJS.ErrnoException) => {
      if (create && error.code === "ENOENT") return undefined;
      throw error;
    });
    if (before) refuseUnlessRegular(input, before);
    // `write` never reads; `edit` reads and writes through one descriptor. No O_TRUNC: nothing changes before the check.
    const flags = (create ? constants.O_WRONLY | constants.O_CREAT : constants.O_RDWR) | NO_FOLLOW | O_NONBLOCK | O_NOCTTY;
    const file = await checked(paths, input, real, await inRealTerms(open(at, flags, 0o666), folder.path, dirname(real)), "write");
    if (file.info.nlink > 1) {
      await file.handle.close();
      throw new Error(
        `Refused "${input}": it has ${file.info.nlink} hard links; writing it would change the other copies too (a package store?). ` +
          `Copy it first, so it has a single link, then change the copy: cp "${input}" "${input}.copy" && mv "${input}.copy" "${input}"`,
      );
    }
    return file;
  } finally {
    await folder.close();
  }
}

/** Replaces a file opened by `openFileForWriting` with `data`, in place (the file keeps its mode and owner). */
export async function replaceContent(handle: FileHandle, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  await handle.truncate(0);
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
}

/**
 * Opens the folder at `real` (a path the gate returned for `input`), checked. With `create`, missing folders are made
 * one at a time, each inside the one opened and checked before it.
 */
export async function openFolder(paths: WorkspacePaths, input: string, real: string, access: Access, create = false): Promise<CheckedFolder> {
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    const parentPath = dirname(real);
    if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT" || parentPath === real) throw error;
    const parent = await openFolder(paths, input, parentPath, access, true);
    try {
      const at = join(parent.path, basename(real));
      await inRealTerms(mkdir(at), parent.path, parentPath).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      handle = await inRealTerms(open(at, constants.O_RDONLY | O_DIRECTORY | NO_FOLLOW | O_NONBLOCK | O_NOCTTY), parent.path, parentPath);
    } finally {
      await parent.close();
    }
  }
  const { info } = await checked(paths, input, real, handle, access);
  if (!info.isDirectory()) {
    await handle.close();
    throw new Error(`Not a directory: ${real}`);
  }
  const pinned = await descriptorPathsKnown();
  return {
    path: pinned ? `/proc/self/fd/${handle.fd}` : real,
    handle,
    recheck: async () => {
      if (!pinned) await verify(paths, input, real, handle, access);
    },
    close: () => handle.close(),
  };
}

/** Verifies an opened `handle` (meant to be at `real`) with the gate; closes it and throws when it is not allowed. */
async function checked(paths: WorkspacePaths, input: string, real: string, handle: FileHandle, access: Access): Promise<CheckedFile> {
  try {
    const info = await verify(paths, input, real, handle, access);
    if (!info.isDirectory()) refuseUnlessRegular(input, info);
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Throws unless `handle` is somewhere `access` may reach (see the top of this file); its fstat. */
async function verify(paths: WorkspacePaths, input: string, real: string, handle: FileHandle, access: Access): Promise<Stats> {
  const info = await handle.stat();
  if (await descriptorPathsKnown()) {
    const opened = await readlink(`/proc/self/fd/${handle.fd}`);
    await paths.checkOpened(input, opened, access);
    // A write, and each folder it opens or creates on the way, must be the very path that was judged: a folder swapped
    // for a link to another place inside the workspace (git's hooks, which the approval protects) stays inside, so
    // the gate alone would let it through.
    if (access === "write" && opened !== real) {
      throw new WorkspaceEscapeError(`Refused "${input}": it changed while it was being opened (was a folder on the way swapped?). Try again.`);
    }
    return info;
  }
  // No way to ask where a descriptor is: the path, resolved again now, must be allowed and be this very file.
  const again = await realpath(real).catch(() => undefined);
  const there = again === undefined ? undefined : await stat(again).catch(() => undefined);
  if (again === undefined || there?.dev !== info.dev || there.ino !== info.ino) {
    throw new WorkspaceEscapeError(`Refused "${input}": it changed while it was being opened (was a folder on the way swapped?). Try again.`);
  }
  await paths.checkOpened(input, again, access);
  return info;
}

/** Throws, saying what it is instead, unless `info` (an lstat or fstat) is a regular file. */
function refuseUnlessRegular(input: string, info: Stats): void {
  if (info.isFile()) return;
  if (info.isDirectory()) throw new Error(`${input} is a directory. Use ls to list it.`);
  if (info.isSymbolicLink()) {
    // The gate gave a real path: a link here appeared after the check.
    throw new WorkspaceEscapeError(`Refused "${input}": it was replaced by a symbolic link after the check.`);
  }
  throw new Error(notRegular(input, info));
}

function notRegular(input: string, info: Stats): string {
  return `${input} is ${specialFileKind(info)}: the file tools only read and write regular files.`;
}

/** An fs call's error, with the folder's `/proc/self/fd/N` spelling replaced by its real path (for the model). */
async function inRealTerms<T>(call: Promise<T>, via: string, realDir: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof Error && via !== realDir) {
      error.message = error.message.split(via).join(realDir);
      const withPath = error as NodeJS.ErrnoException;
      if (withPath.path) withPath.path = withPath.path.split(via).join(realDir);
    }
    throw error;
  }
}

/** A missing folder on the way, told as the file it was opened for (as a plain open of the file would). */
function asMissingFile(real: string): (error: unknown) => never {
  return (error) => {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw Object.assign(new Error(`ENOENT: no such file or directory, open '${real}'`), { code: "ENOENT", path: real, cause: error });
  };
}

