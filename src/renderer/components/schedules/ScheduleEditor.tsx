import { useId, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useServices } from "../../context/ServicesContext";
import { useModalDialog } from "../common/use-modal-dialog";
import { errorText } from "../../../shared/error-text";
import { PROFILE_MENU_ORDER, PROFILE_TEXT } from "../../../shared/protocol/permission-profiles";
import type { Schedule } from "../../../shared/schedules/schedule";
import { previewOccurrences, scheduleOf, type ScheduleForm, type WhenKind } from "./schedule-form";
import "../../styles/dialog.css";
import "../../styles/schedules.css";

interface ScheduleEditorProps {
  /** The form to start from (a new schedule's, or an existing one's). */
  initial: ScheduleForm;
  /** The chat shown now, which the schedule may continue instead of starting a new chat each time. */
  chat?: { id: string; title: string };
  /** Saving an existing schedule (its title says "Edit"). */
  editing?: boolean;
  onSaved(schedule: Schedule): void;
  onCancel(): void;
}

const KINDS: { kind: WhenKind; label: string }[] = [
  { kind: "once", label: "Once" },
  { kind: "daily", label: "Daily" },
  { kind: "weekdays", label: "Weekdays" },
  { kind: "every", label: "Every N hours" },
  { kind: "cron", label: "Cron expression" },
];

/** A run's caps, in the Budget dialog's order (shared/agent/budget.ts BudgetCaps). */
const CAP_FIELDS: { key: "costUsd" | "tokens" | "minutes" | "toolCalls"; label: string; step: string; testId: string }[] = [
  { key: "costUsd", label: "Money ($)", step: "0.01", testId: "schedule-cost" },
  { key: "tokens", label: "Tokens", step: "1", testId: "schedule-tokens" },
  { key: "minutes", label: "Minutes", step: "1", testId: "schedule-minutes" },
  { key: "toolCalls", label: "Tool calls", step: "1", testId: "schedule-tool-calls" },
];

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const when = (ms: number) => new Date(ms).toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

/**
 * "Schedule…": a prompt run in the background at set times (shared/schedules), under the contract set here: the
 * workspace, the permission profile, a budget per run. When it runs shows the next three occurrences in local time as
 * the user types; main checks the schedule again as it saves (a workspace that is not a folder is said here).
 */
export function ScheduleEditor({ initial, chat, editing, onSaved, onCancel }: ScheduleEditorProps) {
  const { app } = useServices();
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const [form, setForm] = useState(initial);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useModalDialog(dialog, first, onCancel);
  const set = <K extends keyof ScheduleForm>(key: K, value: ScheduleForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const next = useMemo(() => previewOccurrences(form, Date.now(), timeZone()), [form]);
  const built = scheduleOf(form);

  // A "when" that has no run shows its problem in the Next line already; Save then points at it rather than saying
  // the same words a second time in an alert.
  const problemShown = !built.ok && next.length === 0;
  const save = () => {
    if (!built.ok) {
      if (!problemShown) return setFailure(built.error);
      setFailure(null);
      const field = (id: string) => dialog.current?.querySelector<HTMLElement>(`[data-testid=${id}]`);
      (field("schedule-cron") ?? field("schedule-kind"))?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    app.saveSchedule(built.schedule).then((view) => onSaved(view.schedule), (e: unknown) => setFailure(errorText(e))).finally(() => setBusy(false));
  };

  return createPortal(
    <dialog ref={dialog} className="confirm-dialog schedule-dialog" aria-labelledby={titleId} data-testid="schedule-dialog">
      <h2 id={titleId} className="confirm-dialog-title">{editing ? "Edit schedule" : "Schedule a run"}</h2>
      <form onSubmit={(e) => {
        e.preventDefault();
        save();
      }}>
        <label className="schedule-field">
          <span>Prompt</span>
          <textarea ref={first} rows={3} value={form.prompt} onChange={(e) => set("prompt", e.target.value)} placeholder="What the agent should do each time"
            data-testid="schedule-prompt" />
        </label>
        <div className="schedule-row">
          <label className="schedule-field">
            <span>Name</span>
            <input value={form.name} onChange={(e) => set("name", e.target.value)} placeholder="From the prompt" data-testid="schedule-name" />
          </label>
          <label className="schedule-field">
            <span>Workspace</span>
            <input value={form.workspace} onChange={(e) => set("workspace", e.target.value)} placeholder="No workspace" spellCheck={false}
              data-testid="schedule-workspace" />
          </label>
          <label className="schedule-field">
            <span>Permissions</span>
            <select value={form.profile} onChange={(e) => set("profile", e.target.value as ScheduleForm["profile"])} data-testid="schedule-profile">
              {PROFILE_MENU_ORDER.map((p) => <option key={p} value={p}>{PROFILE_TEXT[p].label}</option>)}
            </select>
          </label>
        </div>
        <p className="schedule-help muted">{PROFILE_TEXT[form.profile].allows} A call it leaves to a question is parked: a notification asks, and with no answer by the end of the run it is denied. The profile and budget bind the schedule's runs only: a chat it continues keeps its own.</p>
        <fieldset className="schedule-caps">
          <legend>Caps on each run</legend>
          <div className="schedule-row">
            {CAP_FIELDS.map(({ key, label, step, testId }) => (
              <label key={key} className="schedule-field">
                <span>{label}</span>
                <input type="number" min="0" step={step} value={form[key]} onChange={(e) => set(key, e.target.value)} placeholder="No cap" data-testid={testId} />
              </label>
            ))}
          </div>
          <p className="schedule-help muted">A run that reaches one stops, saying why. Money counts only where the model has pricing: for a custom endpoint or a local model, cap its tokens or time.</p>
        </fieldset>
        <fieldset className="schedule-when">
          <legend>When</legend>
          <div className="schedule-row">
            <select value={form.kind} onChange={(e) => set("kind", e.target.value as WhenKind)} aria-label="How often" data-testid="schedule-kind">
              {KINDS.map((k) => <option key={k.kind} value={k.kind}>{k.label}</option>)}
            </select>
            {form.kind === "daily" || form.kind === "weekdays" ? (
              <input type="time" value={form.time} onChange={(e) => set("time", e.target.value)} aria-label="At" data-testid="schedule-time" />
            ) : null}
            {form.kind === "every" ? (
              <>
                <input type="number" className="schedule-hours" min="1" step="1" value={form.hours} onChange={(e) => set("hours", e.target.value)} aria-label="Hours"
                  data-testid="schedule-hours" />
                <span className="muted">hours, from</span>
              </>
            ) : null}
            {form.kind === "once" || form.kind === "every" ? (
              <input type="datetime-local" value={form.at} onChange={(e) => set("at", e.target.value)} aria-label={form.kind === "once" ? "At" : "First run"}
                data-testid="schedule-at" />
            ) : null}
            {form.kind === "cron" ? (
              <input className="schedule-cron" value={form.cron} aria-invalid={problemShown} aria-describedby="schedule-next" onChange={(e) => set("cron", e.target.value)} spellCheck={false}
                aria-label="Cron expression (minute hour day month weekday)" placeholder="minute hour day month weekday" data-testid="schedule-cron" />
            ) : null}
          </div>
          <div className="schedule-next" id="schedule-next" role="status" data-testid="schedule-next">
            {next.length > 0 ? <>Next: {next.map((t) => <span key={t} className="schedule-next-time">{when(t)}</span>)}</>
              : built.ok ? "It will not run again." : <span className="schedule-problem">{built.error}</span>}
          </div>
        </fieldset>
        <div className="schedule-row schedule-choices">
          <fieldset>
            <legend>Each run</legend>
            <label><input type="radio" name="target" checked={form.continueChat === null} onChange={() => set("continueChat", null)} /> in a new chat</label>
            {chat || form.continueChat ? (
              <label title={chat?.title}>
                <input type="radio" name="target" checked={form.continueChat !== null} onChange={() => set("continueChat", chat?.id ?? form.continueChat)}
                  data-testid="schedule-continue" /> continues {chat && (form.continueChat === null || form.continueChat === chat.id) ? "this chat" : "its chat"}
              </label>
            ) : null}
          </fieldset>
          <fieldset>
            <legend>If Paddock was closed or asleep</legend>
            <label><input type="radio" name="missed" checked={form.missed === "run-once"} onChange={() => set("missed", "run-once")} /> run once when it starts</label>
            <label><input type="radio" name="missed" checked={form.missed === "skip"} onChange={() => set("missed", "skip")} data-testid="schedule-skip" /> skip it</label>
          </fieldset>
        </div>
        {failure ? <div className="notice notice-error" role="alert" data-testid="schedule-failure">{failure}</div> : null}
        <div className="confirm-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="schedule-save">{editing ? "Save" : "Schedule"}</button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
