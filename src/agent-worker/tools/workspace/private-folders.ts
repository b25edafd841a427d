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
  /** Folders inside a denied one that may be read after all: the chat's own session folder. */
  allowRead: string[];
}

/**
 * The credential stores in the home folder (the sandbox's DEFAULT_DENY_READ), plus the app's data folder when there
 * is one, except the chat's own session folder inside it (its saved command output is read back with `read`).
 */
export function privateFolders(where: { dataDir?: string; sessionDir?: string } = {}): PrivateFolders {
  return {
    deny: [
      ...DEFAULT_DENY_READ.map((path) => ({ path, what: "holds credentials" })),
      ...(where.dataDir ? [{ path: where.dataDir, what: "is Paddock's data folder (keys, settings, other chats)" }] : []),
    ],
    allowRead: where.sessionDir ? [where.sessionDir] : [],
  };
}
