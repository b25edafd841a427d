/**
 * The composer's `@` completion: a chat's workspace files and folders offered as the user types, and the one chosen
 * attached to the message (the worker reads it: workspace-files.ts there). Pages import this module: no typebox.
 */

/** A file or folder of the workspace, by its path relative to the workspace ("/" separators; a folder without a trailing "/"). */
export interface WorkspaceEntry {
  path: string;
  kind: "file" | "folder";
}

/** What `listWorkspaceFiles` answers: the best matches, best first. */
export interface WorkspaceFileMatches {
  entries: WorkspaceEntry[];
  /** Files the listing holds (ignored files, `.git` and private folders left out). */
  files: number;
  /** The workspace has more files than are listed (MAX_LISTED_FILES): some are not offered. */
  truncated: boolean;
}

/** Most matches one call answers (the menu shows a screenful; more typing narrows it). */
export const MAX_FILE_MATCHES = 50;
/** Most files a workspace's listing holds (ripgrep's walk stops there). */
export const MAX_LISTED_FILES = 200_000;
/** Most lines of a folder attached as its listing. */
export const MAX_FOLDER_LISTING_LINES = 2_000;
/** Longest query (a path). */
export const MAX_FILE_QUERY_CHARS = 1_000;
