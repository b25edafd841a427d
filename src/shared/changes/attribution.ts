/**
 * Which call produced each hunk of a file's net change. Given the file's versions in order (the one at the chosen
 * start, then one after each call that changed it, tagged with that call), every line is followed through each
 * step: a line added by a step is that step's; a line of the start removed by a step was removed by that step. A net
 * hunk's authors are the steps that added its new lines or removed its old ones, in the order they ran. A line
 * added, then changed again by a later call, is the later call's; a file deleted by one call and written again by
 * another shows both (the deletion's author for the removed lines, the writer's for the added).
 */
import { readContent, sameContent, splitLines, type FileContent } from "./file-content";
import { changeBlocks, hunksOf, CONTEXT_LINES, type Hunk } from "./hunks";

/** One version of a file and the call that produced it (`by`; the start version has none). */
export interface FileVersion<A> {
  content: FileContent;
  by?: A;
}

export interface AttributedHunk<A> extends Hunk {
  /** The calls that made this hunk, in the order they ran (never empty). */
  authors: A[];
}

export interface Attribution<A> {
  /** The net change's hunks from the first version to the last, each with its authors; [] for a binary or unkept file. */
  hunks: AttributedHunk<A>[];
  /** Every call that changed the file's content, in order (a call that wrote the same bytes is not one). */
  changedBy: A[];
  oldLines: string[];
  newLines: string[];
}

/** Attributes the net change from `versions[0]` to the last version; `versions` must hold at least one. */
export function attribute<A>(versions: FileVersion<A>[], context = CONTEXT_LINES): Attribution<A> {
  if (versions.length === 0) throw new Error("attribute needs at least the start version");
  const lines = versions.map((v) => linesOf(v.content));
  const startLines = lines[0] ?? [];
  // origin[i] of the current version's line i: k > 0 when step k added it, -(j + 1) when it is the start's line j.
  let origin = startLines.map((_, j) => -(j + 1));
  const removedBy = new Array<number>(startLines.length).fill(0);
  const changed: number[] = [];
  for (let k = 1; k < versions.length; k++) {
    const before = lines[k - 1];
    const after = lines[k];
    if (before === undefined || after === undefined) {
      // A binary or unkept version: lines cannot be followed through it; what comes out of it is this step's.
      if (!sameContent(versions[k - 1].content, versions[k].content)) changed.push(k);
      for (const o of origin) if (o < 0 && removedBy[-o - 1] === 0) removedBy[-o - 1] = k;
      origin = (after ?? []).map(() => k);
      continue;
    }
    const blocks = changeBlocks(before, after);
    if (blocks.length === 0) {
      if ((versions[k - 1].content === null) !== (versions[k].content === null)) changed.push(k);
      continue;
    }
    changed.push(k);
    const next: number[] = [];
    let at = 0;
    for (const block of blocks) {
      for (; at < block.oldStart; at++) next.push(origin[at]);
      for (let i = 0; i < block.oldLines.length; i++) {
        const o = origin[block.oldStart + i];
        if (o < 0) removedBy[-o - 1] = k;
      }
      for (let i = 0; i < block.newLines.length; i++) next.push(k);
      at = block.oldStart + block.oldLines.length;
    }
    for (; at < before.length; at++) next.push(origin[at]);
    origin = next;
  }
  const endLines = lines[lines.length - 1] ?? [];
  const authorOf = (k: number) => versions[k].by as A;
  const changedBy = changed.map(authorOf);
  if (lines[0] === undefined || lines[lines.length - 1] === undefined) return { hunks: [], changedBy, oldLines: startLines, newLines: endLines };
  const lastChange = changed[changed.length - 1] ?? versions.length - 1;
  const hunks = hunksOf(changeBlocks(startLines, endLines), startLines.length, endLines.length, context).map((hunk): AttributedHunk<A> => {
    const steps = new Set<number>();
    for (const block of hunk.blocks) {
      for (let i = 0; i < block.newLines.length; i++) {
        const o = origin[block.newStart + i];
        if (o > 0) steps.add(o);
      }
      for (let i = 0; i < block.oldLines.length; i++) {
        const k = removedBy[block.oldStart + i];
        if (k > 0) steps.add(k);
      }
    }
    // A hunk no step accounts for line by line (a start line removed, then the same text added back elsewhere by
    // another step, matched differently by the net diff) is the last changing step's.
    if (steps.size === 0) steps.add(lastChange);
    return { ...hunk, authors: [...steps].sort((x, y) => x - y).map(authorOf) };
  });
  return { hunks, changedBy, oldLines: startLines, newLines: endLines };
}

/** A version's lines, [] when absent, undefined when binary or unkept. */
function linesOf(content: FileContent): string[] | undefined {
  const read = readContent(content);
  if (read.kind === "absent") return [];
  return read.kind === "text" ? splitLines(read.text) : undefined;
}

