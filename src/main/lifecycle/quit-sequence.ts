/**
 * How the app ends, decided without Electron (`electron/system-end.ts` and index.ts feed it Electron's events).
 *
 * A quit the user asks for (Quit, or closing the last window on Windows and Linux) may ask first while agents work
 * (`electron/confirm-close.ts`), then cleans up: workers abort and flush their transcripts, the session index is
 * written, all within `limitMs` (6 s), and the process exits.
 *
 * A quit the system asks for is different: a restart, a shutdown or a logout must neither wait for a question nobody
 * may be there to answer (on macOS the question cancels the restart) nor for a six-second cleanup. So:
 * - `powerMonitor`'s `shutdown` (macOS: the machine powers off or the user logs out; Linux: logind's shutdown) and a
 *   SIGTERM (Linux's session manager at logout, or any `kill`) quit without asking, save main's state at once, and
 *   exit within `systemEndLimitMs` (1 s) whatever the workers do. A worker's reply was checkpointed at most 0.5 s
 *   before (its reply checkpoints), so a reply cut short shows as interrupted, with Retry and Continue, on the next
 *   launch. A second SIGTERM exits at once.
 * - Windows' `query-session-end` (another program may still veto it) saves main's state and changes nothing else;
 *   `session-end` (no way back: Windows ends the process soon after) saves it again and lets no question hold up
 *   whatever follows. Nothing quits: Windows ends the process, and each worker's lifeline ends the workers.
 */

/** Why the system is taking the app down. */
export type SystemEnd = "shutdown" | "terminate" | "session-end";

export interface QuitSequenceOptions {
  /** The whole cleanup of a quit: workers stop and flush, the index is written (core.shutdown). */
  cleanUp(): Promise<void>;
  /** Writes what main holds in memory and would write later (the window list, the session index), stopping nothing. */
  saveState(): Promise<void>;
  /** Starts a quit: windows close, then `cleanUp` runs (app.quit). */
  quit(): void;
  /** Ends the process now (app.exit). */
  exit(): void;
  /** Reports a failure that cannot reach a window any more (main's log). */
  report(text: string, error: unknown): void;
  /** The longest a user's quit waits for its cleanup; default 6 s. */
  limitMs?: number;
  /** The longest a quit the system asked for waits; default 1 s. */
  systemEndLimitMs?: number;
}

export const QUIT_LIMIT_MS = 6_000;
export const SYSTEM_END_LIMIT_MS = 1_000;

export class QuitSequence {
  readonly #options: QuitSequenceOptions;
  readonly #limitMs: number;
  readonly #systemEndLimitMs: number;
  #ending: SystemEnd | undefined;
  #terminated = false;
  #cleaning = false;
  #exited = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the running cleanup's timer fires (ms since epoch). */
  #deadline = Infinity;
  #saving: Promise<void> | undefined;
  #saveAgain: Promise<void> | undefined;

  constructor(options: QuitSequenceOptions) {
    this.#options = options;
    this.#limitMs = options.limitMs ?? QUIT_LIMIT_MS;
    this.#systemEndLimitMs = options.systemEndLimitMs ?? SYSTEM_END_LIMIT_MS;
  }

  /** Why the system is ending the app, once it is. */
  get systemEnding(): SystemEnd | undefined {
    return this.#ending;
  }

  /** How many working agents the quit question names (`busy`, read only when needed): none once the system ends the app. */
  agentsToConfirm(busy: () => number): number {
    return this.#ending === undefined ? busy() : 0;
  }

  /**
   * The quit goes ahead (Electron's `will-quit`, its windows closed): runs the cleanup once and exits when it is done
   * or its time is up, whichever comes first. A quit the system asked for saves main's state first, beside it.
   */
  cleanUp(): void {
    if (this.#cleaning || this.#exited) return;
    this.#cleaning = true;
    const work = this.#ending === undefined ? this.#options.cleanUp() : Promise.all([this.#save(), this.#options.cleanUp()]);
    this.#armTimer(this.#ending === undefined ? this.#limitMs : this.#systemEndLimitMs);
    void work
      .catch((error: unknown) => {
        this.#options.report("cleanup before quitting failed", error);
      })
      .finally(() => this.#exit());
  }

  /**
   * The system is ending the app: `powerMonitor`'s `shutdown`, or a SIGTERM. Quits without asking and with the short
   * bound; a cleanup already under way gets the short bound from now. A second SIGTERM exits at once.
   */
  systemEnds(reason: Exclude<SystemEnd, "session-end">): void {
    if (this.#exited) return;
    if (reason === "terminate") {
      if (this.#terminated) {
        this.#exit();
        return;
      }
      this.#terminated = true;
    }
    this.#ending ??= reason;
    if (this.#cleaning) {
      if (Date.now() + this.#systemEndLimitMs < this.#deadline) this.#armTimer(this.#systemEndLimitMs);
      return;
    }
    this.#options.quit();
  }

  /** Windows' `query-session-end`: the session may end (another program can still veto it). Saves main's state. */
  sessionMayEnd(): Promise<void> {
    return this.#save();
  }

  /** Windows' `session-end`: it ends, and Windows ends the process soon. Saves main's state; no question from now on. */
  sessionEnds(): Promise<void> {
    this.#ending ??= "session-end";
    return this.#save();
  }

  /**
   * Saves main's state; never rejects (a failure is reported). Every window gets the session's events at once: a
   * save asked for while one runs waits for it and runs once more for all who asked meanwhile.
   */
  #save(): Promise<void> {
    if (this.#saveAgain) return this.#saveAgain;
    if (this.#saving) {
      const again = this.#saving.then(() => {
        this.#saveAgain = undefined;
        return this.#save();
      });
      this.#saveAgain = again;
      return again;
    }
    const saving = (async () => this.#options.saveState())()
      .catch((error: unknown) => {
        this.#options.report("could not save before the session ended", error);
      })
      .finally(() => {
        if (this.#saving === saving) this.#saving = undefined;
      });
    this.#saving = saving;
    return saving;
  }

  #armTimer(ms: number): void {
    clearTimeout(this.#timer);
    this.#deadline = Date.now() + ms;
    this.#timer = setTimeout(() => this.#exit(), ms);
  }

  #exit(): void {
    if (this.#exited) return;
    this.#exited = true;
    clearTimeout(this.#timer);
    this.#options.exit();
  }
}
