import { useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { ChangeConflict, ConflictAnswer } from "../../../shared/protocol/changes";
import { DiffView } from "../messages/DiffView";
import { useModalDialog } from "../common/use-modal-dialog";
import "../../styles/dialog.css";

interface ConflictDialogProps {
  conflicts: readonly ChangeConflict[];
  onAnswer(answer: ConflictAnswer): void;
  onCancel(): void;
}

/**
 * A revert would write over files changed outside the chat since the agent wrote them: the user picks. "Overwrite"
 * takes the change back anyway, "Keep mine" leaves those files as they are (and reverts the rest), "Show diff" shows
 * what changed outside; Esc or Cancel does nothing. A modal <dialog>, focus on "Keep mine" (the choice that loses
 * nothing).
 */
export function ConflictDialog({ conflicts, onAnswer, onCancel }: ConflictDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const [showDiff, setShowDiff] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  useModalDialog(dialog, keepButton, onCancel);
  const one = conflicts.length === 1;

  return createPortal(
    <dialog ref={dialog} className="confirm-dialog conflict-dialog" aria-labelledby={titleId} aria-describedby={bodyId} data-testid="change-conflict">
      <h2 id={titleId} className="confirm-dialog-title">{one ? "This file" : `${conflicts.length} files`} changed outside the chat</h2>
      <div id={bodyId}>
        <p className="confirm-dialog-text">
          {one ? "It was" : "They were"} changed outside since the agent wrote {one ? "it" : "them"}. Reverting would overwrite those changes.
        </p>
        <ul className="conflict-files">
          {conflicts.map((c) => (
            <li key={c.path}>
              <code>{c.path}</code>
              {showDiff ? (c.hunks && c.hunks.length > 0 ? <DiffView diff={c.hunks.map((h) => [h.header, ...h.lines].join("\n")).join("\n")} /> : <p className="file-diff-note">No text diff to show (binary, too large or deleted).</p>) : null}
            </li>
          ))}
        </ul>
      </div>
      <div className="confirm-dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={() => setShowDiff((v) => !v)} aria-expanded={showDiff} data-testid="conflict-show-diff">
          {showDiff ? "Hide diff" : "Show diff"}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel} data-testid="conflict-cancel">Cancel</button>
        <button ref={keepButton} type="button" className="btn btn-secondary" onClick={() => onAnswer("keep-mine")} data-testid="conflict-keep">Keep mine</button>
        <button type="button" className="btn btn-danger" onClick={() => onAnswer("overwrite")} data-testid="conflict-overwrite">Overwrite</button>
      </div>
    </dialog>,
    document.body,
  );
}
