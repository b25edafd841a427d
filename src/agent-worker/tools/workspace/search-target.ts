import { lstat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { openFileForReading, openFolder } from "./checked-open";
import { WorkspaceEscapeError, type WorkspacePaths } from "./workspace-paths";

/**
 * How ripgrep is pointed at a path the gate let through, so that it starts exactly where the check was made: a
 * folder is opened and checked (checked-open.ts) and rg runs inside it on "." (its working folder is set through the
 * descriptor on Linux); a file whose content is searched is opened and checked and rg reads it as its standard input.
 * Below the folder rg does not follow symlinks (no `--follow`), and it skips FIFOs and devices while walking.
 *
 * Not caught: a subfolder swapped for a symlink while rg itself walks past it (rg lists a folder, then opens each
 * subfolder by path). What it finds there would be shown under the subfolder's name, and only read, never changed.
 */
export interface SearchTarget {
  isDirectory: boolean;
  /** rg's working folder, and the path to give it. */
  cwd: string;
  path: string;
  /** For rg's standard input (a file searched as "-"). */
  stdin?: number;
  /** The real path of a path rg printed. */
  realOf(printed: string): string;
  /** Call after rg has run, before using what it found (see CheckedFolder.recheck). */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `real` (the gate's path for `input`) for a search. `readsContent`: false when only names are listed (find), so
 * a single file needs no opening. A missing path is "Path not found"; a FIFO or a device searched for content is refused.
 */
export async function openSearchTarget(paths: WorkspacePaths, input: string, real: string, readsContent: boolean): Promise<SearchTarget> {
  const info = await lstat(real).catch(() => undefined);
  if (!info) throw new Error(`Path not found: ${real}`);
  if (info.isDirectory()) {
    const folder = await openFolder(paths, input, real, "read");
    return {
      isDirectory: true,
      cwd: folder.path,
      path: ".",
      realOf: (printed) => join(real, printed),
      recheck: () => folder.recheck(),
      close: () => folder.close(),
    };
  }
  if (info.isSymbolicLink()) {
    // The gate gave a real path: a link here appeared after the check (rg would follow it).
    throw new WorkspaceEscapeError(`Refused "${input}": it was replaced by a symbolic link after the check.`);
  }
  const noop = async () => {};
  if (!readsContent) return { isDirectory: false, cwd: dirname(real), path: real, realOf: (printed) => printed, recheck: noop, close: noop };
  const { handle } = await openFileForReading(paths, input, real);
  return {
    isDirectory: false,
    cwd: paths.root, // rg reads only its standard input
    path: "-",
    stdin: handle.fd,
    realOf: () => real,
    recheck: noop,
    close: () => handle.close(),
  };
}
