import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ApprovalAnswer, ApprovalRequest } from "../../../shared/protocol/session-protocol";
import { errorText } from "../../../shared/error-text";
import { DiffView } from "./DiffView";

interface ApprovalPanelProps {
  request: ApprovalRequest;
  answer(answer: ApprovalAnswer, reason?: string): Promise<void>;
  /** The oldest question takes the keyboard focus when it appears. */
  focus: boolean;
}

/**
 * A tool call waiting for the user, inside its card: what it would do (the diff for a file change), and Allow once,
 * Allow for this chat, or Deny with a reason the model is told. Keys while it has the focus: Y allows once, A for
 * the chat, N denies (then Enter sends the reason, Esc goes back).
 */
export function ApprovalPanel({ request, answer, focus }: ApprovalPanelProps) {
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const first = useRef<HTMLButtonElement>(null);
  const reasonInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focus) first.current?.focus();
  }, [focus]);
  const backFromDenying = useRef(false);
  useEffect(() => {
    if (denying) reasonInput.current?.focus();
    else if (backFromDenying.current) first.current?.focus();
    backFromDenying.current = false;
  }, [denying]);

  const send = (choice: ApprovalAnswer, why?: string) => {
    setBusy(true);
    setFailure(null);
    answer(choice, why).catch((error: unknown) => {
      setBusy(false);
      setFailure(errorText(error));
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (denying || busy || e.metaKey || e.ctrlKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === "y") send("once");
    else if (key === "a" && request.scope) send("chat");
    else if (key === "n") setDenying(true);
    else return;
    e.preventDefault();
  };

  return (
    <div className="approval" data-testid="approval" role="group" aria-label={`Approve ${request.toolName}`} onKeyDown={onKeyDown}>
      <div className="approval-question">
        <strong>Allow {request.toolName}?</strong> <code className="approval-summary">{request.summary}</code>
      </div>
      {request.diff ? <DiffView diff={request.diff} /> : null}
      {denying ? (
        <form className="approval-actions" onSubmit={(e) => {
          e.preventDefault();
          send("deny", reason);
        }}>
          <input ref={reasonInput} className="approval-reason" dir="auto" value={reason} placeholder="Why not? (the agent is told; optional)"
            aria-label="Reason for denying" onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== "Escape") return;
              e.preventDefault(); // keeps Esc from stopping the run
              backFromDenying.current = true;
              setDenying(false);
            }} />
          <button type="submit" className="btn btn-danger" disabled={busy} data-testid="approval-deny-send">Deny</button>
        </form>
      ) : (
        <div className="approval-actions">
          <button ref={first} type="button" className="btn btn-primary" disabled={busy} onClick={() => send("once")}
            data-testid="approval-once" aria-keyshortcuts="Y">Allow once <kbd>Y</kbd></button>
          {request.scope ? (
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => send("chat")}
              data-testid="approval-chat" aria-keyshortcuts="A">Allow <code>{request.scope}</code> in this chat <kbd>A</kbd></button>
          ) : null}
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => setDenying(true)}
            data-testid="approval-deny" aria-keyshortcuts="N">Deny… <kbd>N</kbd></button>
        </div>
      )}
      {failure ? <div className="approval-failure" role="alert">{failure}</div> : null}
    </div>
  );
}
