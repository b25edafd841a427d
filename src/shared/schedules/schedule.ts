/**
 * Schedules (issue 27 §4): a prompt run in the background at set times, under a contract set in advance (a
 * permission profile, a budget). The data and its checks, shared by main (which keeps and runs them,
 * main/schedules/) and the page (which edits and lists them). Pure; no Node, DOM or typebox.
 */
import { budgetCapsProblem, type BudgetCaps } from "../agent/budget";
import { isPermissionProfile, type PermissionProfile } from "../protocol/permission-profiles";
import { cronProblem } from "./cron";
import { SESSION_ID_PATTERN } from "../protocol/ids";

/** When a schedule runs. Local times are the computer's time zone's, wall-clock (they follow daylight saving). */
export type ScheduleWhen =
  /** Once, at this instant (ms since the epoch). */
  | { kind: "once"; at: number }
  /** Every day at `time` ("HH:MM", 24-hour, local). */
  | { kind: "daily"; time: string }
  /** Monday to Friday at `time` (local). */
  | { kind: "weekdays"; time: string }
  /** Every `hours` hours from `from` (ms since the epoch): elapsed time, not wall-clock. */
  | { kind: "every"; hours: number; from: number }
  /** A five-field cron expression (cron.ts), local. */
  | { kind: "cron"; expression: string };

/** A new chat per occurrence, or one chat continued each time. */
export type ScheduleTarget = "new-chat" | { continue: string };

/** An occurrence missed while Paddock was closed or the computer asleep: run once on the next start, or skip it. */
export type MissedPolicy = "run-once" | "skip";

export interface Schedule {
  id: string;
  name: string;
  prompt: string;
  /** The workspace folder the run works in (absolute); empty: no workspace. */
  workspace: string;
  profile: PermissionProfile;
  /** Caps on each occurrence's run. */
  budget: BudgetCaps;
  when: ScheduleWhen;
  target: ScheduleTarget;
  missed: MissedPolicy;
  enabled: boolean;
}

/** How one occurrence went. */
export type ScheduleOutcome = "running" | "finished" | "failed" | "stopped-by-budget" | "stopped" | "skipped";

export interface ScheduleRun {
  /** The occurrence's time (ms; for a run by hand, when it was asked). */
  occurrence: number;
  /** When it started (or was skipped). */
  at: number;
  outcome: ScheduleOutcome;
  /** Why it was skipped, failed or stopped; or a note ("missed while Paddock was closed: ran once"). */
  reason?: string;
  /** The chat it ran in. */
  chatId?: string;
  /** What its replies cost (costUnknown: some came from a model without pricing) and their tokens. */
  spend?: { cost: number; costUnknown: boolean; tokens: number };
  ended?: number;
  /**
   * What the run changed in its workspace, as the chat's Changes view counts it (read from the chat's worker when the
   * run ended): the checkpoints before and after the run, which the chat's Changes panel opens between, and the
   * counts ("3 files changed"). Absent when it changed no file, or the chat records no checkpoints.
   */
  changes?: RunChanges;
  /** Run by hand ("Run now"), not at an occurrence. */
  byHand?: boolean;
}

/** A run's changes (ScheduleRun.changes): between two of the chat's checkpoints (protocol/changes.ts CheckpointId). */
export interface RunChanges {
  from: string;
  to: string;
  files: number;
  added: number;
  removed: number;
}

/** A schedule as listed: its definition, what happened lately (newest first) and its next occurrence. */
export interface ScheduleView {
  schedule: Schedule;
  runs: ScheduleRun[];
  /** The next occurrence's time (ms), or undefined when there is none (a past "once", a disabled schedule). */
  next?: number;
}

export const MAX_SCHEDULE_NAME = 200;
export const MAX_SCHEDULE_PROMPT = 100_000;
export const MAX_EVERY_HOURS = 24 * 366;
/** Runs remembered per schedule. */
export const RUNS_KEPT = 20;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The hours and minutes of "HH:MM", or undefined when it is not one. */
export function parseTime(time: string): { hour: number; minute: number } | undefined {
  const match = typeof time === "string" ? TIME.exec(time) : null;
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : undefined;
}

/** Why `value` is not a valid ScheduleWhen, or undefined. Never throws. */
export function whenProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "when it runs must be given";
  const when = value as Record<string, unknown>;
  const keys = Object.keys(when);
  const only = (...names: string[]) => keys.every((k) => k === "kind" || names.includes(k)) || `unknown field in when it runs: ${keys.find((k) => k !== "kind" && !names.includes(k))}`;
  switch (when.kind) {
    case "once": {
      const extra = only("at");
      if (extra !== true) return extra;
      return Number.isSafeInteger(when.at) && (when.at as number) > 0 ? undefined : "a one-off schedule needs a time";
    }
    case "daily":
    case "weekdays": {
      const extra = only("time");
      if (extra !== true) return extra;
      return parseTime(when.time as string) ? undefined : `the time must be HH:MM (24-hour), not ${JSON.stringify(when.time)?.slice(0, 20)}`;
    }
    case "every": {
      const extra = only("hours", "from");
      if (extra !== true) return extra;
      if (!Number.isInteger(when.hours) || (when.hours as number) < 1 || (when.hours as number) > MAX_EVERY_HOURS) {
        return `every N hours needs N a whole number from 1 to ${MAX_EVERY_HOURS}`;
      }
      return Number.isSafeInteger(when.from) && (when.from as number) > 0 ? undefined : "every N hours needs a start time";
    }
    case "cron": {
      const extra = only("expression");
      if (extra !== true) return extra;
      return typeof when.expression === "string" ? cronProblem(when.expression) : "a cron schedule needs an expression";
    }
    default:
      return `unknown kind of schedule ${JSON.stringify(when.kind)?.slice(0, 40)}`;
  }
}

const SCHEDULE_KEYS = ["id", "name", "prompt", "workspace", "profile", "budget", "when", "target", "missed", "enabled"];

/** Why `value` is not a valid Schedule, or undefined. Never throws. */
export function scheduleProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "a schedule must be an object";
  const s = value as Record<string, unknown>;
  const unknown = Object.keys(s).find((k) => !SCHEDULE_KEYS.includes(k));
  if (unknown !== undefined) return `unknown schedule field ${JSON.stringify(unknown).slice(0, 60)}`;
  if (typeof s.id !== "string" || !ID.test(s.id)) return "a schedule's id must be 1-64 letters, digits, - or _";
  if (typeof s.name !== "string" || s.name.length > MAX_SCHEDULE_NAME) return `a schedule's name is text of at most ${MAX_SCHEDULE_NAME} characters`;
  if (typeof s.prompt !== "string" || !s.prompt.trim()) return "a schedule needs a prompt";
  if (s.prompt.length > MAX_SCHEDULE_PROMPT) return `a schedule's prompt has at most ${MAX_SCHEDULE_PROMPT.toLocaleString("en-US")} characters`;
  if (typeof s.workspace !== "string" || s.workspace.length > 4096 || s.workspace.includes("\0")) return "a schedule's workspace must be a folder's path";
  if (!isPermissionProfile(s.profile)) return `unknown permission profile ${JSON.stringify(s.profile)?.slice(0, 60)}`;
  const budget = budgetCapsProblem(s.budget, "schedule's budget");
  if (budget) return budget;
  const when = whenProblem(s.when);
  if (when) return when;
  if (s.target !== "new-chat") {
    const target = s.target as Record<string, unknown> | null;
    if (typeof target !== "object" || target === null || Object.keys(target).join() !== "continue" || typeof target.continue !== "string" || !SESSION_ID_PATTERN.test(target.continue)) {
      return 'a schedule\'s target is "new-chat" or the chat it continues';
    }
  }
  if (s.missed !== "run-once" && s.missed !== "skip") return 'a missed occurrence is "run-once" or "skip"';
  if (typeof s.enabled !== "boolean") return "a schedule is enabled or not";
  return undefined;
}

/** The words for when a schedule runs ("Weekdays at 09:00"). */
export function describeWhen(when: ScheduleWhen, format: (ms: number) => string = (ms) => new Date(ms).toLocaleString()): string {
  switch (when.kind) {
    case "once":
      return `Once, ${format(when.at)}`;
    case "daily":
      return `Daily at ${when.time}`;
    case "weekdays":
      return `Weekdays at ${when.time}`;
    case "every":
      return when.hours === 1 ? "Every hour" : `Every ${when.hours} hours`;
    case "cron":
      return `Cron ${when.expression}`;
  }
}
