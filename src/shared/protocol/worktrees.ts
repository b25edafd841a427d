/**
 * Worktrees as pages see them (issue 24 §4): a chat that works in a git worktree of its own ("New chat in a
 * worktree"), and a subagent task run with `isolation: worktree`. Main does all of the git (shared-node/git-worktrees);
 * pages name a session only, never a path or a branch, and get plain data back.
 */
import { Type, type Static } from "typebox";
import type { SessionSummary } from "./session-summary";

/**
 * A worktree Paddock made, as the session index keeps it: for a chat in its record (`worktree`), for a subagent's
 * task in its launch (main/broker/child-launch.ts). Paths are real paths. Declared once here; shared-node's
 * `Worktree` has the same shape.
 */
export const WorktreeRecordSchema = Type.Object({
  /** The user's checkout the worktree was made from: where its changes are applied. */
  repositoryRoot: Type.String({ minLength: 1 }),
  /** The worktree's own top folder, under `<data folder>-worktrees`. */
  path: Type.String({ minLength: 1 }),
  /** Where the agent works: the worktree's counterpart of the user's workspace folder. */
  folder: Type.String({ minLength: 1 }),
  /** `paddock/…` */
  branch: Type.String({ minLength: 1 }),
  base: Type.String({ minLength: 1 }),
  startedFrom: Type.String({ minLength: 1 }),
  carried: Type.Boolean(),
});
export type WorktreeRecord = Static<typeof WorktreeRecordSchema>;

/** Whether "New chat in a worktree" can be offered for a folder: its repository, or why not in words. */
export type WorktreeOffer = { ok: true; repositoryRoot: string; branch?: string } | { ok: false; reason: string };

export interface WorktreeChangedFile {
  path: string;
  oldPath?: string;
  status: "added" | "modified" | "deleted" | "renamed" | "type-changed";
  added: number;
  removed: number;
  binary: boolean;
}

/** What the agent changed in its worktree against the commit it started from. */
export interface WorktreeChangesSummary {
  branch: string;
  repositoryRoot: string;
  files: WorktreeChangedFile[];
  added: number;
  removed: number;
}

/** "Apply to workspace": done (which files), or refused with each conflicting file named and why. */
export type WorktreeApplyOutcome =
  | { applied: true; files: string[]; merged: string[]; withConflictMarkers: string[]; alreadyThere: string[] }
  | { applied: false; conflicts: { path: string; reason: string; workspaceDiff: string }[]; message: string };

/** "Keep branch": the worktree folder is gone, the branch stays with everything the worktree held committed on it. */
export interface WorktreeKept {
  branch: string;
  commit: string;
  committed: boolean;
}

/** Where a worktree stands: still there, or ended with its branch kept, or discarded (worktree and branch gone). */
export type WorktreeStatus = "open" | "kept" | "discarded";

/**
 * The AppApi calls for worktrees (app-api.ts extends this). `sessionId` is a worktree chat's id, or a subagent
 * session's (the task's `childSessionId`) for an isolated task: main finds the worktree in the session index only.
 */
export interface WorktreeApi {
  /** Whether `folder` (a chat's chosen workspace) can have a worktree chat; never rejects for git's sake. */
  worktreeOffer(folder: string): Promise<WorktreeOffer>;
  /**
   * "New chat in a worktree": main makes a `paddock/…` branch and a worktree of `folder`'s repository (from its last
   * commit) and a new chat whose workspace is the worktree's counterpart of `folder`. A folder main would not set
   * without the user insisting is refused as `setWorkspace` refuses it (the `refused` answer).
   */
  createWorktreeChat(folder: string, insist?: boolean): Promise<SessionSummary | { refused: { folder: string; reason: string } }>;
  worktreeChanges(sessionId: string): Promise<WorktreeChangesSummary>;
  /** Whether the session's worktree is still there (a task's card after a restart asks before offering its actions). */
  worktreeStatus(sessionId: string): Promise<WorktreeStatus>;
  /** Brings the changes into the workspace as uncommitted changes, all or nothing; `merge`: three-way where both changed. */
  applyWorktree(sessionId: string, merge: boolean): Promise<WorktreeApplyOutcome>;
  /** Ends the worktree and keeps its branch (a chat then has no workspace). */
  keepWorktreeBranch(sessionId: string): Promise<WorktreeKept>;
  /** Ends the worktree and deletes its branch (a chat then has no workspace). */
  discardWorktree(sessionId: string): Promise<void>;
}
