/**
 * A text file's change as hunks: the changed runs of lines (blocks) and, around them, a few unchanged lines of
 * context, blocks whose context would touch joined into one hunk, as `diff -u` shows them. Lines keep their line
 * endings (file-content.ts's splitLines), so a hunk can be put back exactly; the unified lines a page shows leave
 * them out.
 */
import { diffArrays } from "diff";
import { lineText, splitLines } from "./file-content";

/** Unchanged lines shown around each change, as `diff -u`. */
export const CONTEXT_LINES = 3;
/** How long one file's line diff may take before it is shown as one replacement of the whole text. */
const DIFF_TIMEOUT_MS = 1_000;

/** A run of lines `oldLines` at `oldStart` (0-based) replaced by `newLines` at `newStart`; either may be empty. */
export interface ChangeBlock {
  oldStart: number;
  oldLines: string[];
  newStart: number;
  newLines: string[];
}

/** A hunk: its range in each version (0-based, context included), and the blocks it shows. */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  blocks: ChangeBlock[];
  added: number;
  removed: number;
}

/**
 * The changed blocks between two line lists, in order. The common start and end are set aside first (most edits
 * touch a few lines of a long file); a diff that runs over its time falls back to one block replacing the rest.
 */
export function changeBlocks(oldLines: string[], newLines: string[]): ChangeBlock[] {
  let head = 0;
  const shorter = Math.min(oldLines.length, newLines.length);
  while (head < shorter && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (tail < shorter - head && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
  const a = oldLines.slice(head, oldLines.length - tail);
  const b = newLines.slice(head, newLines.length - tail);
  if (a.length === 0 && b.length === 0) return [];
  if (a.length === 0 || b.length === 0) return [{ oldStart: head, oldLines: a, newStart: head, newLines: b }];
  const parts = diffArrays(a, b, { timeout: DIFF_TIMEOUT_MS });
  if (!parts) return [{ oldStart: head, oldLines: a, newStart: head, newLines: b }];
  const blocks: ChangeBlock[] = [];
  let oldAt = head;
  let newAt = head;
  let open: ChangeBlock | undefined;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      open = undefined;
      oldAt += part.value.length;
      newAt += part.value.length;
      continue;
    }
    if (!open) blocks.push((open = { oldStart: oldAt, oldLines: [], newStart: newAt, newLines: [] }));
    if (part.removed) {
      open.oldLines.push(...part.value);
      oldAt += part.value.length;
    } else {
      open.newLines.push(...part.value);
      newAt += part.value.length;
    }
  }
  return blocks;
}

/** Groups blocks into hunks with `context` lines around each; blocks whose context would meet share a hunk. */
export function hunksOf(blocks: ChangeBlock[], oldLength: number, newLength: number, context = CONTEXT_LINES): Hunk[] {
  const hunks: Hunk[] = [];
  for (const block of blocks) {
    const last = hunks[hunks.length - 1];
    const lastBlock = last?.blocks[last.blocks.length - 1];
    if (last && lastBlock && block.oldStart - (lastBlock.oldStart + lastBlock.oldLines.length) <= 2 * context) last.blocks.push(block);
    else hunks.push({ oldStart: 0, oldCount: 0, newStart: 0, newCount: 0, blocks: [block], added: 0, removed: 0 });
  }
  for (const hunk of hunks) {
    const first = hunk.blocks[0];
    const end = hunk.blocks[hunk.blocks.length - 1];
    const before = Math.min(context, first.oldStart, first.newStart);
    const oldEnd = end.oldStart + end.oldLines.length;
    const newEnd = end.newStart + end.newLines.length;
    const after = Math.min(context, oldLength - oldEnd, newLength - newEnd);
    hunk.oldStart = first.oldStart - before;
    hunk.newStart = first.newStart - before;
    hunk.oldCount = oldEnd + after - hunk.oldStart;
    hunk.newCount = newEnd + after - hunk.newStart;
    for (const b of hunk.blocks) {
      hunk.added += b.newLines.length;
      hunk.removed += b.oldLines.length;
    }
  }
  return hunks;
}

/** The hunks that turn `oldText` into `newText`. */
export function textHunks(oldText: string, newText: string, context = CONTEXT_LINES): Hunk[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  return hunksOf(changeBlocks(a, b), a.length, b.length, context);
}

/** The marker `diff -u` puts after a line that ends the file without a newline. */
export const NO_NEWLINE = "\\ No newline at end of file";

/**
 * A hunk as `diff -u` shows it: its header (1-based, as `@@ -12,7 +12,9 @@`) and each line with its sign (" ", "-",
 * "+"), line endings left out, a last line without one followed by the no-newline marker. `newLines` gives the
 * context lines (they are the same in both versions).
 */
export function unifiedLines(hunk: Hunk, newLines: string[]): { header: string; lines: string[] } {
  const lines: string[] = [];
  const push = (sign: string, line: string) => {
    lines.push(sign + lineText(line));
    if (!line.endsWith("\n")) lines.push(NO_NEWLINE);
  };
  let at = hunk.newStart;
  for (const block of hunk.blocks) {
    for (; at < block.newStart; at++) push(" ", newLines[at]);
    for (const line of block.oldLines) push("-", line);
    for (const line of block.newLines) push("+", line);
    at = block.newStart + block.newLines.length;
  }
  for (; at < hunk.newStart + hunk.newCount; at++) push(" ", newLines[at]);
  return { header: hunkHeader(hunk), lines };
}

/** A hunk's `diff -u` header, 1-based: "@@ -12,7 +12,9 @@". A hunk is named by it (protocol/changes.ts's revertHunk). */
export function hunkHeader(hunk: Hunk): string {
  const range = (start: number, count: number) => (count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`);
  return `@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@`;
}

/** The hunk a page named by its header, among a file's hunks computed again the same way; undefined when none has it. */
export function findHunk<H extends Hunk>(hunks: readonly H[], header: string): H | undefined {
  return hunks.find((h) => hunkHeader(h) === header);
}
