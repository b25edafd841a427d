/**
 * Starts agent workers with Node's child_process.fork: the same built worker file Electron runs as a
 * utilityProcess, talking over child-process IPC with the "advanced" (structured clone) serialization. Such a
 * worker takes no ports (`transferPort` cannot be called: its type is `never`); it serves sessions on a loopback
 * WebSocket instead.
 */
import { fork, type ChildProcess } from "node:child_process";
import { BaseTransport } from "../../shared/transport/transport";
import { logChildOutput, type ChildLog } from "../logs/app-log";
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
   * child runs with no cache. `log`: the log file its output also goes to (main/logs/app-log.ts); without one its
   * output only reaches the host's.
   */
  constructor(
    private readonly workerFile: string,
    private readonly execArgv: string[] = [],
    private readonly compileCacheDir?: string,
    private readonly log?: ChildLog,
  ) {}

  launch(env: NodeJS.ProcessEnv = workerEnvironment()): WorkerProcess {
    // The worker's stdout and stderr go where the host's go, read at once (a pipe nobody read could fill and block the
    // worker): with a log, copied to the log too; its stderr's last lines kept for a chat whose worker keeps crashing.
    const stdout = this.log ? "pipe" : "inherit";
    const child = fork(this.workerFile, [], {
      serialization: "advanced",
      execArgv: this.execArgv,
      env: withCompileCache(env, this.compileCacheDir),
      stdio: ["ignore", stdout, "pipe", "ipc"],
    });
    const tail = new StderrTail();
    child.stderr?.on("data", (chunk: Buffer) => tail.append(chunk.toString("utf8")));
    forwardOutput(child.stderr, process.stderr);
    let setLogLabel: ((label: string) => void) | undefined;
    if (this.log) {
      forwardOutput(child.stdout, process.stdout);
      setLogLabel = logChildOutput(this.log, () => child.pid, child);
    }
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
      ...(setLogLabel ? { setLogLabel } : {}),
      stderrTail: () => tail.toString(),
    };
  }
}
