import { useContext, useEffect, useRef, useState } from "react";
import { MessageActionsContext } from "./message-actions-context";

interface MessageEditorProps {
  index: number;
  initialText: string;
  onClose(): void;
}

/**
 * Edits a user message in place: Enter resends it as a new version (Shift+Enter: a new line), Esc cancels. The
 * message's attachments go with it (the worker keeps them). Closes once the worker has taken the edit.
 */
export function MessageEditor({ index, initialText, onClose }: MessageEditorProps) {
  const actions = useContext(MessageActionsContext);
  const [text, setText] = useState(initialText);
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  if (!actions) return null;
  const send = () => {
    if (sending || actions.blocked !== undefined) return;
    setSending(true);
    // The edit shows at once (the branch); the call resolves once the new version is journaled, while the model answers.
    const done = actions.editMessage(index, text);
    onClose();
    done.catch(actions.onError);
  };
  return (
    <div className="message-editor" data-testid="message-editor">
      <textarea ref={ref} value={text} dir="auto" aria-label="Edit message" rows={Math.min(10, Math.max(2, text.split("\n").length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }} />
      <div className="message-editor-buttons">
        <button type="button" className="btn btn-secondary" onClick={onClose}>Cancel</button>
        <button type="button" className="btn btn-primary" onClick={send} disabled={sending || actions.blocked !== undefined || text.trim() === ""}
          title={actions.blocked}>Send</button>
      </div>
    </div>
  );
}
