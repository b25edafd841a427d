/**
 * Starts agent workers as Electron utility processes. The control channel is the process's own postMessage /
 * `process.parentPort`; session ports travel the same way, as a message with one MessagePortMain attached, and so
 * does the lifeline port whose closing tells a worker that main is gone. If main itself dies, on macOS and Linux
 * Chromium ends every utility process as soon as main's pipe drops, before the worker's JavaScript hears the lifeline:
 * only its last reply checkpoint survives (at most 0.5 s behind), and its running commands are not ended by it. On
 * Windows the lifeline is what ends an orphan, and the worker ends its commands' trees (taskkill /T) first.
 *
 * A utility process is NOT sandboxed by the OS: Electron runs it as Node with the user's rights (files, network,
 * child processes), unlike the page's renderer. What confines a worker is Paddock's own code: it keeps no secrets
 * (main hands it a provider's key for each model call), and the model acts only through the worker's tools, whose
 * paths are gated to the workspace, whose shell commands run in the sandbox runtime (bubblewrap, Seatbelt) where
 * there is one, and which ask the user as Settings say. The process boundary isolates crashes and memory, not
 * privileges (docs/security.md, "Worker processes").
 */
import { MessageChannelMain, utilityProcess, type MessagePortMain, type UtilityProcess } from "electron";
import { BaseTransport } from "../../shared/transport/transport";
import { LIFELINE_FRAME, SESSION_PORT_FRAME } from "../../shared/protocol/control-protocol";
import { forwardOutput } from "../broker/worker-output";
import { logChildOutput, type ChildLog } from "../logs/app-log";
import { StderrTail } from "../../shared-node/process/stderr-tail";
import { withCompileCache, workerEnvironment, type WorkerExit, type WorkerLauncher, type WorkerProcess } from "../broker/worker-process";

class UtilityProcessTransport extends BaseTransport {
  constructor(private readonly child: UtilityProcess) {
    super();
    child.on("message", (message) => this.receive(message));
    child.once("exit", () => this.markClosed("worker exited"));
  }

  protected deliver(message: unknown): void {
    try {
      this.child.postMessage(message);
    } catch (error) {
      this.markClosed(`send failed: ${(error as Error).message}`);
    }
  }

  /** A utility process has no channel to disconnect; ending the process is the equivalent. */
  protected closeUnderlying(): void {
    this.child.kill();
  }
}

/** A worker running as a utility process; unlike a forked Node child it can receive session ports. */
export class UtilityWorkerProcess implements WorkerProcess {
  readonly control: UtilityProcessTransport;
  readonly exited: Promise<WorkerExit>;
  readonly #child: UtilityProcess;
  #pid: number | undefined;
  /** Why the process ended when we know better than its exit code: our own kill, or V8's fatal error. */
  #cause: string | null = null;
  #gone = false;
  /** Main's end of the worker's lifeline: held (never used) for the worker's life; closed when it ends. */
  readonly #lifeline: MessagePortMain;
  readonly #stderr = new StderrTail();

  /** Names this process's lines in the log file (see WorkerProcess.setLogLabel). */
  readonly setLogLabel: (label: string) => void;

  constructor(child: UtilityProcess, lifeline: MessagePortMain, log?: ChildLog) {
    this.#child = child;
    child.stderr?.on("data", (chunk: Buffer) => this.#stderr.append(chunk.toString("utf8")));
    this.#lifeline = lifeline;
    this.setLogLabel = logChildOutput(log, () => this.#pid, child);
    this.#pid = child.pid;
    child.once("spawn", () => {
      this.#pid = child.pid;
    });
    child.on("error", (type, location) => {
      this.#cause = `${type === "FatalError" ? "fatal V8 error" : type} at ${location}`;
    });
    this.control = new UtilityProcessTransport(child);
    this.exited = new Promise((resolve) => {
      // Electron reports only the exit code; the cause we saw (if any) stands in for the signal in describeExit().
      child.once("exit", (code) => {
        this.#gone = true;
        this.#lifeline.close();
        resolve({ code, signal: this.#cause });
      });
    });
  }

  /** The OS pid; kept after exit (Electron forgets it), so reports can still name the process. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** The last lines the worker wrote to stderr. */
  stderrTail(): string {
    return this.#stderr.toString();
  }

  /** Hands `port` to the worker, which serves the session it hosts on it. The port is unusable here afterwards. */
  transferPort(port: MessagePortMain): void {
    this.#child.postMessage(SESSION_PORT_FRAME, [port]);
  }

  kill(): void {
    if (this.#gone) return;
    const pid = this.#child.pid;
    if (pid === undefined) {
      // Still starting (utilityProcess.kill() does nothing before spawn): end it as soon as it exists. Its lifeline
      // closes now, so a worker that starts anyway exits by itself, and the kill never depends on `spawn` coming.
      this.#child.once("spawn", () => this.kill());
      this.#lifeline.close();
      return;
    }
    this.#cause ??= "SIGKILL";
    // utilityProcess.kill() sends SIGTERM, which a stuck worker may not act on; the contract is an immediate end.
    if (process.platform === "win32") this.#child.kill();
    else {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        this.#child.kill();
      }
    }
    // After the kill, so a worker that sees the lifeline close first is already ending.
    this.#lifeline.close();
  }
}

export class UtilityWorkerLauncher implements WorkerLauncher {
  /**
   * `workerFile`: the built entry (out/main/agent-worker.js, or mcp-host.js for the MCP host); `serviceName` names
   * the process in the system's task manager; `compileCacheDir`: the folder for V8's compile cache (the core's
   * `dataFiles(...).compileCacheDir`), none without; `log`: the log file its output also goes to (a packaged app's
   * stdout goes nowhere). Launch only after app ready.
   */
  constructor(
    private readonly workerFile: string,
    private readonly serviceName = "Paddock Agent",
    private readonly compileCacheDir?: string,
    private readonly log?: ChildLog,
  ) {}

  launch(env: NodeJS.ProcessEnv = workerEnvironment()): UtilityWorkerProcess {
    const child = utilityProcess.fork(this.workerFile, [], { serviceName: this.serviceName, stdio: "pipe", env: withCompileCache(env, this.compileCacheDir) });
    // Piped and read at once, so the pipe never fills up and blocks the worker; passed on to main's own output,
    // where a closed terminal or `| head` (EPIPE) drops it rather than ending main.
    forwardOutput(child.stdout, process.stdout);
    forwardOutput(child.stderr, process.stderr);
    // The lifeline goes first, so the worker holds it before any other message can reach it.
    const { port1: lifeline, port2: workerEnd } = new MessageChannelMain();
    child.postMessage(LIFELINE_FRAME, [workerEnd]);
    return new UtilityWorkerProcess(child, lifeline, this.log);
  }
}
