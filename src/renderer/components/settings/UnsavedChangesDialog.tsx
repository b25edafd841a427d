import { useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useModalDialog } from "../common/use-modal-dialog";
import "../../styles/dialog.css";

interface UnsavedChangesDialogProps {
  /** What holds the edits ("Endpoints"). */
  labels: readonly string[];
  /** Saves them; resolves false when they could not be saved (the part says why). */
  onSave(): Promise<boolean>;
  onDiscard(): void;
  onKeepEditing(): void;
}

/**
 * Leaving Settings with edits not saved: Save (then leave), Discard (leave without them) or Keep editing (stay).
 * Keep editing has the focus first and Esc means it, so no key throws edits away.
 */
export function UnsavedChangesDialog({ labels, onSave, onDiscard, onKeepEditing }: UnsavedChangesDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [saving, setSaving] = useState(false);
  useModalDialog(dialog, keep, onKeepEditing);
  const what = labels.join(" and ");
  return createPortal(
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId} data-testid="unsaved-settings">
      <h2 id={titleId} className="confirm-dialog-title">Save your changes to {what}?</h2>
      <p id={bodyId} className="confirm-dialog-text">
        Your changes to {what} are not saved yet. Save them, discard them (they cannot be brought back), or keep editing.
      </p>
      <div className="confirm-dialog-actions">
        <button ref={keep} type="button" className="btn btn-secondary" onClick={onKeepEditing} disabled={saving}>Keep editing</button>
        <button type="button" className="btn btn-danger" onClick={onDiscard} disabled={saving} data-testid="unsaved-discard">Discard</button>
        <button type="button" className="btn btn-primary" disabled={saving} data-testid="unsaved-save" onClick={() => {
          setSaving(true);
          void onSave().finally(() => setSaving(false));
        }}>{saving ? "Saving…" : "Save"}</button>
      </div>
    </dialog>,
    document.body,
  );
}
