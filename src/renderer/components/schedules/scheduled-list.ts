/**
 * The sidebar's Scheduled list, its decisions in a plain module Node tests load: how a schedule's line reads (when it
 * runs, and next; or that it is paused), its switch's name, and its last run's Changes link.
 */
import { describeWhen, type ScheduleRun, type ScheduleView } from "../../../shared/schedules/schedule";

/** A schedule's second line: "Daily at 09:00 · next Thu 09:00", or "Daily at 09:00 · Paused" (no next run when off). */
export function scheduleWhenLine(view: ScheduleView, format: (ms: number) => string): string {
  const when = describeWhen(view.schedule.when, format);
  if (!view.schedule.enabled) return `${when} · Paused`;
  return view.next !== undefined ? `${when} · next ${format(view.next)}` : when;
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
