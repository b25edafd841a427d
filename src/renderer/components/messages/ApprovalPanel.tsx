import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import type { ApprovalAnswer, ApprovalRequest } from "../../../shared/protocol/session-protocol";
import { errorText } from "../../../shared/error-text";
import { shortcut } from "../../../shared/shortcuts";
import { DiffView } from "./DiffView";
import { VisibleText } from "../common/VisibleText";
import { visibleText } from "../../../shared/security/hidden-characters";
import { Keys, onMac } from "../common/Keys";
import { ACTIVATION_DELAY_MS, mayTakeFocus } from "./approval-focus";

interface ApprovalPanelProps {
  request: ApprovalRequest;
  answer(answer: ApprovalAnswer, reason?: string): Promise<void>;
  /** The oldest question: it takes the keyboard focus when it appears, if nothing else has it (`mayTakeFocus`). */
  focus: boolean;
}

/**
 * A tool call waiting for the user, inside its card: what it would do (the diff for a file change), and Allow once,
 * Allow for this chat, Allow for this project (every chat in the workspace's folder), or Deny with a reason the model
 * is told; a sandboxed command's network question ("npm wants registry.npmjs.org") has no "for this chat". Each
 * button names exactly what it allows. Keys while it has the focus: Y allows once, A for the chat, P for the
 * project, N denies (then Enter sends the reason, Esc goes back). The text shows every character that does not
 * show as itself (`VisibleText`), left to right whatever it holds. Its buttons and keys do nothing for
 * `ACTIVATION_DELAY_MS` after it appears or gets the focus from outside (not by a click), so a key meant for
 * something else cannot answer it; meanwhile they show as not yet usable. When the focus leaves with the answer, it
 * goes back to where it came from (the message box, after Ctrl/Cmd+Shift+A).
 */
export function ApprovalPanel({ request, answer, focus }: ApprovalPanelProps) {
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const first = useRef<HTMLButtonElement>(null);
  const reasonInput = useRef<HTMLInputElement>(null);
  const arming = useActivationDelay();
  /** What had the focus before it came into the question, to give it back after the answer. */
  const cameFrom = useRef<HTMLElement | null>(null);
  const pointing = useRef(false);
  const movingWithin = useRef(false);

  useEffect(() => {
    if (focus && mayTakeFocus()) first.current?.focus();
  }, [focus]);
  const backFromDenying = useRef(false);
  useEffect(() => {
    movingWithin.current = true;
    if (denying) reasonInput.current?.focus();
    else if (backFromDenying.current) first.current?.focus();
    movingWithin.current = false;
    backFromDenying.current = false;
  }, [denying]);
  useEffect(() => () => {
    // Unmounted with the focus inside (answered): it fell to the page's body; give it back.
    const back = cameFrom.current;
    if (back?.isConnected && mayTakeFocus()) back.focus();
  }, []);

  const send = (choice: ApprovalAnswer, why?: string) => {
    if (!arming.ready()) return;
    setBusy(true);
    setFailure(null);
    answer(choice, why).catch((error: unknown) => {
      setBusy(false);
      setFailure(errorText(error));
    });
  };
  const startDenying = () => {
    if (arming.ready()) setDenying(true);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (denying || busy || e.metaKey || e.ctrlKey || e.altKey || e.nativeEvent.isComposing) return;
    const key = e.key.toLowerCase();
    if (!arming.ready()) {
      // Too soon: not an answer, and not a press of the focused button either.
      if (key === "y" || key === "a" || key === "p" || key === "n" || key === " " || key === "enter") e.preventDefault();
      return;
    }
    if (key === "y") send("once");
    else if (key === "a" && request.scope) send("chat");
    else if (key === "p" && request.project) send("project");
    else if (key === "n") setDenying(true);
    else return;
    e.preventDefault();
  };

  // A click chose what it clicked; any other way in (taken at appearance, Tab, the shortcut) may be a surprise.
  const onPointerDown = () => {
    pointing.current = true;
    window.addEventListener("pointerup", () => (pointing.current = false), { once: true, capture: true });
  };
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const from = e.relatedTarget instanceof HTMLElement ? e.relatedTarget : null;
    if (from && e.currentTarget.contains(from)) return;
    if (movingWithin.current) return;
    cameFrom.current = from;
    if (!pointing.current) arming.arm();
  };
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    // Left for somewhere else on purpose (Tab, a click on a field): nothing to give back. Not when it merely fell
    // to the body (the focused button went away with the answer).
    if (e.relatedTarget instanceof Node && !e.currentTarget.contains(e.relatedTarget)) cameFrom.current = null;
  };

  const disabled = arming.waiting ? { "aria-disabled": true } : {};
  return (
    <div className={`approval${arming.waiting ? " approval-arming" : ""}`} data-testid="approval" data-approval-id={request.toolCallId}
      role="group" aria-label={request.network ? "Approve network access" : `Approve ${visibleText(request.toolName)}`} onKeyDown={onKeyDown} onFocus={onFocus} onBlur={onBlur}
      onPointerDown={onPointerDown}>
      <div className="approval-question">
        <strong>{request.network ? "Allow network access?" : <>Allow <VisibleText text={request.toolName} />?</>}</strong>
        <span className="approval-goto">
          <Keys chord={shortcut("go-to-question").keys} mac={onMac()} /> goes here
        </span>
      </div>
      <code className="approval-summary" dir="ltr"><VisibleText text={request.summary} /></code>
      {request.parked ? (
        <p className="approval-parked" data-testid="approval-parked">
          Parked: asked while nobody was watching, so the run went on where it could. Unanswered when the run ends, or after the time Settings → Tools give an unanswered question, the call is denied.
        </p>
      ) : null}
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
          <button ref={first} type="button" className="btn btn-primary" disabled={busy} onClick={() => send("once")} {...disabled}
            data-testid="approval-once" aria-keyshortcuts="Y">Allow once <kbd>Y</kbd></button>
          {request.scope ? (
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => send("chat")} {...disabled}
              data-testid="approval-chat" aria-keyshortcuts="A">Allow <code dir="ltr"><VisibleText text={request.scope} /></code> in this chat <kbd>A</kbd></button>
          ) : null}
          {request.project ? (
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => send("project")} {...disabled}
              data-testid="approval-project" aria-keyshortcuts="P">Allow <code dir="ltr"><VisibleText text={request.project} /></code> in this project <kbd>P</kbd></button>
          ) : null}
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={startDenying} {...disabled}
            data-testid="approval-deny" aria-keyshortcuts="N">Deny… <kbd>N</kbd></button>
        </div>
      )}
      {failure ? <div className="approval-failure" role="alert">{failure}</div> : null}
    </div>
  );
}

/**
 * The activation delay: `arm()` starts it (on mount, and when the focus comes in); `ready()` says whether it is over
 * now (read when a key or click arrives, not from the last render); `waiting` re-renders the buttons when it ends.
 */
function useActivationDelay(): { arm(): void; ready(): boolean; waiting: boolean } {
  const readyAt = useRef(Number.POSITIVE_INFINITY);
  const [waiting, setWaiting] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const arm = useCallback(() => {
    readyAt.current = performance.now() + ACTIVATION_DELAY_MS;
    setWaiting(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setWaiting(false), ACTIVATION_DELAY_MS);
  }, []);
  const ready = useCallback(() => performance.now() >= readyAt.current, []);
  // Before the browser paints the question, so no event can reach it unarmed.
  useLayoutEffect(() => {
    arm();
    return () => clearTimeout(timer.current);
  }, [arm]);
  return { arm, ready, waiting };
}
