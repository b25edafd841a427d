/**
 * The sidebar's Scheduled list, its decisions in a plain module Node tests load: how a schedule's line reads (when it
 * runs, and next; or that it is paused), its switch's name, and its last run's Changes link.
 */
import { describeWhen, type ScheduleRun, type ScheduleView } from "../../../shared/schedules/schedule";

/**
 * A schedule's second line: "Daily at 09:00 · next Thu 09:00", or "Daily at 09:00 · Paused" (no next run when off).
 * A once schedule's time is already its next run, so it is not said twice.
 */
export function scheduleWhenLine(view: ScheduleView, format: (ms: number) => string): string {
  const when = describeWhen(view.schedule.when, format);
  if (!view.schedule.enabled) return `${when} · Paused`;
  if (view.schedule.when.kind === "once") return when;
  return view.next !== undefined ? `${when} · next ${format(view.next)}` : when;
}

const OUTCOME_TEXT: Record<ScheduleRun["outcome"], string> = {
  running: "Running",
  finished: "Finished",
  failed: "Failed",
  "stopped-by-budget": "Stopped at its budget",
  stopped: "Stopped",
  skipped: "Skipped",
};

/**
 * How a schedule's last run reads: its status, what it spent (shown unless the status says it), and why (a sentence).
 * A budget stop's reason already names the cap and the spend ("Stopped at the $2.00 budget: 41 tool calls, …"), so it
 * is the status itself rather than "Stopped at its budget" followed by the same words again.
 */
export function runSummary(run: Pick<ScheduleRun, "outcome" | "reason">): { status: string; reason?: string; showSpend: boolean } {
  const reason = run.reason ? sentence(run.reason) : undefined;
  if (run.outcome === "stopped-by-budget" && reason) return { status: reason, showSpend: false };
  return { status: OUTCOME_TEXT[run.outcome], ...(reason ? { reason } : {}), showSpend: true };
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** What the list calls a schedule: its name, else its prompt's first words. */
export function scheduleTitle(view: Pick<ScheduleView, "schedule">): string {
  const { name, prompt } = view.schedule;
  const line = (name.trim() || prompt).replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** The on/off switch's accessible name, naming the schedule (its state is the switch's aria-checked). */
export function scheduleSwitchLabel(view: Pick<ScheduleView, "schedule">): string {
  return `Run “${scheduleTitle(view)}” on its schedule`;
}

/** A run's Changes link text ("3 files changed"), or undefined when the run changed no file (no link then). */
export function runChangesText(run: Pick<ScheduleRun, "changes">): string | undefined {
  const files = run.changes?.files ?? 0;
  if (files <= 0) return undefined;
  return `${files.toLocaleString("en-US")} ${files === 1 ? "file" : "files"} changed`;
}

/** The Changes panel's name for a run's span, in its "since" chooser (short: the chooser is narrow). */
export const RUN_SPAN_LABEL = "This scheduled run";
