/**
 * Main's part of the checkpoint store (issue 24 §1): every chat's checkpoints live in one store in the data folder
 * (`<data>/checkpoints/`, shared-node/checkpoints/), written by the chats' workers; main cleans it up.
 *
 * - A chat deleted for good (its undo window over) loses its checkpoints and its subagents' (`removeChats`).
 * - The store is held under Settings' storage limit: at start and some seconds after runs end (debounced), the
 *   oldest checkpoints across chats are dropped first (each session keeps its newest). What was dropped is kept in
 *   `<data>/checkpoint-drops.json` and shown in Settings with its date (`status`).
 * - "Clear all checkpoints" (`clearAll`).
 *
 * The work is synchronous file work: it runs through a `MaintenanceRunner` (a worker thread in the app), one job at
 * a time, never on a page's call path. A failure never undoes what asked for it (a chat's delete stays done): it is
 * said in words (`notify`, and `status().problem`); a clean-up another process holds is tried again later.
 */
import { Type } from "typebox";
import { join } from "node:path";
import { CheckpointDropReportSchema, type CheckpointDropReport, type CheckpointStorageStatus } from "../../shared/protocol/checkpoint-storage";
import { errorText } from "../../shared/error-text";
import { JsonFile } from "../broker/json-file";
import { inlineRunner, type DroppedFrom, type MaintenanceRunner } from "./maintenance-ops";

export interface CheckpointUpkeepOptions {
  dataDir: string;
  /** Settings' storage limit in bytes, read at each clean-up. */
  limitBytes(): number;
  /** Sessions whose agent runs now: "Clear all" keeps the newest checkpoint each builds on. */
  liveSessions(): readonly string[];
  /** The chat a session belongs to (a subagent's: its parent chat's), so a report counts chats. Default: itself. */
  chatOf?(session: string): string;
  /** Tells the user of a clean-up that failed (main's notices). */
  notify(text: string): void;
  runner?: MaintenanceRunner;
  /** Objects written this recently are never swept (a snapshot in progress elsewhere). Default ten minutes. */
  graceMs?: number;
  /** How long after a run ends the limit is checked (later ends push it back). Default 30 s. */
  debounceMs?: number;
  /** How long after start the first check runs (the app's start comes first). Default 15 s. */
  startDelayMs?: number;
}

const ReportFileSchema = Type.Object({ version: Type.Literal(1), lastDrop: Type.Optional(CheckpointDropReportSchema) }, { additionalProperties: false });

/** Where main keeps what it last dropped (beside the store, not in it: the store's layout is the store's). */
export function dropReportFile(dataDir: string): string {
  return join(dataDir, "checkpoint-drops.json");
}

export class CheckpointUpkeep {
  /** Problems met while opening (the record of drops was set aside), for main to tell the user once. */
  readonly notices: string[] = [];
  private readonly runner: MaintenanceRunner;
  private readonly graceMs: number;
  private readonly file: JsonFile<typeof ReportFileSchema>;
  private lastDrop: CheckpointDropReport | undefined;
  private problem: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly options: CheckpointUpkeepOptions) {
    this.runner = options.runner ?? inlineRunner;
    this.graceMs = options.graceMs ?? 10 * 60_000;
    this.file = new JsonFile({
      path: dropReportFile(options.dataDir),
      title: "The record of dropped checkpoints",
      schema: ReportFileSchema,
      recover: () => ({ value: { version: 1 }, outcome: "it was started again" }),
    });
    const loaded = this.file.load();
    if (loaded.notice) this.notices.push(loaded.notice.text);
    this.lastDrop = loaded.value?.lastDrop;
  }

  /** The first check of the limit, a while after start. */
  start(): void {
    this.scheduleLimit(this.options.startDelayMs ?? 15_000);
  }

  /** Checks the limit after `delayMs` (default the debounce), replacing a check already waiting. */
  scheduleLimit(delayMs = this.options.debounceMs ?? 30_000): void {
    if (this.disposed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.enforceLimit(), delayMs);
    this.timer.unref?.();
  }

  /** Drops the oldest checkpoints until the store fits the limit; resolves whether it could (a failure is said). */
  enforceLimit(): Promise<boolean> {
    clearTimeout(this.timer);
    const limitBytes = this.options.limitBytes();
    return this.job("hold the checkpoints under their storage limit", async () => {
      const result = await this.runner.run("enforceLimit", this.options.dataDir, limitBytes, this.graceMs);
      if (Object.keys(result.sessions).length > 0) await this.report("limit", result, limitBytes);
    });
  }

  /** A chat is gone for good: its checkpoints (and its subagents', among `sessions`) go too. Resolves whether they did. */
  removeChats(sessions: readonly string[]): Promise<boolean> {
    if (sessions.length === 0) return Promise.resolve(true);
    return this.job("remove a deleted chat's checkpoints", async () => {
      await this.runner.run("removeSessions", this.options.dataDir, sessions, this.graceMs);
    });
  }

  /** "Clear all checkpoints"; rejects with the reason when it failed. */
  async clearAll(): Promise<CheckpointStorageStatus> {
    const limitBytes = this.options.limitBytes();
    const ok = await this.job("clear the checkpoints", async () => {
      const result = await this.runner.run("clearAll", this.options.dataDir, this.options.liveSessions(), this.graceMs);
      await this.report("clear", result, limitBytes);
    });
    if (!ok) throw new Error(this.problem ?? "Another clean-up of the checkpoints is running: try again in a moment.");
    return this.status();
  }

  /** The store's size now, the limit, what was last dropped, and the last failure. Rejects when it cannot measure. */
  async status(): Promise<CheckpointStorageStatus> {
    const bytes = await this.serial(() => this.runner.run("bytes", this.options.dataDir));
    return {
      bytes,
      limitBytes: this.options.limitBytes(),
      ...(this.lastDrop ? { lastDrop: this.lastDrop } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
    };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.timer);
    await this.queue;
    await this.runner.dispose();
  }

  private async report(reason: CheckpointDropReport["reason"], result: DroppedFrom, limitBytes: number): Promise<void> {
    const chatOf = this.options.chatOf ?? ((s: string) => s);
    const sessions = Object.keys(result.sessions);
    this.lastDrop = {
      at: Date.now(),
      reason,
      chats: new Set(sessions.map(chatOf)).size,
      checkpoints: sessions.reduce((n, s) => n + result.sessions[s], 0),
      freedBytes: Math.max(0, result.bytesBefore - result.bytesAfter),
      limitBytes,
    };
    await this.file.write({ version: 1, lastDrop: this.lastDrop });
  }

  /** Runs `work` after the jobs before it; its result or rejection is the caller's, the next job runs either way. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.disposed) throw new Error("Paddock is quitting.");
      return work();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `work` after the jobs before it. Resolves whether it succeeded; a failure is kept for `status` and said to
   * the user. A clean-up another process runs now is tried again later, unsaid.
   */
  private async job(what: string, work: () => Promise<void>): Promise<boolean> {
    try {
      await this.serial(work);
      this.problem = undefined;
      return true;
    } catch (error) {
      if (this.disposed) return false;
      const text = errorText(error);
      if (/clean-up is already running/.test(text)) {
        this.scheduleLimit();
        return false;
      }
      this.problem = `Could not ${what}: ${text}`;
      this.options.notify(this.problem);
      return false;
    }
  }
}
