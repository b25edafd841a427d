/**
 * A marker in the chat where the user took files back (issue 24 §3: a revert, a rewind or a redo from the changes
 * view): a message of its own kind (`role: "filesRestored"`), so the page shows it as a small marker (not as a message
 * of the user's) and the model is told in its next request which files changed under it, so it does not go on from a
 * stale picture of them (`filesRestoredForModel`, sent as a note in the context).
 */

export interface FilesRestoredMessage {
  role: "filesRestored";
  /** What the user did: took changes back (a turn, a file, a hunk), rewound to a message, or redid what one took away. */
  action: "revert" | "rewind" | "redo";
  /** The workspace-relative paths it wrote or removed. */
  paths: string[];
  timestamp: number;
}

declare module "./types" {
  interface CustomAgentMessages {
    filesRestored: FilesRestoredMessage;
  }
}

/** The most paths the note names; the rest are counted. */
const MAX_NAMED = 50;

/** The note the model gets in its context where the marker is. */
export function filesRestoredForModel(message: FilesRestoredMessage): string {
  const named = message.paths.slice(0, MAX_NAMED);
  const more = message.paths.length - named.length;
  const what = message.action === "redo" ? "brought back changes it had taken back" : message.action === "rewind" ? "rewound the workspace's files" : "took changes back";
  return (
    `[Paddock: the user ${what}; these files in the workspace are not as you last saw them: ${named.join(", ")}` +
    `${more > 0 ? ` and ${more} more` : ""}. Read a file again before relying on its content.]`
  );
}
