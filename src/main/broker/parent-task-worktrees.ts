/**
 * A parent chat's `worktree` tool, main's side (MainControlApi.taskWorktree): the worktree of one of the chat's own
 * isolated subagent tasks is described, applied, kept or discarded through TaskWorktrees. Main checks first that the
 * task is a child of the very session that asks (its recorded launch names the parent) and that it worked in a
 * worktree: a worker runs model output, so a session id it names is never trusted to be its own task. The answers
 * are sentences for the parent model; a refusal (another chat's task, a conflict with the workspace) changes nothing.
 */
import type { RecordedLaunch } from "./child-launch";
import { TaskWorktrees } from "./task-worktrees";
import type { ApplyResult } from "../../shared-node/git-worktrees/worktree-apply";
import type { TaskWorktreeAnswer, TaskWorktreeRequest } from "../../shared/protocol/control-protocol";

/** Files named one by one in an answer; the rest are counted. */
const FILES_NAMED = 50;

export class ParentTaskWorktrees {
  private readonly tasks: TaskWorktrees;

  constructor(private readonly launchOf: (sessionId: string) => RecordedLaunch | undefined) {
    this.tasks = new TaskWorktrees(launchOf);
  }

  /** Does what `request` asks of the task's worktree, for the session `callerId` only. Never rejects. */
  async run(callerId: string, request: TaskWorktreeRequest): Promise<TaskWorktreeAnswer> {
    const launch = this.launchOf(request.sessionId)?.launch;
    if (!launch || launch.setup.parentSessionId !== callerId) {
      return refused(`${request.sessionId} is not a subagent task of this chat.`);
    }
    const worktree = launch.worktree;
    if (!worktree) return refused(`The ${launch.setup.agent} subagent (${request.sessionId}) did not work in a worktree of its own: its changes are already in the workspace.`);
    const which = `the ${launch.setup.agent} subagent's worktree (branch ${worktree.branch})`;
    try {
      switch (request.action) {
        case "describe": {
          const changes = await this.tasks.changes(request.sessionId);
          if (changes.files.length === 0) return { ok: true, text: `${capital(which)} has no changes.` };
          const names = changes.files.slice(0, FILES_NAMED).map((f) => (f.oldPath ? `${f.oldPath} → ${f.path}` : f.path));
          return { ok: true, text: `${capital(which)}: ${count(changes.files.length)} changed, +${changes.added} −${changes.removed}: ${listed(names, changes.files.length)}` };
        }
        case "apply":
          return applied(which, await this.tasks.apply(request.sessionId, { merge: request.merge === true }));
        case "keep": {
          const kept = await this.tasks.keep(request.sessionId);
          return { ok: true, text: `Kept ${which}: the worktree was removed and branch ${kept.branch} (commit ${kept.commit.slice(0, 12)}) keeps its changes, not in the workspace.` };
        }
        case "discard":
          await this.tasks.discard(request.sessionId);
          return { ok: true, text: `Discarded ${which}: the worktree and branch ${worktree.branch} were deleted; its changes are gone.` };
      }
    } catch (error) {
      return refused(`${capital(which)} could not be used: ${(error as Error).message}`);
    }
  }
}

function applied(which: string, result: ApplyResult): TaskWorktreeAnswer {
  if (!result.applied) {
    const files = result.conflicts.map((c) => `- ${c.path}: ${c.reason}`);
    return refused([`Nothing was applied from ${which}: the workspace changed ${count(result.conflicts.length)} the task also changed. ${result.message}`, ...files, 'Call again with merge: true to merge them three ways, or leave the changes on the branch.'].join("\n"));
  }
  if (result.files.length === 0) return { ok: true, text: `Applied ${which}: nothing to bring over${result.alreadyThere.length > 0 ? ` (the workspace already had ${listed(result.alreadyThere, result.alreadyThere.length)})` : ""}.` };
  const lines = [`Applied ${which} to the workspace, as uncommitted changes: ${count(result.files.length)}: ${listed(result.files, result.files.length)}.`];
  if (result.merged.length > 0) lines.push(`Merged three ways: ${listed(result.merged, result.merged.length)}.`);
  if (result.withConflictMarkers.length > 0) lines.push(`With conflict markers to resolve: ${listed(result.withConflictMarkers, result.withConflictMarkers.length)}.`);
  if (result.alreadyThere.length > 0) lines.push(`Already in the workspace: ${listed(result.alreadyThere, result.alreadyThere.length)}.`);
  lines.push(`The worktree and its branch stay until kept or discarded.`);
  return { ok: true, text: lines.join("\n") };
}

function refused(text: string): TaskWorktreeAnswer {
  return { ok: false, text };
}

function count(files: number): string {
  return files === 1 ? "1 file" : `${files} files`;
}

function listed(names: readonly string[], total: number): string {
  const shown = names.slice(0, FILES_NAMED).join(", ");
  return total > FILES_NAMED ? `${shown} and ${total - FILES_NAMED} more` : shown;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
