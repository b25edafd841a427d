import { memo, useEffect, useRef, useState } from "react";
import { errorText } from "../../../shared/error-text";
import { planPreview } from "./plan-preview";

export interface PlanCardProps {
  /** The planning run's reply: the plan. */
  plan: string;
  /** The act profile approving returns the chat to, by name. */
  actLabel: string;
  /** The plan was one message's own (sent in Plan for this message): the chat never left its act profile. */
  once?: boolean;
  /** Why approving is impossible now (the chat is not connected, no model); undefined: it is possible. */
  blockedReason?: string;
  /** Leaves Plan mode and sends `plan` (as approved, perhaps edited) as the instruction. */
  onApprove(plan: string): Promise<void>;
  /** Stays in Plan mode: the card steps aside and the focus goes to the composer. */
  onKeepPlanning(): void;
}

/**
 * A planning run's reply awaiting the user's word (issue 27 §1), above the composer: "Approve and run" (back to the
 * act profile, the plan sent as a user message quoting it), "Edit plan" (the plan's text edited in place, then
 * approved) and "Keep planning". A failed approval keeps the card, the edited text and the chat in Plan mode.
 */
export const PlanCard = memo(function PlanCard({ plan, actLabel, once = false, blockedReason, onApprove, onKeepPlanning }: PlanCardProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(plan);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  /** Leaving the editor from the keyboard (Esc, Discard edits) puts the focus on "Edit plan", where it came from. */
  const refocusEdit = useRef(false);

  useEffect(() => {
    if (editing) editor.current?.focus();
    else if (refocusEdit.current) editButton.current?.focus();
    refocusEdit.current = false;
  }, [editing]);

  const leaveEditor = (discard: boolean) => {
    refocusEdit.current = true;
    setEditing(false);
    if (discard) setDraft(plan);
  };

  const approve = (text: string) => {
    if (!text.trim()) {
      setFailure("The plan is empty: write what the agent should do, or Keep planning.");
      return;
    }
    setBusy(true);
    setFailure(null);
    onApprove(text).catch((e: unknown) => {
      setFailure(errorText(e));
      setBusy(false);
    });
  };

  const firstLine = planPreview(plan);
  return (
    <div className="plan-card" role="region" aria-label="Plan to approve" data-testid="plan-card">
      <div className="plan-card-head">
        <span className="plan-card-title">Plan ready</span>
        {editing ? (
          <span className="muted">Edit the plan, then approve it: the agent carries it out under {actLabel}.</span>
        ) : (
          <span className="plan-card-preview" title={plan}>{firstLine}</span>
        )}
      </div>
      {editing ? (
        <textarea ref={editor} value={draft} onChange={(e) => setDraft(e.target.value)} aria-label="The plan" data-testid="plan-editor"
          dir="auto" onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation(); // Esc leaves the editor; it does not stop anything else
              leaveEditor(false);
            }
          }} />
      ) : null}
      <div className="plan-card-actions">
        <button type="button" className="btn btn-primary" data-testid="plan-approve" disabled={busy || Boolean(blockedReason)}
          title={blockedReason ?? (once ? `Send the plan as the instruction, carried out under ${actLabel}` : `Leave Plan mode (back to ${actLabel}) and send the plan as the instruction`)}
          onClick={() => approve(editing ? draft : plan)}>
          Approve and run
        </button>
        {editing ? (
          <button type="button" className="btn btn-ghost" data-testid="plan-edit-cancel" disabled={busy} onClick={() => leaveEditor(true)}>Discard edits</button>
        ) : (
          <button ref={editButton} type="button" className="btn btn-secondary" data-testid="plan-edit" disabled={busy} onClick={() => setEditing(true)}>Edit plan</button>
        )}
        <button type="button" className="btn btn-ghost" data-testid="plan-keep" disabled={busy} onClick={onKeepPlanning}
          title={once ? "Tell the agent more: your next message plans too" : "Stay in Plan mode and tell the agent more"}>Keep planning</button>
      </div>
      {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
    </div>
  );
});
