/**
 * The transcript's records for branches (shared/agent/branches.ts). They carry indexes only, never messages: a
 * branch's versions are the message records already in the file, so editing, regenerating, switching and deleting
 * append a line of a few bytes and rewrite nothing. Replay runs the same pure functions as the Agent's reducer, so
 * a restarted worker comes back to the same active path and versions.
 */
import { branchPath, deleteFromPath, switchPath, type BranchedPath } from "../../shared/agent/branches";

export type BranchRecord =
  /** The active messages from `at` on became a stored version; what follows in the file is the new version. */
  | { t: "branch"; at: number }
  /** Version `version` of the branch point at `at` became the active one. */
  | { t: "switch"; at: number; version: number }
  /** `count` messages from `start` left the active path. */
  | { t: "delete"; start: number; count: number };

const index = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** The record in `value` (only its known fields), or what is wrong with it. */
export function parseBranchRecord(value: Record<string, unknown>): BranchRecord | string {
  switch (value.t) {
    case "branch":
      return index(value.at) ? { t: "branch", at: value.at } : "branch record without a valid index";
    case "switch":
      return index(value.at) && index(value.version) ? { t: "switch", at: value.at, version: value.version } : "switch record without a valid index and version";
    case "delete":
      return index(value.start) && index(value.count) && value.count > 0
        ? { t: "delete", start: value.start, count: value.count }
        : "delete record without a valid start and count";
    default:
      return `not a branch record: ${JSON.stringify(value.t)}`;
  }
}

/**
 * Applies a record to a transcript being replayed (mutating its `messages` and `branches`); returns what is wrong
 * when it does not fit the path (an index past its end, a version that does not exist), changing nothing then.
 */
export function applyBranchRecord(path: BranchedPath, record: BranchRecord): string | undefined {
  let next: BranchedPath;
  switch (record.t) {
    case "branch":
      if (record.at > path.messages.length) return `branch record at ${record.at}, past the ${path.messages.length} messages before it`;
      next = branchPath(path, record.at);
      break;
    case "switch":
      next = switchPath(path, record.at, record.version);
      if (next === path) return `switch record to version ${record.version} at ${record.at}, which the transcript does not have`;
      break;
    case "delete":
      next = deleteFromPath(path, record.start, record.count);
      if (next === path) return `delete record for ${record.count} messages from ${record.start}, past the ${path.messages.length} before it`;
      break;
  }
  path.messages = next.messages;
  path.branches = next.branches;
  return undefined;
}
