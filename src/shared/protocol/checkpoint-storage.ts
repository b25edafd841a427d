/**
 * The checkpoint store as Settings show it (issue 24 §1): how much it holds against its limit, and what main last
 * dropped to stay under it. Types and the drop report's wording only; main's side is main/checkpoints/.
 */
import { Type, type Static } from "typebox";

/** What main dropped once: the oldest checkpoints of some chats, to stay under the limit, or everything on request. */
export const CheckpointDropReportSchema = Type.Object(
  {
    /** When (ms since the epoch). */
    at: Type.Number(),
    /** "limit": the storage limit; "clear": the user's "Clear all checkpoints". */
    reason: Type.Union([Type.Literal("limit"), Type.Literal("clear")]),
    /** How many chats lost checkpoints, and how many checkpoints in all. */
    chats: Type.Integer({ minimum: 0 }),
    checkpoints: Type.Integer({ minimum: 0 }),
    /** Bytes the store gave back. */
    freedBytes: Type.Number({ minimum: 0 }),
    /** The limit at the time. */
    limitBytes: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type CheckpointDropReport = Static<typeof CheckpointDropReportSchema>;

export interface CheckpointStorageStatus {
  /** Bytes the store holds now (its stored copies). */
  bytes: number;
  /** Settings' storage limit, in bytes. */
  limitBytes: number;
  /** The last time main dropped checkpoints (absent: never). */
  lastDrop?: CheckpointDropReport;
  /** A clean-up that failed, in words (absent: none did). */
  problem?: string;
}

/** "2 GB", "350 MB", "12 KB": sizes as Settings say them (1 GB = 1,024 MB). */
export function formatStorageSize(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 100 || Number.isInteger(value) ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, "");
  return `${shown} ${units[unit]}`;
}

/** "Dropped the oldest checkpoints of 3 chats to stay under 2 GB" (the page adds the date). */
export function dropReportText(report: CheckpointDropReport): string {
  if (report.reason === "clear") return `Cleared all checkpoints (${formatStorageSize(report.freedBytes)} freed)`;
  const chats = report.chats === 1 ? "1 chat" : `${report.chats} chats`;
  return `Dropped the oldest checkpoints of ${chats} to stay under ${formatStorageSize(report.limitBytes)}`;
}
