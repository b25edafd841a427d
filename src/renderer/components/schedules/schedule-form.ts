/**
 * The schedule editor's form as plain values (what the inputs hold, all text) and its conversions to and from a
 * Schedule, with the next occurrences it would have. Pure: Node tests load it.
 */
import type { BudgetCaps } from "../../../shared/agent/budget";
import type { PermissionProfile } from "../../../shared/protocol/permission-profiles";
import { scheduleProblem, type MissedPolicy, type Schedule, type ScheduleWhen } from "../../../shared/schedules/schedule";
import { nextOccurrences } from "../../../shared/schedules/timing";

export type WhenKind = ScheduleWhen["kind"];

export interface ScheduleForm {
  id: string;
  name: string;
  prompt: string;
  workspace: string;
  profile: PermissionProfile;
  /** Dollars, as typed ("" none). */
  costUsd: string;
  /** Minutes of a run, as typed ("" none). */
  minutes: string;
  /** Tokens of a run, as typed ("" none): the cap a model without pricing can reach. */
  tokens: string;
  /** Tool calls of a run, as typed ("" none). */
  toolCalls: string;
  kind: WhenKind;
  /** "HH:MM" (daily, weekdays). */
  time: string;
  /** A `datetime-local` input's value, local time (once; every N hours' start). */
  at: string;
  hours: string;
  cron: string;
  /** Continue this chat (its id) rather than a new chat each time. */
  continueChat: string | null;
  missed: MissedPolicy;
  enabled: boolean;
}

/** A `datetime-local` value for an instant, in this page's time zone. */
export function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A new schedule's form: daily at 09:00, in `workspace`, under `profile`. */
export function newForm(id: string, now: number, workspace = "", profile: PermissionProfile = "read-only"): ScheduleForm {
  return {
    id,
    name: "",
    prompt: "",
    workspace,
    profile,
    costUsd: "",
    minutes: "",
    tokens: "",
    toolCalls: "",
    kind: "daily",
    time: "09:00",
    at: localInput(now + 3_600_000),
    hours: "6",
    cron: "0 9 * * 1-5",
    continueChat: null,
    missed: "run-once",
    enabled: true,
  };
}

export function formOf(schedule: Schedule, now: number): ScheduleForm {
  const base = newForm(schedule.id, now, schedule.workspace, schedule.profile);
  const when = schedule.when;
  return {
    ...base,
    name: schedule.name,
    prompt: schedule.prompt,
    costUsd: schedule.budget.costUsd !== undefined ? String(schedule.budget.costUsd) : "",
    minutes: schedule.budget.minutes !== undefined ? String(schedule.budget.minutes) : "",
    tokens: schedule.budget.tokens !== undefined ? String(schedule.budget.tokens) : "",
    toolCalls: schedule.budget.toolCalls !== undefined ? String(schedule.budget.toolCalls) : "",
    kind: when.kind,
    ...(when.kind === "daily" || when.kind === "weekdays" ? { time: when.time } : {}),
    ...(when.kind === "once" ? { at: localInput(when.at) } : {}),
    ...(when.kind === "every" ? { hours: String(when.hours), at: localInput(when.from) } : {}),
    ...(when.kind === "cron" ? { cron: when.expression } : {}),
    continueChat: schedule.target === "new-chat" ? null : schedule.target.continue,
    missed: schedule.missed,
    enabled: schedule.enabled,
  };
}

/** The schedule the form describes, or the reason it is not one yet. */
export function scheduleOf(form: ScheduleForm): { ok: true; schedule: Schedule } | { ok: false; error: string } {
  const budget: BudgetCaps = {};
  if (form.costUsd.trim()) budget.costUsd = Number(form.costUsd);
  if (form.minutes.trim()) budget.minutes = Number(form.minutes);
  if (form.tokens.trim()) budget.tokens = Number(form.tokens);
  if (form.toolCalls.trim()) budget.toolCalls = Number(form.toolCalls);
  let when: ScheduleWhen;
  const at = Date.parse(form.at);
  switch (form.kind) {
    case "once":
      if (Number.isNaN(at)) return { ok: false, error: "Choose the date and time it runs." };
      when = { kind: "once", at };
      break;
    case "daily":
    case "weekdays":
      when = { kind: form.kind, time: form.time };
      break;
    case "every":
      if (Number.isNaN(at)) return { ok: false, error: "Choose when the first run is." };
      when = { kind: "every", hours: Number(form.hours), from: at };
      break;
    case "cron":
      when = { kind: "cron", expression: form.cron.trim() };
      break;
  }
  const schedule: Schedule = {
    id: form.id,
    name: form.name.trim() || form.prompt.trim().split("\n")[0].slice(0, 60),
    prompt: form.prompt,
    workspace: form.workspace.trim(),
    profile: form.profile,
    budget,
    when,
    target: form.continueChat ? { continue: form.continueChat } : "new-chat",
    missed: form.missed,
    enabled: form.enabled,
  };
  const problem = scheduleProblem(schedule);
  if (problem) return { ok: false, error: `${problem[0].toUpperCase()}${problem.slice(1)}.` };
  return { ok: true, schedule };
}

/** The next `count` occurrences of what the form says, in this page's time zone; [] while it is not valid. */
export function previewOccurrences(form: ScheduleForm, now: number, timeZone: string, count = 3): number[] {
  const built = scheduleOf({ ...form, prompt: form.prompt.trim() ? form.prompt : "preview" });
  return built.ok ? nextOccurrences(built.schedule.when, now, timeZone, count) : [];
}
