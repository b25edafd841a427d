/**
 * Starts agent workers with Node's child_process.fork: the same built worker file Electron runs as a
 * utilityProcess, talking over child-process IPC with the "advanced" (structured clone) serialization. Such a
 * worker takes no ports (`transferPort` cannot be called: its type is `never`); it serves sessions on a loopback
 * WebSocket instead.
 */
import { fork, type ChildProcess } from "node:child_process";
import { BaseTransport } from "../../shared/transport/transport";
import { StderrTail } from "../../shared-node/process/stderr-tail";
import { forwardOutput } from "./worker-output";
import { withCompileCache, workerEnvironment, type WorkerExit, type WorkerLauncher, type WorkerProcess } from "./worker-process";

class ChildProcessTransport extends BaseTransport {
  constructor(private readonly child: ChildProcess) {
    super();
    child.on("message", (message) => this.receive(message));
    child.on("disconnect", () => this.markClosed("worker disconnected"));
    child.on("exit", () => this.markClosed("worker exited"));
  }

  protected deliver(message: unknown): void {
    if (!this.child.connected) return;
    this.child.send(message as never, (error) => {
      if (error) this.markClosed(`send failed: ${error.message}`);
    });
  }

  protected closeUnderlying(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

export class NodeWorkerLauncher implements WorkerLauncher {
  /**
   * `execArgv`: Node's own options for the child (the bench runs a TypeScript stand-in with `--import tsx`).
   * `compileCacheDir`: the folder for V8's compile cache (the core's `dataFiles(...).compileCacheDir`); without one the
   * child runs with no cache.
   */
  constructor(
    private readonly workerFile: string,
    private readonly execArgv: string[] = [],
    private readonly compileCacheDir?: string,
  ) {}

  launch(env: NodeJS.ProcessEnv = workerEnvironment()): WorkerProcess {
    // The worker's stdout goes where the host's goes; its stderr too, read at once (a pipe nobody read could fill and
    // block the worker), its last lines kept for a chat whose worker keeps crashing.
    const child = fork(this.workerFile, [], {
      serialization: "advanced",
      execArgv: this.execArgv,
      env: withCompileCache(env, this.compileCacheDir),
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    const tail = new StderrTail();
    child.stderr?.on("data", (chunk: Buffer) => tail.append(chunk.toString("utf8")));
    forwardOutput(child.stderr, process.stderr);
    const exited = new Promise<WorkerExit>((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    return {
      pid: child.pid,
      control: new ChildProcessTransport(child),
      exited,
      kill: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      },
      transferPort: (port: never) => port,
      stderrTail: () => tail.toString(),
    };
  }
}
