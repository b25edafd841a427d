import { lstat, readlink, realpath } from "node:fs/promises";
import { constants, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { privateFolders, type PrivateFolders } from "./private-folders";
import type { FolderIdentity } from "../../../shared/protocol/control-protocol";
import { folderMismatch } from "../../../shared-node/folder-identity";

/** Open flag for files at checked paths: on POSIX, a symlink swapped in after the check is refused. */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Thrown when a path would lead out of the workspace, or into a private folder; the message says why, for the model. */
export class WorkspaceEscapeError extends Error {
  override name = "WorkspaceEscapeError";
}

/** What a tool means to do at a path: private folders refuse both, except `allowRead` folders for reading. */
export type Access = "read" | "write";

/** The spaces pi turns into plain ones in paths (models copy them from screenshots' names). */
export const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * The one gate between a tool's `path` argument and the file system. A path is judged by where it really leads:
 * the real path (symlinks followed) of its longest existing prefix, plus the rest as written. So `..`, absolute paths
 * elsewhere, `~`, and symlinks (to files or folders) that lead out are all refused, while absolute paths inside are
 * fine. Tools then work on the real path they were given, never on the model's spelling. Inside the workspace, the
 * private folders (credential stores, Paddock's data folder: the sandbox's deny list for commands) are refused too.
 *
 * A concurrent process can still swap a checked folder for a symlink between the check and the use: the tools open
 * through `checked-open.ts`, which verifies where the opened file or folder really is (`checkOpened`).
 */
export class WorkspacePaths {
  /** The workspace's real path. */
  readonly root: string;
  /** The workspace as the caller spelled it (absolute): `/tmp/ws` where the real path is `/private/tmp/ws`. */
  private readonly spelledRoot: string;

  /** Real paths of folders outside the workspace that `resolveForReading` also accepts. */
  private readonly readable: string[];
  /** The private folders, each with its spellings: as given, and its real path (the folder may be a symlink). */
  private readonly deny: { spellings: string[]; path: string; what: string }[];
  private readonly allowRead: string[];

  /**
   * @param readable folders outside the workspace that may be read, never written (the session's saved command
   *   output, which bash's truncation marker points the model to). Need not exist yet.
   * @param folders what no tool reads or writes even inside the workspace (default: the credential stores only).
   * @param identity the folder main checked (a subagent's): then `root` must be its own real path, and the real path
   *   taken here must be `root` and that folder, or this throws a WorkspaceEscapeError. Paths are judged by the real
   *   root taken here for good, so a root swapped for a link later leads nowhere (its paths resolve outside).
   */
  constructor(root: string, readable: string[] = [], folders: PrivateFolders = privateFolders(), identity?: FolderIdentity) {
    this.spelledRoot = resolve(root);
    this.root = realpathSync(this.spelledRoot);
    this.readable = readable.map((folder) => resolve(folder));
    const mismatch = identity && (this.root !== this.spelledRoot ? `${root} now leads to ${this.root}` : folderMismatch(this.root, identity));
    if (mismatch) throw new WorkspaceEscapeError(`Refused the workspace: ${mismatch}. It is not the folder that was checked.`);
    this.deny = folders.deny.map(({ path, what }) => ({ path, what, spellings: spellingsOf(path) }));
    this.allowRead = folders.allowRead.flatMap(spellingsOf);
  }

  /** As `resolve`, but a path into one of the readable folders is accepted too, and `allowRead` lifts a denial. */
  resolveForReading(input: string): Promise<string> {
    return this.gate(input, "read");
  }

  /**
   * As `resolveForReading`, for `spelling`: another spelling of `input` (read's fallbacks for a missing file) taken
   * as written, its Unicode spaces kept (a macOS screenshot's U+202F). The same checks; messages name `input`.
   */
  resolveSpellingForReading(input: string, spelling: string): Promise<string> {
    return this.gate(input, "read", spelling);
  }

  /** The real absolute path `input` leads to, or a WorkspaceEscapeError. The target need not exist. For writing. */
  resolve(input: string): Promise<string> {
    return this.gate(input, "write");
  }

  private async gate(input: string, access: Access, spelling?: string): Promise<string> {
    const path = spelling ?? input.replace(UNICODE_SPACES, " ").replace(/^@/, "");
    if (path === "~" || path.startsWith("~/") || path.startsWith("~\\")) {
      throw new WorkspaceEscapeError(
        `Refused "${input}": "~" is the home folder, outside the workspace ${this.root}. Use a path inside the workspace (relative to it, or absolute).`,
      );
    }
    const lexical = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    const real = await realPathOf(lexical);
    if (within(this.root, real) || (access === "read" && isAbsolute(path) && (await this.inReadable(real)))) {
      this.refusePrivate(input, real, access);
      return real;
    }
    if (!within(this.root, lexical) && !within(this.spelledRoot, lexical)) {
      throw new WorkspaceEscapeError(
        `Refused "${input}": it resolves to ${lexical}, outside the workspace ${this.root}. Tools can only reach files inside the workspace.`,
      );
    }
    throw new WorkspaceEscapeError(
      `Refused "${input}": it leads through a symbolic link to ${real}, outside the workspace ${this.root}. Tools can only reach files inside the workspace.`,
    );
  }

  /**
   * Checks, after opening, where a file or folder the gate let through really is (`real`, as the kernel tells it):
   * a folder on the way may have been swapped for a symlink since the check. Throws a WorkspaceEscapeError unless
   * `access` may reach `real`.
   */
  async checkOpened(input: string, real: string, access: Access): Promise<void> {
    if (!within(this.root, real) && !(access === "read" && (await this.inReadable(real)))) {
      throw new WorkspaceEscapeError(
        `Refused "${input}": when it was opened it led to ${real}, outside the workspace ${this.root} (a folder on the way changed, or was swapped for a symbolic link, after the check). Tools can only reach files inside the workspace.`,
      );
    }
    this.refusePrivate(input, real, access);
  }

  /**
   * Why no tool may `access` the real path `real` (it is in a private folder), or undefined. For results that list
   * paths found below a checked folder (grep, find), which leave such paths out.
   */
  privateReason(real: string, access: Access): string | undefined {
    const denied = this.privateFolderOf(real, access);
    return denied && `${denied.path} ${denied.what}; Paddock's tools never read or change it`;
  }

  /** The private folder (as given) that holds the real path `real`, barring `access` there; undefined when none does. */
  privateFolderOf(real: string, access: Access): { path: string; what: string } | undefined {
    const denied = this.deny.find(({ spellings }) => spellings.some((folder) => within(folder, real)));
    if (!denied) return undefined;
    if (access === "read" && this.allowRead.some((folder) => within(folder, real))) return undefined;
    return denied;
  }

  private refusePrivate(input: string, real: string, access: Access): void {
    const reason = this.privateReason(real, access);
    if (reason) throw new WorkspaceEscapeError(`Refused "${input}": ${reason}.`);
  }

  private async inReadable(real: string): Promise<boolean> {
    for (const folder of this.readable) {
      if (within(await realPathOf(folder), real)) return true;
    }
    return false;
  }

  /** `path` relative to the workspace, with "/" separators ("." for the root): for messages. */
  display(path: string): string {
    return relative(this.root, path).split(sep).join("/") || ".";
  }
}

/** Whether the absolute `path` is `root` or lies below it (both real or both as spelled). */
export function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

const MAX_LINK_HOPS = 40;

/**
 * The real path of the longest existing prefix of `path`, followed by the rest. A dangling symlink on the way is
 * followed by hand (a write through it would create its target), up to the kernel's usual 40 hops.
 */
async function realPathOf(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const info = await lstat(path).catch((error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
  if (info?.isSymbolicLink()) {
    if (hops >= MAX_LINK_HOPS) throw new Error(`Too many levels of symbolic links: ${path}`);
    const target = resolve(dirname(path), await readlink(path));
    return realPathOf(target, hops + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realPathOf(parent, hops), basename(path));
}

/** A folder's spellings to match real paths against: as given, and its real path (of the longest existing prefix). */
function spellingsOf(path: string): string[] {
  const given = resolve(path);
  const real = realPrefixSync(given);
  return real === given ? [given] : [given, real];
}

function realPrefixSync(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    if (!isMissing(error)) return path;
  }
  const parent = dirname(path);
  return parent === path ? path : join(realPrefixSync(parent), basename(path));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
