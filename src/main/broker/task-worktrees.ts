/**
 * What can be done with an isolated subagent task's worktree once the task is over (`isolation: worktree`): its
 * changes and a file's diff, apply them to the workspace, keep the branch, or discard it. The worktree is the one
 * main recorded in the child's launch (child-launch.ts, in the session index): never a path or branch a worker or a
 * page names, so nothing here can be pointed at another folder or branch.
 *
 * The AppApi's worktree calls reach it through session-worktrees.ts, for a subagent's session id.
 */
import type { RecordedLaunch } from "./child-launch";
import type { Worktree } from "../../shared-node/git-worktrees/worktree-lifecycle";
import { discardWorktree, keepBranch, type KeptBranch } from "../../shared-node/git-worktrees/worktree-lifecycle";
import { worktreeChanges, worktreeFileDiff, type ChangedFile, type WorktreeChanges } from "../../shared-node/git-worktrees/worktree-changes";
import { applyToWorkspace, type ApplyResult } from "../../shared-node/git-worktrees/worktree-apply";

export class TaskWorktrees {
  constructor(private readonly launchOf: (sessionId: string) => RecordedLaunch | undefined) {}

  /** The worktree the subagent session `childId` worked in; throws, in words, for one that had none. */
  worktreeOf(childId: string): Worktree {
    const worktree = this.launchOf(childId)?.launch.worktree;
    if (!worktree) throw new Error("This subagent did not work in a worktree of its own.");
    return worktree;
  }

  async changes(childId: string): Promise<WorktreeChanges> {
    return worktreeChanges(this.worktreeOf(childId));
  }

  async fileDiff(childId: string, file: Pick<ChangedFile, "path" | "oldPath">, state?: string): Promise<string> {
    return worktreeFileDiff(this.worktreeOf(childId), file, state);
  }

  /** Brings the task's changes into the workspace as uncommitted changes, all or nothing (see worktree-apply.ts). */
  async apply(childId: string, options: { merge?: boolean } = {}): Promise<ApplyResult> {
    return applyToWorkspace(this.worktreeOf(childId), { merge: options.merge === true });
  }

  /** Ends the worktree, its changes committed on its branch, which stays for the user's own tools. */
  async keep(childId: string): Promise<KeptBranch> {
    const worktree = this.worktreeOf(childId);
    return keepBranch(worktree, `Changes made by the ${this.launchOf(childId)!.launch.setup.agent} subagent in Paddock`);
  }

  /** Ends the worktree and deletes its branch. */
  async discard(childId: string): Promise<void> {
    return discardWorktree(this.worktreeOf(childId));
  }
}
