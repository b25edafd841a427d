/**
 * The schedules and what each did lately, kept by main in one file, `schedules.json` in the data folder (JsonFile:
 * written whole or not at all, one write after another). Electron-free.
 *
 * The file is checked in full when read (shared/schedules/schedule.ts). One that is not JSON, or holds an entry that
 * fails the checks, is copied aside unchanged (`schedules.corrupt-<time>.json`) and the user told: the entries that
 * were fine are kept, so nothing the user can still use is lost, and the rest is in the copy.
 */
import { Type, type Static } from "typebox";
import { RUNS_KEPT, scheduleProblem, type Schedule, type ScheduleRun } from "../../shared/schedules/schedule";
import { CHECKPOINT_ID_PATTERN } from "../../shared/protocol/changes";
import { JsonFile, type FileNotice } from "../broker/json-file";

export const SCHEDULES_FILE = "schedules.json";
export const MAX_SCHEDULES = 500;

const OUTCOMES = ["running", "finished", "failed", "stopped-by-budget", "stopped", "skipped"];

const SchedulesFileSchema = Type.Object(
  {
    version: Type.Literal(1),
    // Each entry's shape is checked by `rules` (the checks the page's editor uses too).
    schedules: Type.Array(Type.Unknown(), { maxItems: MAX_SCHEDULES }),
  },
  { additionalProperties: false },
);
type SchedulesFile = Static<typeof SchedulesFileSchema>;

/** One schedule as kept: its definition, its last runs (newest first), and up to when its occurrences were dealt with. */
export interface StoredSchedule {
  schedule: Schedule;
  runs: ScheduleRun[];
  /** Occurrences up to this instant (ms) have run, been skipped or were before the schedule was saved. */
  checkedUntil: number;
}

const CHECKPOINT = new RegExp(CHECKPOINT_ID_PATTERN);
const COUNT = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;

/** A run's changes as the chat's Changes panel opens them: two checkpoints (as the worker names them) and counts. */
function isRunChanges(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  return typeof c.from === "string" && CHECKPOINT.test(c.from) && typeof c.to === "string" && CHECKPOINT.test(c.to) && COUNT(c.files) && COUNT(c.added) && COUNT(c.removed);
}

/** Why `value` is not a StoredSchedule, or undefined. */
export function storedProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "an entry is not an object";
  const { schedule, runs, checkedUntil, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `an entry has an unknown field ${JSON.stringify(Object.keys(rest)[0]).slice(0, 60)}`;
  const problem = scheduleProblem(schedule);
  if (problem) return problem;
  if (!Number.isSafeInteger(checkedUntil) || (checkedUntil as number) < 0) return "an entry's checked time is not a time";
  if (!Array.isArray(runs) || runs.length > RUNS_KEPT) return `an entry's runs are a list of at most ${RUNS_KEPT}`;
  for (const run of runs) {
    const r = run as Record<string, unknown> | null;
    if (typeof r !== "object" || r === null || !Number.isSafeInteger(r.occurrence) || !Number.isSafeInteger(r.at) || !OUTCOMES.includes(r.outcome as string)) {
      return "a run is not a run";
    }
    if (r.chatId !== undefined && typeof r.chatId !== "string") return "a run's chat is not an id";
    if (r.reason !== undefined && typeof r.reason !== "string") return "a run's reason is not text";
    if (r.changes !== undefined && !isRunChanges(r.changes)) return "a run's changes are not two checkpoints and counts";
  }
  return undefined;
}

function rules(value: SchedulesFile): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const entry of value.schedules) {
    const problem = storedProblem(entry);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const id = (entry as StoredSchedule).schedule.id;
    if (ids.has(id)) problems.push(`two schedules have the id ${id}`);
    ids.add(id);
  }
  return problems;
}

export class ScheduleStore {
  readonly #file: JsonFile<typeof SchedulesFileSchema>;
  #entries: StoredSchedule[] = [];
  #last: Promise<unknown> = Promise.resolve();
  /** What the user should be told about the file (once, at start). */
  readonly notices: FileNotice[] = [];

  constructor(path: string) {
    this.#file = new JsonFile({
      path,
      title: "The schedules file",
      schema: SchedulesFileSchema,
      rules,
      recover: (parsed) => {
        const kept = keptEntries(parsed?.raw);
        const dropped = countOf(parsed?.raw) - kept.length;
        return {
          value: { version: 1, schedules: kept },
          outcome: kept.length > 0 ? `the ${kept.length} schedules that were fine are kept${dropped > 0 ? ` (${dropped} could not be read)` : ""}` : "no schedules run until you add them again",
        };
      },
    });
    const loaded = this.#file.load();
    if (loaded.notice) this.notices.push(loaded.notice);
    this.#entries = ((loaded.value?.schedules ?? []) as StoredSchedule[]).map(copy);
  }

  get path(): string {
    return this.#file.path;
  }

  list(): StoredSchedule[] {
    return this.#entries.map(copy);
  }

  get(id: string): StoredSchedule | undefined {
    const entry = this.#entries.find((e) => e.schedule.id === id);
    return entry ? copy(entry) : undefined;
  }

  /** Adds or replaces the entry of `entry.schedule.id`, and writes the file. Throws (nothing kept) for an invalid entry. */
  put(entry: StoredSchedule): Promise<void> {
    const problem = storedProblem(entry);
    if (problem) throw new Error(`Invalid schedule: ${problem}`);
    const at = this.#entries.findIndex((e) => e.schedule.id === entry.schedule.id);
    if (at < 0 && this.#entries.length >= MAX_SCHEDULES) throw new Error(`Paddock keeps at most ${MAX_SCHEDULES} schedules`);
    if (at < 0) this.#entries.push(copy(entry));
    else this.#entries[at] = copy(entry);
    return this.#write();
  }

  /** Removes a schedule; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e.schedule.id !== id);
    if (this.#entries.length === before) return false;
    await this.#write();
    return true;
  }

  /** Resolves once every write asked for so far has settled. */
  async flush(): Promise<void> {
    await this.#last;
  }

  #write(): Promise<void> {
    const write = this.#file.write({ version: 1, schedules: this.#entries.map(copy) });
    this.#last = write.catch(() => undefined);
    return write;
  }
}

function copy(entry: StoredSchedule): StoredSchedule {
  return structuredClone(entry);
}

function keptEntries(raw: unknown): StoredSchedule[] {
  const list = (raw as { schedules?: unknown } | null)?.schedules;
  if (!Array.isArray(list)) return [];
  const ids = new Set<string>();
  const kept: StoredSchedule[] = [];
  for (const entry of list.slice(0, MAX_SCHEDULES)) {
    if (storedProblem(entry)) continue;
    const id = (entry as StoredSchedule).schedule.id;
    if (ids.has(id)) continue;
    ids.add(id);
    kept.push(entry as StoredSchedule);
  }
  return kept;
}

function countOf(raw: unknown): number {
  const list = (raw as { schedules?: unknown } | null)?.schedules;
  return Array.isArray(list) ? list.length : 0;
}
