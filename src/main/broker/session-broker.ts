/**
 * The broker's core (no Electron import): which session runs in which worker, who is viewing it, and what
 * happens when a worker dies.
 *
 * - A session gets a worker when its first viewer attaches (the warm spare when there is one).
 * - Any number of viewers (windows) may view one session; each gets its own connection to the same worker.
 * - When the last viewer detaches, the worker is stopped: abort, flush, at most 2 s, then killed.
 * - A worker that exits without being asked to is reported, respawned, and reloads the transcript from disk; the
 *   next attach for that session carries the reason, so the page can tell the user.
 */
import { join } from "node:path";
import type { MainControlApi, WorkerInitOptions, WorkerSettings, WorkerStatus } from "../../shared/protocol/control-protocol";
import { Listeners } from "../../shared/transport/transport";
import type { WorkerHandle } from "./worker-handle";
import { WorkerPool } from "./worker-pool";
import { describeExit, type WorkerLauncher } from "./worker-process";
import { SESSION_ID_PATTERN } from "../../shared/protocol/ids";

export type BrokerEvent =
  | { type: "status"; status: WorkerStatus }
  | { type: "worker-exited"; sessionId: string; reason: string; pid: number | undefined }
  | { type: "worker-restarted"; sessionId: string; pid: number | undefined }
  | { type: "session-closed"; sessionId: string };

export interface SessionBrokerOptions {
  launcher: WorkerLauncher;
  /** Folder of the sessions' JSONL transcripts. */
  sessionsDir: string;
  sessionTransport: WorkerInitOptions["sessionTransport"];
  getApiKey(provider: string): Promise<string | undefined> | string | undefined;
  getWorkerSettings(): WorkerSettings;
  integrityCheck?: boolean;
  keepSpare?: boolean;
}

export interface Attachment {
  sessionId: string;
  worker: WorkerHandle;
  /** For "websocket" session transport: where the viewer connects. */
  url?: string;
  /** After a crash, for each viewer once: why the previous worker died. */
  restartedReason?: string;
  /** Problems met loading the transcript: given to the first viewer of each worker, [] for the rest. */
  problems: string[];
}

interface StartedWorker {
  worker: WorkerHandle;
  url?: string;
  problems: string[];
  /** Whether a viewer has been given `problems` already (each worker's are told once). */
  problemsTold?: boolean;
}

interface LiveSession {
  id: string;
  viewers: Set<string>;
  worker: Promise<StartedWorker>;
  /** Why the last worker died, per viewer that has not reconnected since (each is told once). */
  restartReasons: Map<string, string>;
  closing: boolean;
  running: boolean;
}

export class SessionBroker {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly pool: WorkerPool;
  private readonly listeners = new Listeners<[BrokerEvent]>();
  private readonly sessionOfWorker = new WeakMap<WorkerHandle, string>();
  private disposed = false;

  constructor(private readonly options: SessionBrokerOptions) {
    this.pool = new WorkerPool(options.launcher, (worker) => this.callbacks(worker), options.keepSpare ?? true);
  }

  /** Starts the warm spare now rather than at the first chat. */
  warmUp(): void {
    this.pool.refill();
  }

  onEvent(listener: (event: BrokerEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  transcriptFile(sessionId: string): string {
    return join(this.options.sessionsDir, `${sessionId}.jsonl`);
  }

  isRunning(sessionId: string): boolean {
    return this.sessions.get(sessionId)?.running ?? false;
  }

  openSessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Attaches a viewer, starting the session's worker if needed. */
  async attach(sessionId: string, viewerId: string): Promise<Attachment> {
    if (this.disposed) throw new Error("Paddock is shutting down");
    if (!SESSION_ID_PATTERN.test(sessionId)) throw new Error(`Invalid session id: ${sessionId.slice(0, 40)}`);
    let live = this.sessions.get(sessionId);
    if (!live || live.closing) {
      live = { id: sessionId, viewers: new Set(), worker: this.startWorker(sessionId), restartReasons: new Map(), closing: false, running: false };
      this.sessions.set(sessionId, live);
      live.worker.catch(() => {
        if (this.sessions.get(sessionId) === live) this.sessions.delete(sessionId);
      });
    }
    live.viewers.add(viewerId);
    const started = await live.worker;
    const problems = started.problemsTold ? [] : started.problems;
    started.problemsTold = true;
    const restartedReason = live.restartReasons.get(viewerId);
    live.restartReasons.delete(viewerId);
    return { sessionId, worker: started.worker, url: started.url, restartedReason, problems };
  }

  /** Detaches a viewer; the last one out stops the worker. Resolves when the worker is gone (if it was stopped). */
  async detach(sessionId: string, viewerId: string): Promise<void> {
    const live = this.sessions.get(sessionId);
    if (!live) return;
    live.viewers.delete(viewerId);
    if (live.viewers.size > 0) return;
    live.closing = true;
    this.sessions.delete(sessionId);
    const started = await live.worker.catch(() => undefined);
    await started?.worker.stop();
    this.listeners.emit({ type: "session-closed", sessionId });
  }

  /** Sends changed settings to every live worker. */
  async broadcastSettings(): Promise<void> {
    const settings = this.options.getWorkerSettings();
    await Promise.all(
      [...this.sessions.values()].map(async (live) => {
        const started = await live.worker.catch(() => undefined);
        await started?.worker.call((c) => c.updateSettings(settings)).catch(() => {});
      }),
    );
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      all.map(async (live) => {
        const started = await live.worker.catch(() => undefined);
        await started?.worker.stop();
      }),
    );
    await this.pool.dispose();
  }

  private async startWorker(sessionId: string): Promise<StartedWorker> {
    const worker = await this.pool.take();
    this.sessionOfWorker.set(worker, sessionId);
    const result = await worker
      .call((c) =>
        c.init({
          sessionId,
          transcriptFile: this.transcriptFile(sessionId),
          settings: this.options.getWorkerSettings(),
          integrityCheck: this.options.integrityCheck,
          sessionTransport: this.options.sessionTransport,
        }),
      )
      .finally(() => this.pool.refill());
    void worker.process.exited.then((exit) => this.onWorkerExit(sessionId, worker, describeExit(exit)));
    return { worker, url: result.url, problems: result.problems };
  }

  private onWorkerExit(sessionId: string, worker: WorkerHandle, reason: string): void {
    if (worker.expectedExit || this.disposed) return;
    const live = this.sessions.get(sessionId);
    this.listeners.emit({ type: "worker-exited", sessionId, reason, pid: worker.pid });
    if (!live || live.closing) return;
    const current = live.worker;
    void current.then((started) => {
      if (started.worker !== worker || this.sessions.get(sessionId) !== live) return;
      live.running = false;
      for (const viewer of live.viewers) live.restartReasons.set(viewer, reason);
      live.worker = this.startWorker(sessionId);
      live.worker.then(
        (next) => this.listeners.emit({ type: "worker-restarted", sessionId, pid: next.worker.pid }),
        () => {},
      );
    });
  }

  private callbacks(worker: () => WorkerHandle): MainControlApi {
    return {
      getApiKey: async (provider: string) => this.options.getApiKey(provider),
      report: (status: WorkerStatus) => {
        const sessionId = this.sessionOfWorker.get(worker());
        if (sessionId !== status.sessionId) return; // a worker may only speak for its own session
        const live = this.sessions.get(sessionId);
        if (live) live.running = status.running;
        this.listeners.emit({ type: "status", status });
      },
    };
  }
}
