/**
 * Folders a chat should not work in without the user insisting: the home folder itself, and any folder holding
 * Paddock's own data folder. The file tools and the sandbox keep out of the data folder and credential folders
 * whatever the workspace; this is the question before that, asked once, when the folder is chosen: an agent given the
 * home folder has every project and key in reach of its questions, and one given a folder around Paddock's data
 * works next to the settings, keys and chats that decide what it may do.
 *
 * Judged by real paths (symlinks resolved, on both sides), so no spelling of the same folder gets past it.
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";

export interface GuardedPlaces {
  /** The user's home folder (`os.homedir()`). */
  home: string;
  /** Paddock's data folder: settings, keys, chats. */
  dataDir: string;
}

/**
 * A typed folder's `~` as the user's home folder, as a shell reads it: `~` alone, or before a separator (`~/code/app`);
 * any other path unchanged (then checked like any). `~name` (another user's home) is refused with the reason. The
 * result goes through the same checks as a path typed in full, this guard's question included (`~` is the home folder).
 */
export function expandHome(folder: string, home: string): string {
  if (folder === "~") return home;
  if (/^~[\\/]/.test(folder)) return join(home, folder.slice(2));
  if (folder.startsWith("~")) {
    throw new Error(`${folder.split(/[\\/]/)[0]}: only your own home folder can be written as ~ (~/code/app); give other folders in full`);
  }
  return folder;
}

export const HOME_FOLDER_REASON = "Your home folder holds your keys and every project: choose a project folder.";
export const DATA_FOLDER_REASON = "This folder holds Paddock's own data (settings, keys, chats): an agent working here could read or change them.";

/**
 * Why `folder` (a real path, as `checkWorkspace` returns it) should not be a workspace unless the user insists, in
 * words; undefined when nothing speaks against it.
 */
export async function workspaceRefusal(folder: string, places: GuardedPlaces): Promise<string | undefined> {
  const [home, data] = await Promise.all([realOrResolved(places.home), realOrResolved(places.dataDir)]);
  if (folder === home) return HOME_FOLDER_REASON; // it holds the data folder too, usually: this says more
  if (contains(folder, data)) return DATA_FOLDER_REASON;
  return undefined;
}

/** Whether `inner` is `outer` or lies inside it. */
function contains(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** A folder's real path; one that does not exist (yet) as it is spelled, made absolute. */
async function realOrResolved(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}
