import { useId, useRef } from "react";
import { createPortal } from "react-dom";
import { useModalDialog } from "../common/use-modal-dialog";
import "../../styles/dialog.css";

interface ConfirmDialogProps {
  title: string;
  text: string;
  confirm: string;
  danger?: boolean;
  testId: string;
  onConfirm(): void;
  onCancel(): void;
}

/** A modal question with Cancel (focused first, so Enter does not destroy anything) and the action. */
export function ConfirmDialog({ title, text, confirm, danger, testId, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useModalDialog(dialog, cancelButton, onCancel);
  return createPortal(
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId} data-testid={testId}>
      <h2 id={titleId} className="confirm-dialog-title">{title}</h2>
      <p id={bodyId} className="confirm-dialog-text">{text}</p>
      <div className="confirm-dialog-actions">
        <button ref={cancelButton} type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>
        <button type="button" className={`btn ${danger ? "btn-danger" : "btn-primary"}`} onClick={onConfirm} data-testid={`${testId}-ok`}>{confirm}</button>
      </div>
    </dialog>,
    document.body,
  );
}
