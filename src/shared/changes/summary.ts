/** A set of changes in a line, for tool cards and turns: "3 files changed, +40 −12". */

export interface ChangeCounts {
  files: number;
  added: number;
  removed: number;
}

/** The counts of a set of file changes (each file once). */
export function countChanges(files: readonly { added: number; removed: number }[]): ChangeCounts {
  let added = 0;
  let removed = 0;
  for (const f of files) {
    added += f.added;
    removed += f.removed;
  }
  return { files: files.length, added, removed };
}

/** "3 files changed, +40 −12" (a true minus sign, as the counts show elsewhere); "no files changed" for none. */
export function changeSummary(counts: ChangeCounts): string {
  if (counts.files === 0) return "no files changed";
  return `${counts.files} ${counts.files === 1 ? "file" : "files"} changed, +${counts.added} \u2212${counts.removed}`;
}
