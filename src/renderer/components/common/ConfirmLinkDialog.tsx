import { useId, useRef, type KeyboardEvent } from "react";
import { useModalDialog } from "./use-modal-dialog";
import { createPortal } from "react-dom";
import "../../styles/dialog.css";

interface ConfirmLinkDialogProps {
  /** The address the link's text shows (what the reader may believe they are opening); `target` when the address itself misleads. */
  shown: string;
  /** The real target in full, host names in punycode (`LinkTarget.display`). */
  target: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * "This link is not what its text says: open it anyway?", shown in the page before a disguised link opens. A
 * modal <dialog> (the rest of the page is inert while it shows) in the page's top layer, rendered into <body> so
 * it never sits inside the message's text. Focus starts on "Open link"; Enter opens (unless Cancel has focus),
 * Esc cancels; on closing, focus goes back where it was.
 */
export function ConfirmLinkDialog({ shown, target, onConfirm, onCancel }: ConfirmLinkDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useModalDialog(dialog, openButton, onCancel);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.nativeEvent.isComposing || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && document.activeElement !== cancelButton.current) {
      event.preventDefault();
      onConfirm();
    }
  };

  return createPortal(
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId} aria-describedby={bodyId} data-testid="link-confirm" onKeyDown={onKeyDown}>
      <h2 id={titleId} className="confirm-dialog-title">Open this link?</h2>
      <div id={bodyId}>
        <p className="confirm-dialog-text">
          {shown === target ? (
            // The address itself misleads (a user name before the host reads like the host).
            <>This address may not lead where it seems to. It leads to:</>
          ) : (
            <>Its text shows <strong className="confirm-dialog-shown">{shown}</strong>, but it leads somewhere else:</>
          )}
        </p>
        <code className="confirm-dialog-target" data-testid="link-confirm-target">{target}</code>
      </div>
      <div className="confirm-dialog-actions">
        <button ref={cancelButton} type="button" className="btn btn-secondary" data-testid="link-confirm-cancel" onClick={onCancel}>Cancel</button>
        <button ref={openButton} type="button" className="btn btn-primary" data-testid="link-confirm-open" onClick={onConfirm}>Open link</button>
      </div>
    </dialog>,
    document.body,
  );
}
