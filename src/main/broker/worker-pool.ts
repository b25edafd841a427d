/**
 * Spawns workers and keeps one warm spare, so a new chat gets a worker that has already loaded its code.
 */
import type { MainControlApi } from "../../shared/protocol/control-protocol";
import { WorkerHandle } from "./worker-handle";
import type { WorkerLauncher } from "./worker-process";

interface Spare<Port> {
  handle: WorkerHandle<Port>;
  /** Settles once the spare answered its ping and warmed up (or failed to). */
  ready: Promise<WorkerHandle<Port>>;
}

export class WorkerPool<Port = never> {
  private spare: Spare<Port> | undefined;
  private disposed = false;

  constructor(
    private readonly launcher: WorkerLauncher<Port>,
    /** Callbacks for a worker; `bind` later tells which session the calls are for. */
    private readonly callbacksFor: (worker: () => WorkerHandle<Port>) => MainControlApi,
    private readonly keepSpare = true,
  ) {}

  /**
   * Starts a worker and resolves once it answers a ping and has finished loading (see WorkerControlApi.warmUp); one
   * that fails to get there is killed.
   */
  spawn(): Promise<WorkerHandle<Port>> {
    const { handle, ready } = this.launch();
    return ready.catch((error: unknown) => {
      handle.kill();
      throw error;
    });
  }

  /**
   * A ready worker: the spare if there is a live one, else a fresh one. Does not start the next spare: the caller
   * calls `refill()` once it has bound the worker, so a new process starting up does not compete with the hand-off.
   */
  async take(): Promise<WorkerHandle<Port>> {
    if (this.disposed) throw new Error("Paddock is shutting down");
    const spare = this.spare;
    this.spare = undefined;
    let worker: WorkerHandle<Port> | undefined;
    if (spare) worker = await spare.ready.catch(() => undefined); // refill() killed it if it failed
    if (!worker || !worker.alive) worker = await this.spawn();
    return worker;
  }

  /** Makes sure a spare is starting (no-op when disabled or one exists). */
  refill(): void {
    if (!this.keepSpare || this.disposed || this.spare) return;
    const spare = this.launch();
    spare.ready.catch(() => {
      spare.handle.kill();
      if (this.spare === spare) this.spare = undefined;
    });
    this.spare = spare;
  }

  /** Stops the spare, ready or not; never waits on a spawn that may not settle. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const spare = this.spare;
    this.spare = undefined;
    await spare?.handle.stop(500);
  }

  private launch(): Spare<Port> {
    let handle!: WorkerHandle<Port>;
    handle = new WorkerHandle(this.launcher.launch(), this.callbacksFor(() => handle));
    const ready = handle
      .call((c) => c.ping())
      .then(() => handle.call((c) => c.warmUp()))
      .then(() => handle);
    return { handle, ready };
  }
}
