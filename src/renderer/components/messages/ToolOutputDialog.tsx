import { useId, useRef } from "react";
import { createPortal } from "react-dom";
import type { ToolOutputFile } from "../../../shared/protocol/session-protocol";
import { useModalDialog } from "../common/use-modal-dialog";
import { useLoaded } from "../common/use-loaded";
import "../../styles/dialog.css";

interface ToolOutputDialogProps {
  title: string;
  load(): Promise<ToolOutputFile>;
  onClose(): void;
}

const count = (n: number) => n.toLocaleString("en-US");

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A command's whole output, as it saved it (the card shows its end): a modal <dialog> with the text, how much of it
 * (its lines, its size; a huge file's first 4 MB) and where the file is. Esc or Close closes it.
 */
export function ToolOutputDialog({ title, load, onClose }: ToolOutputDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useModalDialog(dialog, close, onClose);
  const loaded = useLoaded(load, [load]);
  const file: ToolOutputFile | null = loaded.state === "loaded" ? loaded.value : null;
  const problem = loaded.state === "failed" ? loaded.error : null;
  const lines = file ? file.text.split("\n").length - (file.text.endsWith("\n") ? 1 : 0) : 0;
  return createPortal(
    <dialog ref={dialog} className="confirm-dialog tool-output-dialog" aria-labelledby={titleId} data-testid="tool-output-dialog">
      <h2 id={titleId} className="confirm-dialog-title">Full output: <code>{title}</code></h2>
      {problem ? <p className="confirm-dialog-text tool-error-text" role="alert">{problem}</p> : null}
      {!file && !problem ? <p className="muted">Loading…</p> : null}
      {file ? (
        <>
          <p className="confirm-dialog-text muted" data-testid="tool-output-dialog-about">
            {file.cut ? `The first ${size(file.text.length)} of ${size(file.size)}` : `All ${count(lines)} ${lines === 1 ? "line" : "lines"} (${size(file.size)})`}, saved in{" "}
            <code className="tool-output-path">{file.path}</code>
          </p>
          <pre className="tool-pre tool-output-full" data-testid="tool-output-full" tabIndex={0}>{file.text}</pre>
        </>
      ) : null}
      <div className="confirm-dialog-actions">
        <button ref={close} type="button" className="btn btn-secondary" onClick={onClose} data-testid="tool-output-close">Close</button>
      </div>
    </dialog>,
    document.body,
  );
}
