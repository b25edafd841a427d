import { useId, useRef, type KeyboardEvent } from "react";
import { useModalDialog } from "./use-modal-dialog";
import { createPortal } from "react-dom";
import { SHORTCUT_SECTIONS, SHORTCUTS, type Shortcut } from "../../../shared/shortcuts";
import { Keys, onMac } from "./Keys";
import "../../styles/dialog.css";
import "../../styles/shortcuts.css";

interface ShortcutsDialogProps {
  /** The desktop app: its menu's own keys (Ctrl/Cmd+N for a new chat) are listed too. */
  desktop: boolean;
  onClose(): void;
}

/**
 * Every keyboard shortcut, grouped as the table in `shared/shortcuts.ts` groups them: the list is the table, so it
 * never names a key the handlers do not use. A modal <dialog> (the page behind is inert) labelled by its heading;
 * Esc or Close closes it and the browser gives the focus back to what had it before.
 */
export function ShortcutsDialog({ desktop, onClose }: ShortcutsDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const mac = onMac();

  useModalDialog(dialog, closeButton, onClose);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Escape" || event.nativeEvent.isComposing) return;
    event.preventDefault(); // nothing under the dialog (Settings, a running reply) takes this Esc too
    onClose();
  };

  return createPortal(
    <dialog ref={dialog} className="confirm-dialog shortcuts-dialog" aria-labelledby={titleId} data-testid="shortcuts-dialog" onKeyDown={onKeyDown}>
      <div className="shortcuts-head">
        <h2 id={titleId} className="confirm-dialog-title">Keyboard shortcuts</h2>
        <button ref={closeButton} type="button" className="btn btn-secondary" onClick={onClose} data-testid="shortcuts-close">Close</button>
      </div>
      <div className="shortcuts-body">
        {SHORTCUT_SECTIONS.map((section) => (
          <section key={section} className="shortcuts-section" aria-label={section}>
            <h3 className="shortcuts-section-title">{section}</h3>
            <dl className="shortcuts-list">
              {SHORTCUTS.filter((s) => s.section === section).map((s: Shortcut) => (
                <div key={s.id} className="shortcuts-row" data-shortcut={s.id}>
                  <dt>{s.label}</dt>
                  <dd>
                    <Keys chord={s.keys} mac={mac} />
                    {desktop && s.menuKeys ? <> or <Keys chord={s.menuKeys} mac={mac} /></> : null}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>,
    document.body,
  );
}
