import { memo, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { composerIntent } from "./composerKeys";
import { SendIcon } from "../common/icons";
import { errorText } from "../../../shared/error-text";

interface ComposerProps {
  running: boolean;
  /**
   * Why sending is impossible right now (no model, connecting, the host is away), shown instead of sending;
   * undefined if it is possible. While a run goes on, it also disables Steer, Follow-up and Stop.
   */
  blockedReason?: string;
  onSend(text: string): Promise<void>;
  onSteer(text: string): Promise<void>;
  onFollowUp(text: string): Promise<void>;
  onStop(): void;
  /** Changes when the composer should take focus (a session was opened). */
  focusKey?: unknown;
}

/**
 * The message box. The draft is cleared when a message goes out and put back if the call rejects, so nothing the
 * user typed is ever lost; a rejection is shown under the box.
 */
export const Composer = memo(function Composer(props: ComposerProps) {
  const { running, blockedReason, onSend, onSteer, onFollowUp, onStop, focusKey } = props;
  const [draft, setDraft] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    textarea.current?.focus();
  }, [focusKey]);

  useEffect(() => {
    const el = textarea.current;
    if (!el) return;
    // Grow with the text up to the CSS max-height, then scroll.
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight}px`;
  }, [draft]);

  const submit = (kind: "send" | "steer" | "follow-up") => {
    const text = draft;
    if (!text.trim() || blockedReason) return;
    setDraft("");
    setFailure(null);
    const call = kind === "send" ? onSend : kind === "steer" ? onSteer : onFollowUp;
    call(text).catch((error: unknown) => {
      // Put the text back in front of anything typed since, so neither is lost.
      setDraft((current) => (current ? `${text}\n${current}` : text));
      setFailure(errorText(error));
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const intent = composerIntent({ ...e, isComposing: e.nativeEvent.isComposing }, running);
    // Esc is left to bubble: the chat view handles it wherever the focus is.
    if (intent === "none" || intent === "newline" || intent === "escape") return;
    e.preventDefault();
    submit(intent);
  };

  const canSend = draft.trim().length > 0 && !blockedReason;
  return (
    <div className="composer-wrap">
      {failure ? (
        <div className="composer-failure" role="alert">
          Not sent: {failure}
          <button type="button" className="link-button" onClick={() => setFailure(null)} aria-label="Dismiss">✕</button>
        </div>
      ) : null}
      <div className={`composer${running ? " composer-running" : ""}`}>
        <label htmlFor="composer-input" className="visually-hidden">Message</label>
        <textarea
          id="composer-input"
          ref={textarea}
          data-testid="composer"
          rows={1}
          value={draft}
          placeholder={blockedReason ?? (running ? "Steer the agent (Enter) or queue a follow-up (Alt+Enter)…" : "Message Paddock…")}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby="composer-hint"
        />
        <div className="composer-actions">
          {running ? (
            <>
              <button type="button" className="btn btn-ghost" disabled={!canSend} onClick={() => submit("follow-up")}
                title="Queue a follow-up (Alt+Enter)">Follow-up</button>
              <button type="button" className="btn btn-secondary" disabled={!canSend} onClick={() => submit("steer")}
                title="Steer (Enter)">Steer</button>
              <button type="button" className="btn btn-danger" data-testid="stop-button" onClick={onStop}
                disabled={Boolean(blockedReason)} title={blockedReason ?? "Stop (Esc)"} aria-label="Stop">
                <span className="stop-square" aria-hidden="true" /> Stop
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-primary send-button" data-testid="send-button" disabled={!canSend}
              onClick={() => submit("send")} aria-label="Send" title="Send (Enter)">
              <SendIcon />
            </button>
          )}
        </div>
      </div>
      <div id="composer-hint" className="composer-hint">
        {running
          ? "Enter steers · Alt+Enter queues a follow-up · Esc stops"
          : "Enter to send · Shift+Enter for a new line"}
      </div>
    </div>
  );
});
