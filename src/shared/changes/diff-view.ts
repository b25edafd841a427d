/**
 * The changes view's data (protocol/changes.ts) made from a file's versions: what the worker answers a page with,
 * once the checkpoint store has given it the versions. Pure, so the page's tests and the bench build the same.
 */
import type { ChangeAuthor, ChangeConflict, ChangedFile, ChangedFileStatus, DiffHunk, FileDiff } from "../protocol/changes";
import { attribute, type FileVersion } from "./attribution";
import { isTooLarge, readContent, splitLines, type FileContent } from "./file-content";
import { changeBlocks, hunksOf, unifiedLines, type Hunk } from "./hunks";
import { statusOf } from "./file-change";

/** Indexes authors by their id, so each is listed once however many files or hunks name it. */
export class AuthorTable {
  readonly authors: ChangeAuthor[] = [];
  private readonly byId = new Map<string, number>();

  indexOf(author: ChangeAuthor): number {
    const key = `${author.kind}:${author.id}`;
    let i = this.byId.get(key);
    if (i === undefined) {
      i = this.authors.push(author) - 1;
      this.byId.set(key, i);
    }
    return i;
  }
}

export interface FileHistory {
  path: string;
  oldPath?: string;
  /** The store's status (a rename); else from which of the first and last versions exist. */
  status?: ChangedFileStatus;
  symlink?: boolean;
  /** The version at the start, then one after each call that changed it. */
  versions: FileVersion<ChangeAuthor>[];
}

/** One file's diff with each hunk's authors, between checkpoints `from` and `to`. */
export function fileDiffOf(from: string, to: string, history: FileHistory): FileDiff {
  const table = new AuthorTable();
  const { hunks, changedBy, newLines } = attribute(history.versions);
  const view = describeFile(history, changedBy.map((a) => table.indexOf(a)));
  return {
    from,
    to,
    ...view,
    hunks: hunks.map((h) => ({ ...diffHunk(h, newLines), authors: h.authors.map((a) => table.indexOf(a)) })),
    authors: table.authors,
  };
}

/** One file's row in a change set, its authors indexed in `table`. */
export function changedFileOf(history: FileHistory, table: AuthorTable): ChangedFile {
  const { changedBy } = attribute(history.versions);
  return describeFile(history, changedBy.map((a) => table.indexOf(a)));
}

function describeFile(history: FileHistory, authors: number[]): ChangedFile {
  const first = history.versions[0]?.content ?? null;
  const last = history.versions[history.versions.length - 1]?.content ?? null;
  const file: ChangedFile = { path: history.path, status: history.status ?? statusOf(first, last), added: 0, removed: 0, authors };
  if (history.oldPath !== undefined) file.oldPath = history.oldPath;
  if (history.symlink) file.symlink = true;
  const big = [last, first].find(isTooLarge);
  const a = readContent(first);
  const b = readContent(last);
  if (big) file.tooLarge = { size: big.size };
  else if (a.kind === "binary" || b.kind === "binary") file.binary = { size: b.kind === "binary" ? b.size : a.kind === "binary" ? a.size : 0 };
  else {
    const blocks = changeBlocks(a.kind === "text" ? splitLines(a.text) : [], b.kind === "text" ? splitLines(b.text) : []);
    for (const block of blocks) {
      file.added += block.newLines.length;
      file.removed += block.oldLines.length;
    }
  }
  return file;
}

/** A hunk as the protocol carries it, without authors. */
export function diffHunk(hunk: Hunk, newLines: string[]): DiffHunk {
  const { header, lines } = unifiedLines(hunk, newLines);
  return { header, lines, added: hunk.added, removed: hunk.removed, authors: [] };
}

/** A conflict for "show diff": what changed outside, from the agent's version to the disk's (no hunks when not both text). */
export function conflictOf(path: string, agent: FileContent, disk: FileContent): ChangeConflict {
  const a = readContent(agent);
  const b = readContent(disk);
  const textOrNone = (r: ReturnType<typeof readContent>) => (r.kind === "text" ? splitLines(r.text) : r.kind === "absent" ? [] : undefined);
  const before = textOrNone(a);
  const after = textOrNone(b);
  if (!before || !after) return { path };
  return { path, hunks: hunksOf(changeBlocks(before, after), before.length, after.length).map((h) => diffHunk(h, after)) };
}
