/**
 * The transcript's `compaction` record: a marker (shared/agent/compaction.ts) as it is journaled, checked field by
 * field when read back, so a damaged record is skipped and reported rather than loaded as a marker that would make
 * the model lose messages.
 */
import type { Usage } from "@earendil-works/pi-ai";
import type { CompactionMessage, CompactionReason } from "../../shared/agent/compaction";

/** `{t: "compaction", ...the marker but its role}`; replayed as the marker joining the messages. */
export type CompactionRecord = { t: "compaction" } & Omit<CompactionMessage, "role">;

const REASONS: readonly CompactionReason[] = ["threshold", "overflow", "manual"];

/** The record for a marker. */
export function compactionRecord(marker: CompactionMessage): CompactionRecord {
  const { role: _role, ...fields } = marker;
  return { t: "compaction", ...fields };
}

/** The record in `value` (only its known fields), or what is wrong with it. */
export function parseCompactionRecord(value: Record<string, unknown>): CompactionRecord | string {
  const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
  if (typeof value.summary !== "string" || value.summary === "") return "compaction record without a summary";
  if (!count(value.firstKeptIndex)) return "compaction record without a valid firstKeptIndex";
  if (!count(value.summarisedMessages) || !count(value.summarisedTokens)) return "compaction record without valid summarised counts";
  if (!count(value.tokensBefore) || !count(value.tokensAfter)) return "compaction record without valid token counts";
  if (!REASONS.includes(value.reason as CompactionReason)) return "compaction record with an unknown reason";
  if (typeof value.timestamp !== "number") return "compaction record without a timestamp";
  if (value.files !== undefined && !isFileLists(value.files)) return "compaction record with invalid file lists";
  if (value.usage !== undefined && !isUsage(value.usage)) return "compaction record with invalid usage";
  const record: CompactionRecord = {
    t: "compaction",
    summary: value.summary,
    firstKeptIndex: value.firstKeptIndex as number,
    summarisedMessages: value.summarisedMessages as number,
    summarisedTokens: value.summarisedTokens as number,
    tokensBefore: value.tokensBefore as number,
    tokensAfter: value.tokensAfter as number,
    reason: value.reason as CompactionReason,
    timestamp: value.timestamp,
  };
  if (value.files !== undefined) record.files = value.files as CompactionRecord["files"];
  if (value.usage !== undefined) record.usage = value.usage as Usage;
  return record;
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function isFileLists(value: unknown): boolean {
  const v = value as { read?: unknown; modified?: unknown } | null;
  return typeof v === "object" && v !== null && isStrings(v.read) && isStrings(v.modified);
}

function isUsage(value: unknown): boolean {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && ["input", "output", "totalTokens"].every((k) => typeof v[k] === "number");
}
