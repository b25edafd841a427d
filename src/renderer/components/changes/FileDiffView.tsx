import { memo } from "react";
import type { DiffHunk, FileDiff } from "../../../shared/protocol/changes";
import { DiffView } from "../messages/DiffView";
import { authorNames, fileFigures, statusMark } from "./changes-panel";
import { formatBytes } from "../../../shared/changes/file-change";

interface FileDiffViewProps {
  diff: FileDiff;
  /** Disabled while a revert runs. */
  busy: boolean;
  onRevertFile(): void;
  onRevertHunk(hunk: DiffHunk): void;
}

/**
 * One file's change: its header with "Revert file", then each hunk as a unified diff (the approval card's DiffView)
 * under a line naming the calls that made it, with its own "Revert hunk". A binary file shows its size; a file over
 * the size limit says it changed and that no copy was kept (it cannot be reverted).
 */
export const FileDiffView = memo(function FileDiffView({ diff, busy, onRevertFile, onRevertHunk }: FileDiffViewProps) {
  const mark = statusMark(diff.status);
  return (
    <section className="file-diff" aria-label={`Changes to ${diff.path}`} data-testid="file-diff">
      <header className="file-diff-header">
        <h3 className="file-diff-path">
          {diff.oldPath ? `${diff.oldPath} → ` : ""}
          {diff.path}
        </h3>
        <span className="file-diff-status">{mark.word}</span>
        <span className="file-diff-figures">{fileFigures(diff)}</span>
        <button type="button" className="btn btn-secondary btn-small" disabled={busy || diff.tooLarge !== undefined} onClick={onRevertFile}
          data-testid="revert-file" title={diff.tooLarge ? "No copy was kept of this file: it cannot be reverted" : undefined}>
          Revert file
        </button>
      </header>
      {diff.tooLarge ? <p className="file-diff-note">Changed, no copy kept: the file is over the size limit ({formatBytes(diff.tooLarge.size)}).</p> : null}
      {diff.binary ? <p className="file-diff-note">Binary file {diff.status === "deleted" ? "deleted" : "changed"}, {formatBytes(diff.binary.size)}.</p> : null}
      {diff.symlink ? <p className="file-diff-note">A symbolic link: its target changed.</p> : null}
      {diff.hunks.map((hunk, i) => {
        const by = authorNames(hunk.authors.map((a) => diff.authors[a]).filter((a) => a !== undefined));
        return (
          <div key={`${i}:${hunk.header}`} className="diff-hunk" data-testid={`hunk-${i}`}>
            <div className="diff-hunk-bar">
              <span className="diff-hunk-by">{by ? `by ${by}` : "by an unknown call"}</span>
              <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={() => onRevertHunk(hunk)}
                aria-label={`Revert hunk ${hunk.header}${by ? ` by ${by}` : ""}`} data-testid={`revert-hunk-${i}`}>
                Revert hunk
              </button>
            </div>
            <DiffView diff={[hunk.header, ...hunk.lines].join("\n")} />
          </div>
        );
      })}
    </section>
  );
});
