/**
 * The changes view's contract (issue 24 §2, §3): what a page gets about the files a chat's agent changed, and the
 * commands it calls to take changes back, rewind and redo. Served by the session's worker on the session channel,
 * next to `SessionApi` (session-protocol.ts); its own table of argument schemas, `CHANGES_METHOD_SCHEMAS`, which the
 * worker checks every call against, as it does `SESSION_METHOD_SCHEMAS`. Plain JSON-compatible data throughout.
 *
 * Changes are between two checkpoints (the workspace's recorded states, `CheckpointId`): a change set names the two
 * it was computed between, and a file diff or a revert names them again, so each acts on what the user was shown
 * even if the agent went on working meanwhile.
 */
import { Type } from "typebox";

/** A recorded state of the workspace (the checkpoint store's id). */
export type CheckpointId = string;
export const CHECKPOINT_ID_PATTERN = "^[A-Za-z0-9._:-]{1,200}$";
/** The longest workspace-relative path a command takes. */
export const MAX_CHANGE_PATH_CHARS = 4096;

/**
 * Where a change set starts: the chat's start, the latest turn's (its user message), or any user message's; for a chat
 * that works in a git worktree of its own, `base`: the commit the worktree was made at (the state "Apply to workspace"
 * measures from). Each of those ends at the latest checkpoint; `range` is a span recorded earlier, both ends given:
 * a scheduled run's, from before it to its end (schedules/schedule.ts `ScheduleRun.changes`), whatever came after.
 */
export type ChangesSince =
  | { kind: "chat" }
  | { kind: "turn" }
  | { kind: "message"; index: number }
  | { kind: "base" }
  | { kind: "range"; from: CheckpointId; to: CheckpointId };

/** The call that changed a file: a tool call, a subagent's whole task, or the user's own revert or rewind. */
export interface ChangeAuthor {
  kind: "tool" | "subagent" | "revert";
  /** The tool call's id (a subagent's: this chat's `subagent` call that ran it); a revert's action id. */
  id: string;
  /** The tool's name (`edit`, `bash`, an MCP tool's), the subagent's agent name, or "revert" / "rewind". */
  name: string;
  /** What the call did, in a line, as its card's title shows it: "edit src/app.ts", "npm run format". */
  label?: string;
}

export type ChangedFileStatus = "added" | "modified" | "deleted" | "renamed";

/** One file in a change set. */
export interface ChangedFile {
  /** Workspace-relative, "/" separated. */
  path: string;
  /** A renamed file's path at the start. */
  oldPath?: string;
  status: ChangedFileStatus;
  /** Lines added and removed (0 for binary and unkept files). */
  added: number;
  removed: number;
  /** A binary file: shown by its size, without hunks. */
  binary?: { size: number };
  /** Over the size limit: changed, and no copy kept (it cannot be shown or reverted). */
  tooLarge?: { size: number };
  /** A link, not a file: its target is what changed. */
  symlink?: boolean;
  /** Every call that changed it, in order, as indexes into the change set's `authors`. */
  authors: number[];
}

/** The files changed between two checkpoints. */
export interface ChangeSet {
  since: ChangesSince;
  from: CheckpointId;
  to: CheckpointId;
  /** Sorted by path. */
  files: ChangedFile[];
  /** The calls the files name, each once. */
  authors: ChangeAuthor[];
  /** Counts over `files`, as the summary line shows them ("3 files changed, +40 −12"). */
  totals: { files: number; added: number; removed: number };
  /** Why some changes may be missing (files `.gitignore` leaves out are not tracked; checkpoints are off here). */
  notes?: string[];
}

/** A hunk as `diff -u` shows it, with the calls that made it. */
export interface DiffHunk {
  /** "@@ -12,7 +12,9 @@" (1-based). */
  header: string;
  /** Each line with its sign (" ", "-", "+"), no line endings; "\ No newline at end of file" after a last line without one. */
  lines: string[];
  added: number;
  removed: number;
  /** The calls that made it, in order, as indexes into the file diff's `authors` (empty for a conflict's changes). */
  authors: number[];
}

/** One file's change between two checkpoints, hunk by hunk (its fields as a change set's file, its authors in full). */
export interface FileDiff extends Omit<ChangedFile, "authors"> {
  from: CheckpointId;
  to: CheckpointId;
  /** Empty for a binary or unkept file. */
  hunks: DiffHunk[];
  authors: ChangeAuthor[];
}

/** How to go on when a file changed outside the chat since the agent wrote it: write over it, or leave it be. */
export type ConflictAnswer = "overwrite" | "keep-mine";

/** A file changed outside since the agent wrote it. */
export interface ChangeConflict {
  path: string;
  /** What changed outside: the agent's version to the disk's now (what "show diff" shows); absent when binary or unkept. */
  hunks?: DiffHunk[];
}

/**
 * What a revert, rewind or redo did. Asked without an answer while any file it would write changed outside, it
 * writes nothing and lists the conflicts; asked again with an answer, it goes ahead. Done, it is recorded as a
 * change of its own (`actionId`, an author "revert"), so `redo(actionId)` takes it back.
 */
export type RevertResult =
  | { done: true; actionId: string; reverted: string[]; kept: string[]; noCopy: string[] }
  | { done: false; conflicts: ChangeConflict[] };

/** What a rewind restores: the files, the chat (the later messages kept as a version, as an edit does), or both. */
export type RewindScope = "files" | "chat" | "both";

const Checkpoint = Type.String({ pattern: CHECKPOINT_ID_PATTERN });
const Path = Type.String({ minLength: 1, maxLength: MAX_CHANGE_PATH_CHARS });
const Answer = Type.Union([Type.Literal("overwrite"), Type.Literal("keep-mine")]);
const MessageIndex = Type.Integer({ minimum: 0, maximum: 100_000_000 });
const ActionId = Type.String({ minLength: 1, maxLength: 200 });
const Hunk = Type.String({ minLength: 1, maxLength: 200 });
const Scope = Type.Union([Type.Literal("files"), Type.Literal("chat"), Type.Literal("both")]);
const Since = Type.Union([
  Type.Object({ kind: Type.Literal("chat") }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal("turn") }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal("base") }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal("message"), index: MessageIndex }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal("range"), from: Checkpoint, to: Checkpoint }, { additionalProperties: false }),
]);

/**
 * The changes view's argument lists, as the worker admits them. The commands themselves (their docs and signatures)
 * are declared with every other session command in session-protocol.ts's `SESSION_COMMANDS`, which uses these.
 */
export const CHANGES_ARGS = {
  listChanges: Type.Tuple([Since]),
  fileDiff: Type.Tuple([Checkpoint, Checkpoint, Path]),
  // Each revert with or without the trailing conflict answer.
  revertTurn: Type.Union([Type.Tuple([Checkpoint, Checkpoint]), Type.Tuple([Checkpoint, Checkpoint, Answer])]),
  revertFile: Type.Union([Type.Tuple([Checkpoint, Checkpoint, Path]), Type.Tuple([Checkpoint, Checkpoint, Path, Answer])]),
  revertHunk: Type.Union([Type.Tuple([Checkpoint, Checkpoint, Path, Hunk]), Type.Tuple([Checkpoint, Checkpoint, Path, Hunk, Answer])]),
  rewind: Type.Union([Type.Tuple([MessageIndex, Scope]), Type.Tuple([MessageIndex, Scope, Answer])]),
  redo: Type.Union([Type.Tuple([ActionId]), Type.Tuple([ActionId, Answer])]),
};

/** The field of a tool result's `details` that says what the call changed in the workspace (its card's ChangeStat). */
export const TOOL_FILE_CHANGES_FIELD = "fileChanges";

/** What one call changed: "3 files changed, +40 −12" (summary.ts's ChangeCounts). */
export interface ToolFileChanges {
  files: number;
  added: number;
  removed: number;
}

/** The changes a tool result's `details` carry, if any. */
export function toolFileChanges(details: unknown): ToolFileChanges | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const value = (details as Record<string, unknown>)[TOOL_FILE_CHANGES_FIELD];
  if (typeof value !== "object" || value === null) return undefined;
  const { files, added, removed } = value as Record<string, unknown>;
  return typeof files === "number" && typeof added === "number" && typeof removed === "number" ? { files, added, removed } : undefined;
}
