/**
 * Spawns workers and keeps one warm spare, so a new chat gets a worker that has already loaded its code.
 */
import type { MainControlApi } from "../../shared/protocol/control-protocol";
import { WorkerHandle } from "./worker-handle";
import type { WorkerLauncher } from "./worker-process";

export class WorkerPool {
  private spare: Promise<WorkerHandle> | undefined;
  private disposed = false;

  constructor(
    private readonly launcher: WorkerLauncher,
    /** Callbacks for a worker; `bind` later tells which session the calls are for. */
    private readonly callbacksFor: (worker: () => WorkerHandle) => MainControlApi,
    private readonly keepSpare = true,
  ) {}

  /** Starts a worker and resolves once it answers a ping and has finished loading (see WorkerControlApi.warmUp). */
  spawn(): Promise<WorkerHandle> {
    let handle!: WorkerHandle;
    handle = new WorkerHandle(this.launcher.launch(), this.callbacksFor(() => handle));
    return handle
      .call((c) => c.ping())
      .then(() => handle.call((c) => c.warmUp()))
      .then(() => handle);
  }

  /**
   * A ready worker: the spare if there is a live one, else a fresh one. Does not start the next spare: the caller
   * calls `refill()` once it has bound the worker, so a new process starting up does not compete with the hand-off.
   */
  async take(): Promise<WorkerHandle> {
    const spare = this.spare;
    this.spare = undefined;
    let worker: WorkerHandle | undefined;
    if (spare) worker = await spare.catch(() => undefined);
    if (!worker || !worker.alive) worker = await this.spawn();
    return worker;
  }

  /** Makes sure a spare is starting (no-op when disabled or one exists). */
  refill(): void {
    if (!this.keepSpare || this.disposed || this.spare) return;
    const spare = this.spawn();
    spare.catch(() => {
      if (this.spare === spare) this.spare = undefined;
    });
    this.spare = spare;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const spare = this.spare;
    this.spare = undefined;
    const worker = await spare?.catch(() => undefined);
    await worker?.stop(500);
  }
}
