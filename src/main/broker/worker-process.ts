/**
 * One agent worker process as the broker sees it, whatever started it (Electron's utilityProcess in the app,
 * Node's child_process.fork in tests and the web host).
 */
import type { Transport } from "../../shared/transport/transport";

export interface WorkerExit {
  code: number | null;
  signal: string | null;
}

export interface WorkerProcess {
  readonly pid: number | undefined;
  /** The control channel (main <-> worker). */
  readonly control: Transport;
  /** Resolves once, when the process has exited for any reason. */
  readonly exited: Promise<WorkerExit>;
  /** Ends the process at once (SIGKILL where the platform has it). Safe to call after exit. */
  kill(): void;
}

export interface WorkerLauncher {
  launch(): WorkerProcess;
}

export function describeExit(exit: WorkerExit): string {
  if (exit.signal) return `the process was killed (${exit.signal})`;
  return `the process exited with code ${exit.code ?? "unknown"}`;
}
