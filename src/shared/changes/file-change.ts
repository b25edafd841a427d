/**
 * One file's net change between two versions, as the changes view shows it: text hunks with their +/− counts, a
 * binary file by its size ("binary file changed, 1,204 bytes"), or a file with no copy kept ("changed, no copy
 * kept"). The status (added, modified, deleted) follows from which versions exist; a rename is the store's to say.
 */
import { readContent, splitLines, type FileContent } from "./file-content";
import { changeBlocks, hunksOf, CONTEXT_LINES, type Hunk } from "./hunks";

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

export type FileChange =
  | { kind: "text"; status: ChangeStatus; added: number; removed: number; hunks: Hunk[]; oldLines: string[]; newLines: string[] }
  | { kind: "binary"; status: ChangeStatus; size: number; added: 0; removed: 0 }
  | { kind: "too-large"; status: ChangeStatus; size: number; added: 0; removed: 0 }
  | { kind: "unchanged"; status: "modified"; added: 0; removed: 0 };

/** The status of a change from `before` to `after` (either absent means added or deleted). */
export function statusOf(before: FileContent, after: FileContent): ChangeStatus {
  if (before === null) return "added";
  return after === null ? "deleted" : "modified";
}

/**
 * The change from `before` to `after`. A text side against an absent one is all added or all removed lines; a
 * binary side makes the change binary, sized by the version that exists now (or the one deleted); a side without a
 * copy makes it "too large". `status` overrides the derived one (a rename).
 */
export function fileChange(before: FileContent, after: FileContent, options: { status?: ChangeStatus; context?: number } = {}): FileChange {
  const status = options.status ?? statusOf(before, after);
  const a = readContent(before);
  const b = readContent(after);
  if (a.kind === "too-large" || b.kind === "too-large") {
    const size = b.kind === "too-large" ? b.size : a.kind === "too-large" ? a.size : 0;
    return { kind: "too-large", status, size, added: 0, removed: 0 };
  }
  if (a.kind === "binary" || b.kind === "binary") {
    const size = b.kind === "binary" ? b.size : a.kind === "binary" ? a.size : 0;
    return { kind: "binary", status, size, added: 0, removed: 0 };
  }
  const oldLines = a.kind === "text" ? splitLines(a.text) : [];
  const newLines = b.kind === "text" ? splitLines(b.text) : [];
  const blocks = changeBlocks(oldLines, newLines);
  if (blocks.length === 0 && a.kind === b.kind && status !== "renamed") return { kind: "unchanged", status: "modified", added: 0, removed: 0 };
  const hunks = hunksOf(blocks, oldLines.length, newLines.length, options.context ?? CONTEXT_LINES);
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.added;
    removed += h.removed;
  }
  return { kind: "text", status, added, removed, hunks, oldLines, newLines };
}

/** "binary file changed, 1,204 bytes" / "changed, no copy kept (25.3 MB)": a line for a change without hunks. */
export function changeWithoutHunks(change: FileChange): string | undefined {
  if (change.kind === "binary") return `binary file ${verb(change.status)}, ${formatBytes(change.size)}`;
  if (change.kind === "too-large") return `${verb(change.status)}, no copy kept (${formatBytes(change.size)})`;
  return undefined;
}

function verb(status: ChangeStatus): string {
  return status === "added" ? "added" : status === "deleted" ? "deleted" : status === "renamed" ? "renamed" : "changed";
}

/** A size as people read it: bytes below 10 kB, else kB/MB/GB with one decimal. */
export function formatBytes(size: number): string {
  if (size < 10_000) return `${size.toLocaleString("en-US")} ${size === 1 ? "byte" : "bytes"}`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = size / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
