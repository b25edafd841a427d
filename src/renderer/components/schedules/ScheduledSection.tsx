import { useCallback, useEffect, useRef, useState } from "react";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";
import { costText } from "../../../shared/agent/budget";
import type { ScheduleView } from "../../../shared/schedules/schedule";
import { formOf, newForm } from "./schedule-form";
import { RUN_SPAN_LABEL, runChangesText, runSummary, scheduleSwitchLabel, scheduleTitle, scheduleWhenLine } from "./scheduled-list";
import { ScheduleEditor } from "./ScheduleEditor";
import { DiffIcon, PencilIcon, TrashIcon } from "../common/icons";
import "../../styles/schedules.css";

interface ScheduledSectionProps {
  /** The chat shown now (a schedule may continue it; a new one starts in its workspace). */
  chat?: { id: string; title: string; workspace?: string };
  onOpen(chatId: string): void;
  /** Opens the chat with its Changes panel on the run's span (its "3 files changed"). */
  onOpenChanges(chatId: string, span: { from: string; to: string; label: string }): void;
  onError(error: unknown): void;
}

const shortTime = (ms: number) => new Date(ms).toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });

/**
 * The sidebar's "Scheduled" part (issue 27 §4): "Schedule…", and each schedule with its on/off switch, when it runs
 * next (or "Paused"), its last result (a link to its chat, what it spent, why it was skipped or stopped), Run now,
 * Edit, Delete. Main pushes every change ("schedules" events); the list is asked for once.
 */
export function ScheduledSection({ chat, onOpen, onOpenChanges, onError }: ScheduledSectionProps) {
  const services = useServices();
  const { app } = services;
  const [views, setViews] = useState<ScheduleView[]>([]);
  const [editing, setEditing] = useState<{ view?: ScheduleView } | null>(null);
  // Delete asks once, in place (a schedule and its run history cannot be brought back); the focus then goes to
  // "Schedule…" rather than to the page's body where the removed row was.
  const [deleting, setDeleting] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    app.listSchedules().then((list) => live && setViews(list), () => undefined);
    const off = services.onEvent((event) => {
      if (event.type === "schedules") setViews(event.schedules);
    });
    return () => {
      live = false;
      off();
    };
  }, [app, services]);

  const close = useCallback(() => setEditing(null), []);
  const act = (work: Promise<unknown>) => void work.catch((e: unknown) => onError(new Error(errorText(e))));

  return (
    <section className="scheduled" aria-label="Scheduled" data-testid="scheduled">
      <div className="scheduled-header">
        <h2 className="group-label">Scheduled</h2>
        <button ref={newButton} type="button" className="btn btn-ghost scheduled-new" onClick={() => setEditing({})} data-testid="schedule-new"
          title="Run a prompt in the background at set times">
          Schedule…
        </button>
      </div>
      {views.length > 0 ? (
        <ul className="scheduled-list">
          {views.map((view) => {
            const { schedule } = view;
            const last = view.runs[0];
            const changed = last ? runChangesText(last) : undefined;
            const summary = last ? runSummary(last) : undefined;
            return (
              <li key={schedule.id} className={`scheduled-item${schedule.enabled ? "" : " scheduled-paused"}`} data-testid="scheduled-item" data-enabled={schedule.enabled}>
                <div className="scheduled-title">
                  <div className="scheduled-name" title={schedule.prompt}>{scheduleTitle(view)}</div>
                  <button type="button" role="switch" aria-checked={schedule.enabled} className="schedule-switch" data-testid="scheduled-switch"
                    aria-label={scheduleSwitchLabel(view)} title={schedule.enabled ? "On: runs at its times (click to pause)" : "Paused: click to run it at its times again"}
                    onClick={() => act(app.setScheduleEnabled(schedule.id, !schedule.enabled))}>
                    <span className="schedule-switch-knob" aria-hidden="true" />
                  </button>
                </div>
                <div className="scheduled-when muted" data-testid="scheduled-when">{scheduleWhenLine(view, shortTime)}</div>
                {last && summary ? (
                  <div className={`scheduled-last scheduled-${last.outcome}`} data-testid="scheduled-last">
                    {summary.status}
                    {last.spend && summary.showSpend ? ` · ${costText(last.spend)}` : ""}
                    {last.chatId ? <> · <button type="button" className="link-button" onClick={() => onOpen(last.chatId!)} data-testid="scheduled-chat">open chat</button></> : null}
                    {last.chatId && last.changes && changed ? (
                      <> · <button type="button" className="link-button scheduled-changes" data-testid="scheduled-changes"
                        title={`What this run changed in the workspace (+${last.changes.added} −${last.changes.removed})`}
                        onClick={() => onOpenChanges(last.chatId!, { from: last.changes!.from, to: last.changes!.to, label: RUN_SPAN_LABEL })}>
                        <DiffIcon />{changed}
                      </button></>
                    ) : null}
                    {summary.reason ? <div className="scheduled-reason muted">{summary.reason}</div> : null}
                  </div>
                ) : <div className="scheduled-last muted">Not run yet</div>}
                {deleting === schedule.id ? (
                  <div className="scheduled-actions scheduled-confirm" role="group" aria-label={`Delete ${scheduleTitle(view)}?`}>
                    <span>Delete this schedule and its history?</span>
                    <button type="button" className="link-button scheduled-confirm-delete" data-testid="scheduled-delete-confirm"
                      onClick={() => {
                        setDeleting(null);
                        newButton.current?.focus();
                        act(app.deleteSchedule(schedule.id));
                      }}>Delete</button>
                    <button type="button" className="link-button" autoFocus data-testid="scheduled-delete-cancel"
                      onClick={() => setDeleting(null)} onKeyDown={(e) => e.key === "Escape" && setDeleting(null)}>Keep</button>
                  </div>
                ) : (
                  <div className="scheduled-actions">
                    <button type="button" className="link-button" onClick={() => act(app.runScheduleNow(schedule.id))} data-testid="scheduled-run-now">Run now</button>
                    <button type="button" className="icon-button" onClick={() => setEditing({ view })} aria-label={`Edit ${scheduleTitle(view)}`} data-testid="scheduled-edit"><PencilIcon /></button>
                    <button type="button" className="icon-button" onClick={() => setDeleting(schedule.id)} aria-label={`Delete ${scheduleTitle(view)}`} data-testid="scheduled-delete"><TrashIcon /></button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      {editing ? (
        <ScheduleEditor
          initial={editing.view ? formOf(editing.view.schedule, Date.now()) : newForm(newId(), Date.now(), chat?.workspace ?? "")}
          {...(chat ? { chat: { id: chat.id, title: chat.title } } : {})}
          editing={editing.view !== undefined}
          onSaved={close}
          onCancel={close} />
      ) : null}
    </section>
  );
}

function newId(): string {
  return crypto.randomUUID();
}
