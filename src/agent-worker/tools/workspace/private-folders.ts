import { realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { DEFAULT_DENY_READ } from "./sandbox";

/** A folder neither the file tools nor commands may read, and what it is (for the refusal's words). */
export interface PrivateFolder {
  path: string;
  /** Completes "<path> …": "holds credentials", "is Paddock's data folder (keys, settings, other chats)". */
  what: string;
}

/**
 * What the file tools and the sandbox's commands may not read: one list for both. The tools may not write there
 * either; `allowRead` only lets them (and commands) read inside.
 */
export interface PrivateFolders {
  deny: PrivateFolder[];
  /** Folders inside a denied one that may be read after all: the chat's own session folder, skills in the data folder. */
  allowRead: string[];
}

/**
 * The credential stores in the home folder (the sandbox's DEFAULT_DENY_READ), plus the app's data folder when there
 * is one, except the chat's own session folder inside it (its saved command output is read back with `read`).
 */
export function privateFolders(where: { dataDir?: string; sessionDir?: string; skillFolders?: readonly string[] } = {}): PrivateFolders {
  // A listed skill in the data folder (`<dataDir>/skills/<name>`) may be read, by the tools and by commands; only
  // below `<dataDir>/skills`, so no listing can open the rest of the data folder.
  // Skill folders come as real paths: matched against the data folder as given and as its real path.
  const homes = where.dataDir === undefined ? [] : [...new Set([where.dataDir, realPathOr(where.dataDir)])].map((dir) => join(dir, "skills"));
  const skills = (where.skillFolders ?? []).filter((folder) => homes.some((home) => folder === home || folder.startsWith(home + sep)));
  return {
    deny: [
      ...DEFAULT_DENY_READ.map((path) => ({ path, what: "holds credentials" })),
      ...(where.dataDir ? [{ path: where.dataDir, what: "is Paddock's data folder (keys, settings, other chats)" }] : []),
    ],
    allowRead: [...(where.sessionDir ? [where.sessionDir] : []), ...skills],
  };
}

function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
