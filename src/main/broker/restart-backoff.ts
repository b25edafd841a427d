/**
 * When a process that died unasked is started again: the MCP host (mcp-supervisor.ts) and a chat's agent worker
 * (session-broker.ts) share this. The wait doubles from `firstMs` up to `maxMs` with each failure in a row.
 *
 * A worker has a limit besides (`CrashLoopGuard`): one that dies right after it starts (a broken install, a native
 * module that will not load, a transcript it crashes on) would otherwise be started again forever. Its first such
 * crash is restarted at once, as any crash is; the next ones after the backoff; after `limit` of them in a row the
 * broker gives up and the chat shows the failure, with the worker's last stderr lines and a Retry. A worker that had
 * lived `quickMs` or longer before dying starts the count afresh.
 */

export interface BackoffSchedule {
  firstMs: number;
  maxMs: number;
}

/** The MCP host's schedule, and a worker's between quick crashes. */
export const RESTART_BACKOFF: BackoffSchedule = { firstMs: 1_000, maxMs: 30_000 };

/** Failures in a row, and the wait before the next start: firstMs, doubling, at most maxMs. */
export class RestartBackoff {
  #failures = 0;

  constructor(private readonly schedule: BackoffSchedule = RESTART_BACKOFF) {}

  get failures(): number {
    return this.#failures;
  }

  /** Counts one more failure; returns the wait before the next start. */
  failed(): number {
    this.#failures++;
    return Math.min(this.schedule.maxMs, this.schedule.firstMs * 2 ** (this.#failures - 1));
  }

  /** It is running well again: the next failure waits `firstMs`. */
  reset(): void {
    this.#failures = 0;
  }
}

export interface CrashLoopOptions {
  schedule?: BackoffSchedule;
  /** Quick crashes in a row that are restarted; the next one gives up. */
  limit?: number;
  /** A worker that dies sooner than this after its start crashed "right after start". */
  quickMs?: number;
  now?: () => number;
}

export type CrashDecision =
  /** Start it again after `afterMs` (0: at once). */
  | { action: "restart"; afterMs: number }
  /** Stop trying: `crashes` quick crashes in a row. */
  | { action: "give-up"; crashes: number };

/** Defaults: five quick restarts (at once, then 1, 2, 4, 8 s), a crash within 10 s of the start being quick. */
export const WORKER_CRASH_LIMIT = 5;
export const QUICK_CRASH_MS = 10_000;

/** One chat's worker crashes: when to start it again, or that it keeps crashing and the user should be told. */
export class CrashLoopGuard {
  readonly #backoff: RestartBackoff;
  readonly #limit: number;
  readonly #quickMs: number;
  readonly #now: () => number;
  /** Quick crashes in a row. */
  #quick = 0;
  /** No new worker before this time (ms since the epoch, by `now`). */
  #notBefore = 0;

  constructor(options: CrashLoopOptions = {}) {
    this.#backoff = new RestartBackoff(options.schedule);
    this.#limit = options.limit ?? WORKER_CRASH_LIMIT;
    this.#quickMs = options.quickMs ?? QUICK_CRASH_MS;
    this.#now = options.now ?? Date.now;
  }

  /** A worker launched at `startedAt` (by `now`) died unasked, or before it could take its session. */
  crashed(startedAt: number): CrashDecision {
    const now = this.#now();
    if (now - startedAt >= this.#quickMs) {
      this.#quick = 0;
      this.#backoff.reset();
    }
    this.#quick++;
    if (this.#quick > this.#limit) return { action: "give-up", crashes: this.#quick };
    const afterMs = this.#quick === 1 ? 0 : this.#backoff.failed();
    this.#notBefore = now + afterMs;
    return { action: "restart", afterMs };
  }

  /** How long a new worker must wait now (0: it may start at once). */
  waitMs(): number {
    return Math.max(0, this.#notBefore - this.#now());
  }

  /** The user asked to try again: the next crash is the first. */
  reset(): void {
    this.#quick = 0;
    this.#notBefore = 0;
    this.#backoff.reset();
  }
}
