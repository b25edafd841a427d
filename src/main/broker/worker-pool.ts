/**
 * Spawns workers and keeps one warm spare, so a new chat gets a worker that has already loaded its code. While chats
 * that can start subagents are open it also keeps subagent spares: warmed further (the workspace tools and the
 * provider's client loaded, ~12 MB more), so a subagent's first model request leaves at once. A chat's spare stays
 * lean: most chats never need a provider client before the user has typed. After a parallel call it keeps as many
 * subagent spares as that call had tasks, for a while (DEMAND_MEMORY_MS), so a second wave finds workers ready too.
 * While subagent tasks run, it starts only the spares queued tasks need: on a small machine every process starting
 * up slows the ones streaming; the remembered rest start once the tasks are done.
 */
import type { MainControlApi, WarmUpOptions } from "../../shared/protocol/control-protocol";
import { WorkerHandle } from "./worker-handle";
import type { WorkerLauncher } from "./worker-process";

interface Spare<Port> {
  handle: WorkerHandle<Port>;
  /** Settles once the spare answered its ping and warmed up (or failed to). */
  ready: Promise<WorkerHandle<Port>>;
}

export interface SubagentSpares {
  /** How many subagent spares to keep now (0 while no chat could start a subagent). */
  wanted(): number;
  /** What they preload: the API of the model subagents will most likely use. */
  warmUp(): WarmUpOptions;
  /** Whether subagent tasks are running now (spares beyond what queued tasks need wait until they are done). */
  busy(): boolean;
}

/** Subagent spares queued tasks may ask for at most (a parallel call runs 4 at once). */
const MAX_SUBAGENT_SPARES = 4;
/** Subagent spares a remembered call may keep at most: a parallel call has at most 8 tasks. */
const MAX_REMEMBERED_SPARES = 8;
/** How long after a subagent's hand-off the pool waits before starting spares (about its first model request). */
const REFILL_DELAY_MS = 200;
/**
 * How long the pool remembers a parallel call's width: a user who ran subagents in parallel tends to again, and a
 * cold start of three or four processes at call time costs a two-core machine most of a second. The spares cost
 * ~70 MB each while remembered; then the extra ones stop.
 */
const DEMAND_MEMORY_MS = 10 * 60_000;

export class WorkerPool<Port = never> {
  private spare: Spare<Port> | undefined;
  private readonly subagentSpares: Spare<Port>[] = [];
  /** Extra subagent spares asked for by `prewarm` (queued tasks), used up as they are taken. */
  private prewarmed = 0;
  /** The widest recent call's spares (see DEMAND_MEMORY_MS), kept while chats that can start subagents are open. */
  private demand = { count: 0, until: 0 };
  private demandTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private refillTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly launcher: WorkerLauncher<Port>,
    /** Callbacks for a worker; `bind` later tells which session the calls are for. */
    private readonly callbacksFor: (worker: () => WorkerHandle<Port>) => MainControlApi,
    private readonly keepSpare = true,
    private readonly subagents?: SubagentSpares,
  ) {}

  /**
   * Starts a worker and resolves once it answers a ping and has finished loading (see WorkerControlApi.warmUp); one
   * that fails to get there is killed.
   */
  spawn(): Promise<WorkerHandle<Port>> {
    const { handle, ready } = this.launch();
    return ready.catch((error: unknown) => {
      const died = !handle.alive;
      handle.kill();
      throw died ? new WorkerStartError(error instanceof Error ? error.message : String(error), handle) : error;
    });
  }

  /**
   * A ready worker: the spare if there is a live one, else a fresh one. Does not start the next spare: the caller
   * calls `refill()` once it has bound the worker, so a new process starting up does not compete with the hand-off.
   */
  async take(kind: "session" | "subagent" = "session"): Promise<WorkerHandle<Port>> {
    if (this.disposed) throw new Error("Paddock is shutting down");
    if (kind === "subagent") {
      const warm = this.subagentSpares.shift();
      this.prewarmed = Math.max(0, this.prewarmed - 1);
      const worker = warm && (await warm.ready.catch(() => undefined));
      if (worker?.alive) return worker;
    }
    const spare = this.spare;
    this.spare = undefined;
    let worker: WorkerHandle<Port> | undefined;
    if (spare) worker = await spare.ready.catch(() => undefined); // refill() killed it if it failed
    if (!worker || !worker.alive) worker = await this.spawn();
    return worker;
  }

  /** Makes sure a spare is starting (no-op when disabled or one exists), and as many subagent spares as wanted. */
  refill(): void {
    if (!this.keepSpare || this.disposed) return;
    if (!this.spare) {
      const spare = this.launch();
      spare.ready.catch(() => {
        spare.handle.kill();
        if (this.spare === spare) this.spare = undefined;
      });
      this.spare = spare;
    }
    const base = this.subagents?.wanted() ?? 0;
    const remembered = base > 0 && Date.now() < this.demand.until ? this.demand.count : 0;
    const queued = Math.min(MAX_SUBAGENT_SPARES, base + this.prewarmed);
    const wanted = Math.min(MAX_REMEMBERED_SPARES, Math.max(remembered, queued));
    const busy = this.subagents?.busy() ?? false;
    while (this.subagentSpares.length < (busy ? queued : wanted)) {
      const spare = this.launch(this.subagents!.warmUp());
      spare.ready.catch(() => {
        spare.handle.kill();
        const at = this.subagentSpares.indexOf(spare);
        if (at >= 0) this.subagentSpares.splice(at, 1);
      });
      this.subagentSpares.push(spare);
    }
    // Fewer wanted now (the chats that could start subagents closed): the extra spares go.
    while (!busy && this.subagentSpares.length > wanted) void this.subagentSpares.pop()!.handle.stop(500);
  }

  /**
   * Tasks are queued for subagent workers: have spares warming for them by the time they start. `now` starts them at
   * once (tasks about to start), otherwise after the delay of `refillSoon` (tasks of a later wave). `callWidth` (the
   * call's tasks in all) is remembered: the next call finds that many spares (see DEMAND_MEMORY_MS).
   */
  prewarm(count: number, now = false, callWidth = count): void {
    if (!this.subagents) return;
    this.prewarmed = Math.max(this.prewarmed, Math.min(MAX_SUBAGENT_SPARES, count));
    this.remember(callWidth);
    if (now) this.refill();
    else this.refillSoon();
  }

  /**
   * `refill()` a moment from now: after a subagent's hand-off, whose first model request should not compete with
   * processes starting up (on a two-core machine that doubles its start).
   */
  refillSoon(delayMs = REFILL_DELAY_MS): void {
    if (this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      this.refill();
    }, delayMs);
    this.refillTimer.unref?.();
  }

  /** Keeps `count` subagent spares for a while (the widest call wins); when that ends, the extra ones stop. */
  private remember(count: number): void {
    const now = Date.now();
    const width = Math.min(MAX_REMEMBERED_SPARES, Math.max(count, now < this.demand.until ? this.demand.count : 0));
    this.demand = { count: width, until: now + DEMAND_MEMORY_MS };
    clearTimeout(this.demandTimer);
    this.demandTimer = setTimeout(() => this.refill(), DEMAND_MEMORY_MS + 1);
    this.demandTimer.unref?.();
  }

  /** Stops the spare, ready or not; never waits on a spawn that may not settle. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.refillTimer);
    clearTimeout(this.demandTimer);
    const spares = [this.spare, ...this.subagentSpares.splice(0)];
    this.spare = undefined;
    await Promise.all(spares.map((spare) => spare?.handle.stop(500)));
  }

  private launch(warmUp?: WarmUpOptions): Spare<Port> {
    const handle: WorkerHandle<Port> = new WorkerHandle(this.launcher.launch(), this.callbacksFor(() => handle));
    const ready = handle
      .call((c) => c.ping())
      .then(() => handle.call((c) => c.warmUp(warmUp)))
      .then(() => handle);
    return { handle, ready };
  }
}

/** What `spawn` (and so `take`) rejects with when the new worker's process ended before it was ready: a crash at start. */
export class WorkerStartError<Port = never> extends Error {
  constructor(
    message: string,
    readonly worker: WorkerHandle<Port>,
  ) {
    super(message);
  }
}
