/**
 * The month's spending across all chats (issue 27 §3), kept by main in `monthly-spend.json` in the data folder, so it
 * survives restarts. Electron-free.
 *
 * Every session's worker reports, with its status, what its replies have cost since it opened the session (`spend`:
 * that opening's id and a growing total, subagents' sessions too); the ledger adds what is new. The month is the
 * calendar month in local time: a report in a new month starts the count afresh. With Settings' cap reached, new
 * runs are refused (the refusal reaches workers in their settings, `monthlyRefusal`, saying where to raise the cap);
 * when the month turns, one timer (none while nothing is refused) lifts it. Replies of models without pricing add
 * their tokens beside the money (`unpricedTokens`: their cost is unknown), which Settings → Budgets shows.
 */
import { Type, type Static } from "typebox";
import { monthKey, monthlyCapText, type MonthSpend } from "../../shared/agent/budget";
import type { WorkerStatus } from "../../shared/protocol/control-protocol";
import { JsonFile, type FileNotice } from "./json-file";

export const MONTHLY_SPEND_FILE = "monthly-spend.json";

const SpendFileSchema = Type.Object(
  {
    version: Type.Literal(1),
    /** "2026-12": the local calendar month counted. */
    month: Type.String({ pattern: "^[0-9]{4}-[0-9]{2}$" }),
    /** Dollars spent in it, from pi-ai's pricing (replies of models without pricing add nothing). */
    costUsd: Type.Number({ minimum: 0 }),
    /** Tokens of replies whose model has no pricing: spent, at a cost unknown. Absent in older files: 0. */
    unpricedTokens: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
type SpendFile = Static<typeof SpendFileSchema>;

/** Longest a timer may wait (Node's limit); a later moment is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface MonthlySpendOptions {
  now?: () => Date;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class MonthlySpend {
  readonly #file: JsonFile<typeof SpendFileSchema>;
  #value: SpendFile;
  /** Per session: the opening last reported and its total then. */
  readonly #seen = new Map<string, { id: string; cost: number; tokens: number }>();
  readonly #listeners = new Set<() => void>();
  readonly #now: () => Date;
  readonly #setTimer: (run: () => void, ms: number) => unknown;
  readonly #clearTimer: (timer: unknown) => void;
  #timer: unknown;
  #written: Promise<void> = Promise.resolve();
  readonly notices: FileNotice[] = [];

  constructor(path: string, options: MonthlySpendOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms).unref());
    this.#clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
    this.#file = new JsonFile({
      path,
      title: "The monthly spending file",
      schema: SpendFileSchema,
      recover: () => ({ value: this.#empty(), outcome: "this month's spending counts from now" }),
    });
    const loaded = this.#file.load();
    if (loaded.notice) this.notices.push(loaded.notice);
    this.#value = loaded.value ?? this.#empty();
  }

  #empty(): SpendFile {
    return { version: 1, month: monthKey(this.#now()), costUsd: 0 };
  }

  /** This month's spending as Settings show it (zero once the month has turned). */
  snapshot(): MonthSpend {
    const month = monthKey(this.#now());
    const current = this.#value.month === month;
    return { month, costUsd: current ? this.#value.costUsd : 0, unpricedTokens: current ? (this.#value.unpricedTokens ?? 0) : 0 };
  }

  /** This month's spend in dollars (0 once the month has turned). */
  get spentUsd(): number {
    return this.#value.month === monthKey(this.#now()) ? this.#value.costUsd : 0;
  }

  /** A worker's status: what its session's replies cost since the last report joins the month's total. */
  report(status: WorkerStatus): void {
    const spend = status.spend;
    if (!spend || !Number.isFinite(spend.cost) || spend.cost < 0) return;
    const tokens = Number.isSafeInteger(spend.unpricedTokens) && spend.unpricedTokens! > 0 ? spend.unpricedTokens! : 0;
    const seen = this.#seen.get(status.sessionId);
    const same = seen?.id === spend.id;
    const before = same ? seen.cost : 0;
    const tokensBefore = same ? seen.tokens : 0;
    this.#seen.set(status.sessionId, { id: spend.id, cost: spend.cost, tokens });
    this.add(spend.cost > before ? spend.cost - before : 0, tokens > tokensBefore ? tokens - tokensBefore : 0);
  }

  /** Adds dollars (and tokens at a cost unknown) spent now; written at once (in order), listeners told. */
  add(dollars: number, unpricedTokens = 0): void {
    const more = dollars > 0 ? dollars : 0;
    const tokens = Number.isSafeInteger(unpricedTokens) && unpricedTokens > 0 ? unpricedTokens : 0;
    if (more === 0 && tokens === 0) return;
    const month = monthKey(this.#now());
    const current = this.#value.month === month;
    const costUsd = (current ? this.#value.costUsd : 0) + more;
    const unpriced = (current ? (this.#value.unpricedTokens ?? 0) : 0) + tokens;
    this.#value = { version: 1, month, costUsd, ...(unpriced > 0 ? { unpricedTokens: unpriced } : {}) };
    this.#written = this.#file.write(this.#value).catch((error: unknown) => console.error("Paddock: the monthly spending could not be saved:", error));
    for (const listener of [...this.#listeners]) listener();
  }

  /** Why no run may start now, given Settings' cap (0: none); undefined: runs may start. Arms the month's turn. */
  refusal(capUsd: number): string | undefined {
    if (this.#timer !== undefined) this.#clearTimer(this.#timer);
    this.#timer = undefined;
    const spent = this.spentUsd;
    if (!(capUsd > 0) || spent < capUsd) return undefined;
    this.#armMonthTurn();
    return monthlyCapText(capUsd, spent);
  }

  #armMonthTurn(): void {
    const now = this.#now();
    const next = new Date(now.getFullYear(), now.getMonth() + 1, 1);
    const ms = Math.min(MAX_TIMER_MS, Math.max(1_000, next.getTime() - now.getTime()));
    this.#timer = this.#setTimer(() => {
      this.#timer = undefined;
      if (monthKey(this.#now()) === this.#value.month) this.#armMonthTurn();
      else for (const listener of [...this.#listeners]) listener();
    }, ms);
  }

  /** Called when the month's total changes, and when the month turns while runs are refused. Returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once every total so far is on disk (or failed to be, said on the console). */
  written(): Promise<void> {
    return this.#written;
  }

  /** Ends the month's timer (main is stopping). */
  close(): void {
    if (this.#timer !== undefined) this.#clearTimer(this.#timer);
    this.#timer = undefined;
  }
}
