/**
 * The Changes panel's decisions, in a plain module Node tests load: the "since" points a user can choose, how a
 * file's row and a hunk's authors read.
 */
import type { ChangeAuthor, ChangedFile, ChangesSince } from "../../../shared/protocol/changes";
import { changeSummary } from "../../../shared/changes/summary";
import { formatBytes } from "../../../shared/changes/file-change";

/** A point the user can show changes since, as the chooser lists it. */
export interface SinceOption {
  key: string;
  label: string;
  since: ChangesSince;
}

/** The key a "since" point is chosen by in the chooser. */
export function sinceKey(since: ChangesSince): string {
  if (since.kind === "range") return `range/${since.from}/${since.to}`;
  return since.kind === "message" ? `message:${since.index}` : since.kind;
}

/**
 * The chooser's points: the start of the chat, of this turn, and each earlier user message (newest first), given as
 * its transcript index and a line of its text. A worktree chat's first point is the commit its worktree started from.
 * Opened on a recorded span (a scheduled run's, from the list's "3 files changed"), that span comes first, by `label`.
 */
export function sinceOptions(
  userMessages: readonly { index: number; text: string }[],
  worktree?: { branch: string; base: string },
  span?: { from: string; to: string; label: string },
): SinceOption[] {
  const options: SinceOption[] = [
    ...(span ? [{ key: sinceKey({ kind: "range", from: span.from, to: span.to }), label: span.label, since: { kind: "range", from: span.from, to: span.to } } satisfies SinceOption] : []),
    ...(worktree ? [{ key: "base", label: `Worktree base (${worktree.base.slice(0, 7)})`, since: { kind: "base" } } satisfies SinceOption] : []),
    { key: "turn", label: "This turn", since: { kind: "turn" } },
    { key: "chat", label: "Start of the chat", since: { kind: "chat" } },
  ];
  for (const m of [...userMessages].reverse()) {
    const line = m.text.replace(/\s+/g, " ").trim();
    const since: ChangesSince = { kind: "message", index: m.index };
    options.push({ key: sinceKey(since), label: `Since “${line.length > 48 ? `${line.slice(0, 47)}…` : line || "(attachment)"}”`, since });
  }
  return options;
}

/** A status as one letter, as `git status --short` shows it, and in words for screen readers. */
export function statusMark(status: ChangedFile["status"]): { letter: string; word: string } {
  switch (status) {
    case "added":
      return { letter: "A", word: "added" };
    case "deleted":
      return { letter: "D", word: "deleted" };
    case "renamed":
      return { letter: "R", word: "renamed" };
    default:
      return { letter: "M", word: "modified" };
  }
}

/** What a row shows after the path: "+12 −3", "binary, 4.1 kB", "no copy kept (25.3 MB)". */
export function fileFigures(file: Pick<ChangedFile, "added" | "removed" | "binary" | "tooLarge">): string {
  if (file.tooLarge) return `no copy kept (${formatBytes(file.tooLarge.size)})`;
  if (file.binary) return `binary, ${formatBytes(file.binary.size)}`;
  return `+${file.added} \u2212${file.removed}`;
}

/** A row's accessible name: "src/app.ts, modified, 12 lines added, 3 removed, by edit and bash". */
export function fileRowLabel(file: ChangedFile, authors: readonly ChangeAuthor[]): string {
  const parts = [file.oldPath ? `${file.oldPath} renamed to ${file.path}` : file.path, statusMark(file.status).word];
  if (file.tooLarge) parts.push("no copy kept");
  else if (file.binary) parts.push(`binary, ${formatBytes(file.binary.size)}`);
  else parts.push(`${file.added} ${file.added === 1 ? "line" : "lines"} added, ${file.removed} removed`);
  const by = authorNames(file.authors.map((i) => authors[i]).filter((a): a is ChangeAuthor => a !== undefined));
  if (by) parts.push(`by ${by}`);
  return parts.join(", ");
}

/** An author as a hunk shows it: the call's line ("edit src/app.ts"), a subagent's name, a revert. */
export function authorName(author: ChangeAuthor): string {
  if (author.kind === "subagent") return `subagent ${author.name}`;
  return author.label ?? author.name;
}

/** Authors joined for reading: "edit, bash and subagent reviewer". */
export function authorNames(authors: readonly ChangeAuthor[]): string {
  const names = authors.map(authorName);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export { changeSummary };
