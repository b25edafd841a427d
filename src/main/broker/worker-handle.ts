/**
 * A live worker with its typed control channel: main calls `WorkerControlApi`, the worker calls back
 * `MainControlApi` (API keys, status). Knows whether its exit was asked for, so a crash can be told apart.
 */
import * as Comlink from "comlink";
import type { MainControlApi, ShutdownAnswer, WorkerControlApi } from "../../shared/protocol/control-protocol";
import { MAIN_CONTROL_SCHEMAS, MAX_CONTROL_FRAME_CHARS } from "../../shared/protocol/control-protocol-schema";
import { rpcEndpoint } from "../../shared/transport/comlink-endpoint";
import { methodCallFilter } from "../../shared/transport/rpc-guard";
import type { WorkerExit, WorkerProcess } from "./worker-process";

export class WorkerHandle<Port = never> {
  readonly control: Comlink.Remote<WorkerControlApi>;
  private stopping = false;
  private exit: WorkerExit | undefined;
  private readonly closed: Promise<never>;

  constructor(
    readonly process: WorkerProcess<Port>,
    callbacks: MainControlApi,
  ) {
    // What the worker asks of main passes the control channel's schemas first (control-protocol-schema.ts): a
    // malformed call is answered with the reason and never reaches `callbacks`; one without an id is dropped.
    const filter = methodCallFilter(MAIN_CONTROL_SCHEMAS, MAX_CONTROL_FRAME_CHARS, { reply: (m) => process.control.send({ ch: "w2c", m }) });
    Comlink.expose(callbacks, rpcEndpoint(process.control, { lane: "w2c", filter }));
    this.control = Comlink.wrap<WorkerControlApi>(rpcEndpoint(process.control, { lane: "c2w" }));
    process.exited.then((exit) => {
      this.exit = exit;
    });
    this.closed = process.exited.then((exit) => {
      throw new Error(`The agent worker stopped: ${exit.signal ?? `code ${exit.code}`}`);
    });
    this.closed.catch(() => {});
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Whether the process is going away because we asked it to. */
  get expectedExit(): boolean {
    return this.stopping;
  }

  /** A control call that rejects (instead of hanging) if the worker dies first. */
  call<T>(fn: (control: Comlink.Remote<WorkerControlApi>) => Promise<T>): Promise<T> {
    return Promise.race([fn(this.control), this.closed]);
  }

  /**
   * Graceful stop: the worker aborts its run and flushes its transcript; if it has not exited `timeoutMs` after being
   * asked, it is killed. Resolves when the process is gone, or at the latest `timeoutMs` after the kill (a process
   * that never even spawned may never report an exit): it never hangs.
   */
  async stop(timeoutMs = 2000): Promise<void> {
    await this.end({}, timeoutMs);
  }

  /**
   * Stops the worker only if its agent has nothing to do (main's view of that lags behind the worker's reports):
   * resolves "stopped" once it is gone, or with what keeps it busy, and then it lives on. Bounded like `stop`.
   */
  stopIfIdle(timeoutMs = 2000): Promise<ShutdownAnswer> {
    return this.end({ ifIdle: true }, timeoutMs);
  }

  private async end(options: { ifIdle?: boolean }, timeoutMs: number): Promise<ShutdownAnswer> {
    // Set first: the exit that follows a "stopped" answer must never read as a crash.
    this.stopping = true;
    if (!this.alive) return "stopped";
    const deadline = delay(timeoutMs);
    const answer = await Promise.race([
      this.call((c) => c.shutdown(options)).catch((): ShutdownAnswer => "stopped"),
      deadline.then((): ShutdownAnswer => "stopped"),
    ]);
    if (answer !== "stopped") {
      this.stopping = false;
      return answer;
    }
    try {
      await Promise.race([this.process.exited, deadline]);
    } finally {
      this.process.kill();
      await Promise.race([this.process.exited, delay(timeoutMs)]);
    }
    return "stopped";
  }

  /** Ends the process at once, without asking it to flush. */
  kill(): void {
    this.stopping = true;
    this.process.kill();
  }
}

/** A timer that never keeps the process alive on its own. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
