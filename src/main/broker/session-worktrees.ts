/**
 * Worktrees of sessions, main's side of the worktree AppApi calls (shared/protocol/worktrees.ts): "New chat in a
 * worktree" (the chat's record keeps its worktree, in the session index), and a subagent task's worktree (its launch
 * keeps it; `TaskWorktrees`). Every worktree is found from the session index only: never a path or branch a page or
 * a worker names. Also the clean-up: a purged chat's worktree ends with it, and at start the leftovers of chats that
 * are gone are pruned.
 */
import { existsSync } from "node:fs";
import type { SessionIndex, SessionRecord } from "./session-index";
import { recordedLaunch } from "./child-launch";
import { TaskWorktrees } from "./task-worktrees";
import { runGit, type GitOptions } from "../../shared-node/git-worktrees/git-command";
import { probeRepository } from "../../shared-node/git-worktrees/repository";
import { createWorktree, discardWorktree, keepBranch, prunePaddockWorktrees, type Worktree } from "../../shared-node/git-worktrees/worktree-lifecycle";
import { worktreeChanges } from "../../shared-node/git-worktrees/worktree-changes";
import { applyToWorkspace } from "../../shared-node/git-worktrees/worktree-apply";
import type { WorktreeApplyOutcome, WorktreeChangesSummary, WorktreeKept, WorktreeOffer, WorktreeStatus } from "../../shared/protocol/worktrees";

export interface SessionWorktreesOptions {
  index: SessionIndex;
  /** `<data folder>-worktrees` (core.ts says why there). */
  worktreesDir: string;
  /** git's environment (tests); default: the process's. */
  git?: GitOptions;
}

/** Which worktree a session works in, and whether it is a chat's (its record) or a subagent task's (its launch). */
interface Found {
  worktree: Worktree;
  chat: boolean;
}

export class SessionWorktrees {
  private readonly tasks: TaskWorktrees;

  constructor(private readonly options: SessionWorktreesOptions) {
    this.tasks = new TaskWorktrees((id) => recordedLaunch(options.index.get(id)));
  }

  private get git(): GitOptions {
    return this.options.git ?? {};
  }

  /** Whether a worktree chat can be made of `folder`: its repository, or why not (no git, not a repository…). */
  async offer(folder: string): Promise<WorktreeOffer> {
    const probe = await probeRepository(folder, this.git);
    if (!probe.ok) return { ok: false, reason: probe.message };
    return { ok: true, repositoryRoot: probe.repository.root, ...(probe.repository.branch ? { branch: probe.repository.branch } : {}) };
  }

  /** A branch `paddock/<title>` and its worktree, from `folder`'s repository's last commit. */
  create(folder: string, title: string): Promise<Worktree> {
    return createWorktree({ ...this.git, workspace: folder, dataFolder: this.options.worktreesDir, title });
  }

  /** The live session's worktree; throws in words when it has none (any more). */
  private find(sessionId: string): Found {
    const record = this.options.index.get(sessionId);
    if (!record || record.deleted !== undefined) throw new Error("No such chat");
    if (record.parent) return { worktree: this.tasks.worktreeOf(sessionId), chat: false };
    if (!record.worktree) throw new Error("This chat does not work in a worktree.");
    return { worktree: record.worktree, chat: true };
  }

  async changes(sessionId: string): Promise<WorktreeChangesSummary> {
    const { worktree } = this.find(sessionId);
    if (!existsSync(worktree.path)) throw new Error(`The worktree of ${worktree.branch} is gone: its branch was kept or discarded.`);
    const changes = await worktreeChanges(worktree, this.git);
    return { branch: worktree.branch, repositoryRoot: worktree.repositoryRoot, files: changes.files, added: changes.added, removed: changes.removed };
  }

  /** Still there (its folder), else kept (its branch is) or discarded. */
  async status(sessionId: string): Promise<WorktreeStatus> {
    const { worktree } = this.find(sessionId);
    if (existsSync(worktree.path)) return "open";
    const branch = await runGit(["rev-parse", "--verify", "--quiet", `refs/heads/${worktree.branch}`], { ...this.git, cwd: worktree.repositoryRoot, okCodes: [1] });
    return branch.code === 0 ? "kept" : "discarded";
  }

  async apply(sessionId: string, merge: boolean): Promise<WorktreeApplyOutcome> {
    return applyToWorkspace(this.find(sessionId).worktree, { ...this.git, merge });
  }

  /**
   * Keeps the branch and ends the worktree. A chat's record forgets it and the chat has no workspace from then on
   * (`ended` tells the caller to tell the chat's worker); never the user's own tree in its place.
   */
  async keep(sessionId: string): Promise<WorktreeKept & { ended?: "chat" }> {
    const { worktree, chat } = this.find(sessionId);
    const record = this.options.index.get(sessionId)!;
    const message = chat ? `Changes made in the Paddock chat "${record.title}"` : `Changes made by the ${record.parent!.agent} subagent in Paddock`;
    const kept = await keepBranch(worktree, message, this.git);
    if (chat) this.forget(sessionId);
    return { ...kept, ...(chat ? { ended: "chat" as const } : {}) };
  }

  async discard(sessionId: string): Promise<{ ended?: "chat" }> {
    const { worktree, chat } = this.find(sessionId);
    await discardWorktree(worktree, this.git);
    if (chat) this.forget(sessionId);
    return chat ? { ended: "chat" } : {};
  }

  private forget(sessionId: string): void {
    this.options.index.update(sessionId, { worktree: undefined, workspace: undefined });
  }

  /**
   * A purged chat's worktree ends with it: discarded when the agent changed nothing in it, else its branch is kept
   * with the changes committed on it. Resolves a sentence for the user when a branch was kept (or it failed).
   */
  async endWithChat(record: SessionRecord): Promise<string | undefined> {
    const worktree = record.worktree;
    if (!worktree) return undefined;
    try {
      const changed = existsSync(worktree.path) ? (await worktreeChanges(worktree, this.git)).files.length > 0 : true;
      if (!changed) {
        await discardWorktree(worktree, this.git);
        return undefined;
      }
      const kept = await keepBranch(worktree, `Changes made in the Paddock chat "${record.title}"`, this.git);
      return `The deleted chat "${record.title}" worked in a worktree: it was removed, and its branch ${kept.branch} in ${worktree.repositoryRoot} keeps its changes.`;
    } catch (error) {
      return `The worktree of the deleted chat "${record.title}" (${worktree.path}) could not be removed: ${(error as Error).message}`;
    }
  }

  /**
   * At start: in every repository a session's worktree came from, Paddock's worktrees that no chat or task in the
   * index uses (a crash's leftovers, a chat purged while Paddock stopped) end with their branch kept. Resolves a
   * sentence for each branch kept or repository that failed.
   */
  async pruneLeftovers(): Promise<string[]> {
    const inUse = new Set<string>();
    const repositories = new Set<string>();
    for (const record of this.options.index.all()) {
      const worktree = record.worktree ?? recordedLaunch(record)?.launch.worktree;
      if (!worktree) continue;
      repositories.add(worktree.repositoryRoot);
      if (existsSync(worktree.path)) inUse.add(worktree.path);
    }
    const said: string[] = [];
    for (const repository of repositories) {
      if (!existsSync(repository)) continue;
      try {
        for (const kept of await prunePaddockWorktrees(repository, this.options.worktreesDir, inUse, this.git)) {
          said.push(`A Paddock worktree no chat uses any more was removed; its branch ${kept.branch} in ${repository} keeps its work.`);
        }
      } catch (error) {
        said.push(`Paddock's worktrees of ${repository} could not be cleaned up: ${(error as Error).message}`);
      }
    }
    return said;
  }
}
