/**
 * The transcript's `workspace-checkpoint` record (issue 24): the chat recorded its workspace's state (a checkpoint of
 * the checkpoint store, shared-node/checkpoints/), and why: a run starting, a tool call that can change files, or a
 * revert, rewind or redo of the user's. Replayed in order they are the chat's timeline of its workspace, so the
 * changes view, its authors and Redo survive a restart. Not to be confused with a streaming reply's checkpoints
 * (`partial` records): those save a reply, these a folder.
 */
import type { ChangeAuthor } from "../../shared/protocol/changes";
import { isRecord } from "../../shared/is-record";

export interface WorkspaceCheckpoint {
  /** The store's checkpoint id. */
  id: string;
  /** The workspace folder it is a state of (a chat may change folders). */
  workspace: string;
  /** How many messages the chat's active path had when it was taken: message `at` and later came after it. */
  at: number;
  /**
   * A run starting (its first message is `at`), a tool call, the user's revert / rewind / redo, or changes made outside
   * the chat found just before such a takeback (recorded first, so the takeback cannot make them look like the chat's).
   */
  cause: "run" | "tool" | "revert" | "outside";
  /** The call that made the changes since the previous checkpoint (absent for a run's start). */
  by?: ChangeAuthor;
  /** A revert's: its action id (for redo), the checkpoint it took the workspace away from, and the paths it touched. */
  action?: { id: string; before: string; paths: string[] };
}

export type WorkspaceCheckpointRecord = { t: "workspace-checkpoint" } & WorkspaceCheckpoint;

const CAUSES = ["run", "tool", "revert", "outside"];
const AUTHOR_KINDS = ["tool", "subagent", "revert"];

function isAuthor(value: unknown): value is ChangeAuthor {
  return (
    isRecord(value) &&
    AUTHOR_KINDS.includes(value.kind as string) &&
    typeof value.id === "string" &&
    typeof value.name === "string" &&
    (value.label === undefined || typeof value.label === "string")
  );
}

/** The record in `value` (only its known fields), or what is wrong with it. */
export function parseWorkspaceCheckpointRecord(value: Record<string, unknown>): WorkspaceCheckpointRecord | string {
  if (typeof value.id !== "string" || value.id === "") return "workspace-checkpoint record without an id";
  if (typeof value.workspace !== "string") return "workspace-checkpoint record without a workspace";
  if (!Number.isInteger(value.at) || (value.at as number) < 0) return "workspace-checkpoint record without a valid message count";
  if (!CAUSES.includes(value.cause as string)) return "workspace-checkpoint record with an unknown cause";
  if (value.by !== undefined && !isAuthor(value.by)) return "workspace-checkpoint record with an invalid author";
  const action = value.action;
  if (
    action !== undefined &&
    !(isRecord(action) && typeof action.id === "string" && typeof action.before === "string" && Array.isArray(action.paths) && action.paths.every((p) => typeof p === "string"))
  ) {
    return "workspace-checkpoint record with an invalid action";
  }
  const record: WorkspaceCheckpointRecord = {
    t: "workspace-checkpoint",
    id: value.id,
    workspace: value.workspace,
    at: value.at as number,
    cause: value.cause as WorkspaceCheckpoint["cause"],
  };
  if (value.by !== undefined) {
    const by = value.by as ChangeAuthor;
    record.by = { kind: by.kind, id: by.id, name: by.name, ...(by.label !== undefined ? { label: by.label } : {}) };
  }
  if (action !== undefined) {
    const a = action as { id: string; before: string; paths: string[] };
    record.action = { id: a.id, before: a.before, paths: [...a.paths] };
  }
  return record;
}
