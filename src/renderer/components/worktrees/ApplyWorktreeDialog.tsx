import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useServices } from "../../context/ServicesContext";
import { useModalDialog } from "../common/use-modal-dialog";
import { errorText } from "../../../shared/error-text";
import type { WorktreeApplyOutcome, WorktreeChangesSummary } from "../../../shared/protocol/worktrees";
import { ChangeStat } from "../changes/ChangeStat";
import "../../styles/dialog.css";
import "../../styles/worktrees.css";

interface ApplyWorktreeDialogProps {
  sessionId: string;
  branch: string;
  /** Closed: with a sentence of what was done, or nothing (cancelled). */
  onClose(said?: string): void;
}

const STATUS_MARK: Record<WorktreeChangesSummary["files"][number]["status"], string> = {
  added: "A", modified: "M", deleted: "D", renamed: "R", "type-changed": "T",
};

/**
 * "Apply to workspace": the worktree's changes first (files, +/−), then main applies them all or nothing. A refusal
 * names each file the workspace changed too, with the workspace's own change, and offers a three-way merge (files
 * whose changes overlap get conflict markers for the user to resolve).
 */
export function ApplyWorktreeDialog({ sessionId, branch, onClose }: ApplyWorktreeDialogProps) {
  const { app } = useServices();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [changes, setChanges] = useState<WorktreeChangesSummary | null>(null);
  const [outcome, setOutcome] = useState<WorktreeApplyOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useModalDialog(dialog, cancelButton, () => onClose());

  useEffect(() => {
    let live = true;
    app.worktreeChanges(sessionId).then((c) => live && setChanges(c), (e: unknown) => live && setFailure(errorText(e)));
    return () => {
      live = false;
    };
  }, [app, sessionId]);

  const apply = (merge: boolean) => {
    setBusy(true);
    setFailure(null);
    app.applyWorktree(sessionId, merge).then((result) => {
      setOutcome(result);
      if (result.applied && result.withConflictMarkers.length === 0) onClose(appliedText(result));
    }, (e: unknown) => setFailure(errorText(e))).finally(() => setBusy(false));
  };

  const refused = outcome && !outcome.applied ? outcome : null;
  const marked = outcome && outcome.applied && outcome.withConflictMarkers.length > 0 ? outcome : null;
  return createPortal(
    <dialog ref={dialog} className="confirm-dialog worktree-apply-dialog" aria-labelledby={titleId} data-testid="worktree-apply-dialog">
      <h2 id={titleId} className="confirm-dialog-title">Apply {branch} to the workspace?</h2>
      {!changes && !failure ? <p className="muted">Reading the changes…</p> : null}
      {changes ? (
        <>
          <p className="confirm-dialog-text">
            Into <code>{changes.repositoryRoot}</code>, as uncommitted changes (its index, branches and commits are not touched):{" "}
            <ChangeStat counts={{ files: changes.files.length, added: changes.added, removed: changes.removed }} />
          </p>
          <ul className="worktree-files" data-testid="worktree-files">
            {changes.files.map((f) => (
              <li key={f.path}>
                <span className={`worktree-status worktree-status-${f.status}`} title={f.status}>{STATUS_MARK[f.status]}</span>{" "}
                <code>{f.oldPath ? `${f.oldPath} → ${f.path}` : f.path}</code>{" "}
                <span className="muted">{f.binary ? "binary" : `+${f.added} \u2212${f.removed}`}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {refused ? (
        <div className="notice notice-warning worktree-refused" role="alert" data-testid="worktree-refused">
          <p>{refused.message}</p>
          {refused.conflicts.map((c) => (
            <details key={c.path} className="worktree-conflict">
              <summary><code>{c.path}</code>: {c.reason}</summary>
              {c.workspaceDiff ? <pre className="worktree-diff">{c.workspaceDiff}</pre> : null}
            </details>
          ))}
          <p className="muted">A three-way merge writes clean merges and puts conflict markers where both changed the same lines.</p>
        </div>
      ) : null}
      {marked ? (
        <div className="notice notice-warning worktree-markers" role="alert" data-testid="worktree-markers">
          Applied. These files hold conflict markers to resolve: {marked.withConflictMarkers.join(", ")}
        </div>
      ) : null}
      {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
      <div className="confirm-dialog-actions">
        <button ref={cancelButton} type="button" className="btn btn-secondary" onClick={() => onClose(marked ? appliedText(marked) : undefined)}>{marked ? "Close" : "Cancel"}</button>
        {refused ? (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => apply(true)} data-testid="worktree-merge">Merge three ways</button>
        ) : !marked ? (
          <button type="button" className="btn btn-primary" disabled={busy || !changes || changes.files.length === 0} onClick={() => apply(false)} data-testid="worktree-apply-ok">Apply</button>
        ) : null}
      </div>
    </dialog>,
    document.body,
  );
}

function appliedText(result: Extract<WorktreeApplyOutcome, { applied: true }>): string {
  const n = result.files.length;
  const markers = result.withConflictMarkers.length > 0 ? ` (${result.withConflictMarkers.length} with conflict markers to resolve)` : "";
  return `Applied ${n} ${n === 1 ? "file" : "files"} to the workspace${markers}.`;
}
