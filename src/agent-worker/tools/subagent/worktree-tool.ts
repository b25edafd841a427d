/**
 * The `worktree` tool of a chat that may run subagents: what to do with an isolated task's worktree once the task
 * is over (issue 24 §4: the parent applies one, several or none). Main does it (MainControlApi.taskWorktree), for
 * this chat's own tasks only; the chat's approval gate asks the user first, showing what the worktree holds
 * (parent-role.ts), since applying changes the workspace and discarding loses the task's work.
 */
import { Type, type TSchema } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";
import type { AgentTool } from "../../../shared/agent/types";
import { ToolFailure } from "../../../shared/agent/tool-failure";
import type { TaskWorktreeAnswer, TaskWorktreeRequest } from "../../../shared/protocol/control-protocol";

export type WorktreeAction = "apply" | "keep" | "discard";

// pi-ai's StringEnum, as the subagent tool's: Google's API refuses a union of consts.
const ActionSchema = Type.Unsafe<WorktreeAction>(
  StringEnum(["apply", "keep", "discard"] as const, {
    description:
      '"apply": bring the task\'s changes into the workspace as uncommitted changes (all or nothing; refused, naming the files, where the workspace changed the same files). "keep": remove the worktree and keep its branch, with the changes committed on it, for the user. "discard": remove the worktree and delete its branch (its changes are lost).',
  }) as TSchema,
);

export const worktreeParameters = Type.Object({
  action: ActionSchema,
  sessionId: Type.String({ description: 'The task\'s session id, as the subagent result names it (call the worktree tool with sessionId "…").' }),
  merge: Type.Optional(
    Type.Boolean({ description: "apply only: merge files the workspace also changed three ways instead of refusing (overlaps get conflict markers). Default: false." }),
  ),
});

export const WORKTREE_TOOL_DESCRIPTION = [
  "Apply, keep or discard the git worktree of a subagent task that ran with isolation: worktree.",
  "Its changes are on the task's branch, not in the workspace, until applied; apply several tasks one after another.",
  "The user is asked first. The worktree stays after apply until kept or discarded.",
].join(" ");

/** What the tool needs of main. */
export type TaskWorktreeCall = (request: TaskWorktreeRequest) => Promise<TaskWorktreeAnswer>;

export function worktreeTool(call: TaskWorktreeCall): AgentTool<typeof worktreeParameters, { action: WorktreeAction; sessionId: string; ok: boolean }> {
  return {
    name: "worktree",
    label: "Worktree",
    description: WORKTREE_TOOL_DESCRIPTION,
    parameters: worktreeParameters,
    // Two applies to one workspace are queued in main anyway; one after another reads better in the chat.
    executionMode: "sequential",
    async execute(_toolCallId, params) {
      const request: TaskWorktreeRequest = { action: params.action, sessionId: params.sessionId, ...(params.action === "apply" && params.merge === true ? { merge: true } : {}) };
      const answer = await call(request);
      if (!answer.ok) throw new ToolFailure(answer.text, { action: params.action, sessionId: params.sessionId, ok: false });
      return { content: [{ type: "text", text: answer.text }], details: { action: params.action, sessionId: params.sessionId, ok: true } };
    },
  };
}

/** The approval question's line for a call: what would be done, and what the worktree holds (`described`, main's words). */
export function worktreeQuestion(action: WorktreeAction, merge: boolean, described: string): string {
  const what =
    action === "apply"
      ? `Apply a subagent task's changes to the workspace${merge ? " (merging files the workspace also changed)" : ""}`
      : action === "keep"
        ? "Remove a subagent task's worktree and keep its branch"
        : "Discard a subagent task's worktree and branch (its changes are lost)";
  return `${what}. ${described}`;
}
