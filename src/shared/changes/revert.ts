/**
 * Taking a change back: one hunk, one file, or a set of files (a turn). Each starts from what the agent left (the
 * version the checkpoint holds after its last call) and the file on disk now. Where the disk differs from what the
 * agent left in the lines a revert would touch (the user edited them in their editor since), nothing is written: the
 * answer is a conflict, and the caller asks the user, then calls again with `overwrite` or leaves the file be ("keep
 * mine"). Changes made outside elsewhere in the file are kept: a hunk goes back into the disk's text, not the agent's.
 */
import { readContent, sameContent, splitLines, type FileContent } from "./file-content";
import { changeBlocks, hunksOf, type ChangeBlock, type Hunk } from "./hunks";

export type HunkRevert =
  | { kind: "ok"; text: string }
  /** The lines the hunk covers changed outside since: `outside` holds those changes (the agent's version to the disk's). */
  | { kind: "conflict"; outside: Hunk[] };

/**
 * The disk's text with `hunk` (a hunk of the change from the start version to `agent`) taken back. A conflict when
 * the disk is not text now, or when a change made outside since overlaps the hunk's changed lines (for a hunk that
 * only removed lines: touches the place they go back to). `overwrite`: the hunk is taken back from the agent's
 * version instead, whatever the disk holds.
 */
export function revertHunk(agent: string, disk: FileContent, hunk: Hunk, options: { overwrite?: boolean } = {}): HunkRevert {
  const agentLines = splitLines(agent);
  const read = readContent(disk);
  const lines = options.overwrite ? agentLines : read.kind === "text" ? splitLines(read.text) : undefined;
  // Deleted, binary or too large now: all of the agent's text changed outside.
  if (!lines) return { kind: "conflict", outside: hunksOf([{ oldStart: 0, oldLines: agentLines, newStart: 0, newLines: [] }], agentLines.length, 0) };
  const outside = options.overwrite ? [] : changeBlocks(agentLines, lines);
  const overlapping = outside.filter((o) => hunk.blocks.some((b) => overlaps(b, o)));
  if (overlapping.length > 0) return { kind: "conflict", outside: hunksOf(overlapping, agentLines.length, lines.length) };
  const result = lines.slice();
  for (let i = hunk.blocks.length - 1; i >= 0; i--) {
    const block = hunk.blocks[i];
    let at = block.newStart;
    for (const o of outside) if (o.oldStart + o.oldLines.length <= block.newStart) at += o.newLines.length - o.oldLines.length;
    result.splice(at, block.newLines.length, ...block.oldLines);
  }
  return { kind: "ok", text: result.join("") };
}

/**
 * Whether a change made outside (`o`, agent's lines to the disk's) touches a hunk block's lines in the agent's
 * version: overlapping lines, an insertion inside them, or, for a block that only removed lines (nothing of it
 * left in the agent's version), any change at or next to the place they go back to.
 */
function overlaps(block: ChangeBlock, o: ChangeBlock): boolean {
  const s = block.newStart;
  const n = block.newLines.length;
  const a = o.oldStart;
  const al = o.oldLines.length;
  if (n === 0) return a <= s && s <= a + al;
  if (al === 0) return a > s && a < s + n;
  return a < s + n && a + al > s;
}

export type FileRevert =
  /** Write this content (the start version's). */
  | { kind: "write"; content: Uint8Array | string }
  /** The file did not exist at the start: delete it. */
  | { kind: "delete" }
  /** The disk already holds the start version. */
  | { kind: "unchanged" }
  /** The start version was over the size limit: there is no copy to put back. */
  | { kind: "no-copy"; size: number }
  /** The file changed outside since the agent left it. */
  | { kind: "conflict" };

/**
 * A whole file back to `start`. A conflict when the disk is not what the agent left (two versions without copies
 * compare by size, file-content.ts's sameContent), unless `overwrite`.
 */
export function revertFile(start: FileContent, agent: FileContent, disk: FileContent, options: { overwrite?: boolean } = {}): FileRevert {
  if (sameContent(disk, start)) return { kind: "unchanged" };
  if (!options.overwrite && !sameContent(agent, disk)) return { kind: "conflict" };
  if (start === null) return { kind: "delete" };
  if (typeof start === "string" || start instanceof Uint8Array) return { kind: "write", content: start };
  return { kind: "no-copy", size: start.size };
}

/**
 * One file of a set to take back. A rename is two: the old path (start: its content, agent: absent) and the new
 * one (start: absent, agent: its content), so taking it back writes the first and deletes the second.
 */
export interface FileToRevert {
  path: string;
  start: FileContent;
  agent: FileContent;
  disk: FileContent;
}

/** What the user answered to conflicts: write over them, or leave those files as they are. */
export type ConflictAnswer = "overwrite" | "keep-mine";

export interface RevertPlan {
  /** Files to write (the start's content) or delete, in the given order. */
  writes: { path: string; content: Uint8Array | string }[];
  deletes: string[];
  /** Files changed outside; without an answer nothing at all is taken back while there are any. */
  conflicts: string[];
  /** Files left as they are: changed outside and the user kept theirs, or already back at the start. */
  kept: string[];
  /** Files whose start version was not kept (over the size limit). */
  noCopy: string[];
}

/**
 * The plan to take back a set of files (a turn, or everything since a message). Without `answer`, any conflict
 * makes the plan empty but for its `conflicts` (all or nothing, so the user decides before anything is written);
 * "overwrite" reverts them too, "keep-mine" leaves them and reverts the rest.
 */
export function planRevert(files: FileToRevert[], answer?: ConflictAnswer): RevertPlan {
  const plan: RevertPlan = { writes: [], deletes: [], conflicts: [], kept: [], noCopy: [] };
  for (const f of files) {
    const r = revertFile(f.start, f.agent, f.disk, { overwrite: answer === "overwrite" });
    if (r.kind === "write") plan.writes.push({ path: f.path, content: r.content });
    else if (r.kind === "delete") plan.deletes.push(f.path);
    else if (r.kind === "unchanged") plan.kept.push(f.path);
    else if (r.kind === "no-copy") plan.noCopy.push(f.path);
    else if (answer === "keep-mine") plan.kept.push(f.path);
    else plan.conflicts.push(f.path);
  }
  if (plan.conflicts.length > 0) return { writes: [], deletes: [], conflicts: plan.conflicts, kept: [], noCopy: [] };
  return plan;
}
