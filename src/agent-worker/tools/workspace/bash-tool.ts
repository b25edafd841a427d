import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { join } from "node:path";
import { Type } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import { bashOutputDir, sessionTempDir } from "../../../shared-node/session-files/session-folder";
import { formatSize, MAX_BYTES, MAX_LINES } from "./limits";
import { OutputCapture, type OutputSnapshot } from "./output-capture";
import { killProcessTree, trackCommand } from "./process-tree";
import type { ShellSandbox } from "./sandbox";
import type { Truncation } from "./truncate";
import { ToolFailure, toolErrorResult } from "../../../shared/agent/tool-failure";
import type { ToolEnding } from "../../../shared/protocol/tool-ending";

const parameters = Type.Object({
  command: Type.String({ description: "Shell command to execute" }),
  timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
});

export interface BashDetails {
  truncation?: Truncation;
  fullOutputPath?: string;
  /** Paddock's, for the command's card (the model reads the text): the shell's exit code, once it exited. */
  exitCode?: number;
  /** Paddock's: how long the command ran, in milliseconds, from its start to its end (exit, stop or timeout). */
  durationMs?: number;
  /** Paddock's: a command the user stopped, or that timed out (see tool-ending.ts). */
  ending?: ToolEnding;
}

export interface BashToolOptions {
  /** The workspace's real path (as WorkspacePaths has it). */
  root: string;
  /** Full outputs go to `<sessionDir>/bash-output/`, the commands' TMPDIR is `<sessionDir>/tmp`. */
  sessionDir: string;
  sandbox: ShellSandbox;
  /**
   * pi's `shellCommandPrefix` setting (Settings → Tools), e.g. `shopt -s expand_aliases`: put on its own line before
   * every command, as pi does, so it shapes the command's shell. Asked at each command, so a change in Settings
   * applies to the next one. Absent, or blank: none.
   */
  commandPrefix?: () => string | undefined;
  /**
   * Whether the command runs with the workspace read-only (the Read-only permission profile), asked at each command:
   * the sandbox lets it write only its temp folder; a shell without a sandbox refuses to run it.
   */
  readOnly?: () => boolean;
}

/** pi's pace for live output. */
const UPDATE_INTERVAL_MS = 100;
/** After the command exits, how long to wait for output still in the pipes before letting go of them. */
const EXIT_GRACE_MS = 100;

/** setTimeout's longest delay: pi refuses a timeout past it. */
const MAX_TIMEOUT_MS = 2_147_483_647;

interface ShellExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}
/** How a command ended; a timeout that came after the shell itself exited keeps that exit (pi says both). */
type Ending = ({ kind: "exit" } & ShellExit) | { kind: "aborted" } | { kind: "timeout"; shellExit?: ShellExit & { afterSeconds: number } };

/**
 * pi's bash tool: runs in the workspace, streams output through onUpdate, returns the last 2,000 lines / 50 KB with
 * pi's markers, the full output saved to a file. As pi 1.6.0: a command that exits with another code than 0 (or is
 * killed by a signal: 128 + its number) is an error result carrying that code, not a thrown error; abort and timeout
 * throw. Each command leads its own process group: abort, timeout and the end of the command kill the whole tree, so
 * nothing it started outlives it.
 */
export function bashTool(options: BashToolOptions): AgentTool<typeof parameters, BashDetails | undefined> {
  const tempDir = sessionTempDir(options.sessionDir);
  return {
    name: "bash",
    label: "bash",
    description: `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`,
    parameters,
    async execute(callId, { command, timeout }, signal, onUpdate) {
      checkTimeout(timeout);
      if (signal?.aborted) throw new Error("Command aborted");
      if (!existsSync(options.root)) throw new Error(`Working directory does not exist: ${options.root}\nCannot execute bash commands.`);
      // The root was a real path when the tools were made. A folder swapped for a link since (to `/`, say) would be
      // the command's folder, and what the sandbox lets it write: refused.
      const real = await realpath(options.root);
      if (real !== options.root) throw new Error(`The workspace ${options.root} now leads to ${real} (it was replaced by a link).\nCannot execute bash commands.`);
      const setting = options.commandPrefix?.();
      const prefix = setting?.trim() ? setting : undefined;
      const readOnlyWorkspace = options.readOnly?.() === true;
      const launch = await options.sandbox.launch({
        command: prefix ? `${prefix}\n${command}` : command,
        shown: command,
        callId,
        cwd: options.root,
        tempDir,
        signal,
        ...(readOnlyWorkspace ? { readOnlyWorkspace } : {}),
      });
      const outputPath = join(bashOutputDir(options.sessionDir), `bash-${Date.now()}-${randomBytes(4).toString("hex")}.log`);
      const output = new OutputCapture(outputPath);
      const startedAt = Date.now();
      let ending: Ending;
      const updates = throttledUpdates(output, onUpdate);
      try {
        ending = await run(launch.argv, launch.env, options.root, output, timeout, signal, updates.schedule);
      } finally {
        launch.release();
        updates.stop();
      }
      await output.finish();
      const snapshot = output.snapshot();
      onUpdate?.(partial(snapshot));
      const formatted = formatOutput(snapshot, output.lastLineBytes);
      const { text } = formatted;
      const durationMs = Date.now() - startedAt;
      // The card's facts beside pi's (truncation, the saved output): how it ended, and how long it took.
      const details = (more: BashDetails): BashDetails => ({ ...formatted.details, durationMs, ...more });
      const status = (message: string, ending: ToolEnding, exited?: ShellExit) =>
        new ToolFailure(`${text ? `${text}\n\n` : ""}${message}`, details({ ending, ...(exited ? { exitCode: exitCode(exited) } : {}) }));
      if (ending.kind === "aborted") throw status("Command aborted", "stopped");
      if (ending.kind === "timeout") {
        const exited = ending.shellExit;
        // Both facts matter (pi's words): the command's own result, and that what it left running kept writing.
        const after = exited
          ? `. The shell exited with code ${exitCode(exited)} after ${exited.afterSeconds} seconds, but background processes it started kept writing output until the timeout.`
          : "";
        throw status(`Command timed out after ${timeout} seconds${after}`, "timeout", exited);
      }
      // A command that ran to its end and printed nothing says "(no output)", also above its status.
      const shown = text || "(no output)";
      const code = exitCode(ending);
      if (code !== 0) return toolErrorResult([{ type: "text", text: `${shown}\n\nCommand exited with code ${code}` }], details({ exitCode: code }));
      return { content: [{ type: "text", text: shown }], details: details({ exitCode: code }) };
    },
  };
}

/** pi's check: a timeout is a finite, positive number of seconds that setTimeout can wait. */
function checkTimeout(timeout: number | undefined): void {
  if (timeout === undefined) return;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new Error("Invalid timeout: must be a finite number of seconds");
  if (timeout * 1000 > MAX_TIMEOUT_MS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_MS / 1000} seconds`);
}

/** The shell's exit code; one killed by a signal has none, and counts as 128 + the signal's number, as shells say. */
function exitCode(exit: ShellExit): number {
  if (exit.code !== null) return exit.code;
  return exit.signal ? 128 + (osConstants.signals[exit.signal] ?? 0) : 1;
}

function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  output: OutputCapture,
  timeout: number | undefined,
  signal: AbortSignal | undefined,
  onOutput: () => void,
): Promise<Ending> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env,
      detached: process.platform !== "win32",
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    // Known to the worker while it runs, so a worker whose parent died ends it (and its tree) before exiting.
    const untrack = child.pid ? trackCommand(child.pid) : () => {};
    const streams = [child.stdout, child.stderr];
    let stoppedBy: "aborted" | "timeout" | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let paused = false;
    let lastOutputAt = Date.now();
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = (reason: "aborted" | "timeout") => {
      stoppedBy ??= reason;
      if (child.pid) void killProcessTree(child.pid);
      // The shell is gone, and what still holds its pipes left its group (setsid): the kill cannot reach it, so the
      // call lets go of the pipes now rather than when that process stops writing.
      if (exit) settle();
    };
    const onAbort = () => stop("aborted");
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const startedAt = Date.now();
    let exitedAfterMs: number | undefined;
    const timer = timeout !== undefined ? setTimeout(() => stop("timeout"), timeout * 1000) : undefined;

    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      untrack();
      clearTimeout(timer);
      clearInterval(graceTimer);
      signal?.removeEventListener("abort", onAbort);
      for (const stream of streams) stream.destroy();
      const shellExit = exit && exitedAfterMs !== undefined ? { ...exit, afterSeconds: Math.round(exitedAfterMs / 100) / 10 } : undefined;
      if (stoppedBy === "timeout") resolve({ kind: "timeout", ...(shellExit ? { shellExit } : {}) });
      else resolve(stoppedBy ? { kind: stoppedBy } : { kind: "exit", code: exit?.code ?? null, signal: exit?.signal ?? null });
    };
    const onData = (chunk: Buffer) => {
      lastOutputAt = Date.now();
      if (!output.append(chunk) && !paused) {
        // The output file is behind: hold the command's pipes until it catches up.
        paused = true;
        for (const stream of streams) stream.pause();
        void output.drained().then(() => {
          paused = false;
          for (const stream of streams) stream.resume();
        });
      }
      onOutput();
    };
    for (const stream of streams) stream.on("data", onData);

    child.once("error", (error) => {
      if (settled) return;
      settled = true;
      untrack();
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.once("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      if (!stoppedBy) exitedAfterMs = Date.now() - startedAt;
      // Whatever the command left running in its group ends with it; once the pipes are drained (or a process that
      // left the group still holds them, idle), the command is over.
      if (child.pid && process.platform !== "win32") void killProcessTree(child.pid);
      graceTimer = setInterval(() => {
        if (!paused && Date.now() - lastOutputAt >= EXIT_GRACE_MS) settle();
      }, EXIT_GRACE_MS / 2);
    });
    child.once("close", settle);
  });
}

/** Live output at most every 100 ms, as pi sends it: an empty update first, then the tail so far. */
function throttledUpdates(output: OutputCapture, onUpdate: ((result: { content: { type: "text"; text: string }[]; details: BashDetails | undefined }) => void) | undefined) {
  let timer: NodeJS.Timeout | undefined;
  let lastAt = 0;
  onUpdate?.({ content: [], details: undefined });
  const emit = () => {
    timer = undefined;
    lastAt = Date.now();
    onUpdate?.(partial(output.snapshot()));
  };
  return {
    schedule() {
      if (!onUpdate || timer) return;
      timer = setTimeout(emit, Math.max(0, UPDATE_INTERVAL_MS - (Date.now() - lastAt)));
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

function partial(snapshot: OutputSnapshot) {
  return {
    content: [{ type: "text" as const, text: snapshot.content }],
    details: { truncation: snapshot.truncation.truncated ? snapshot.truncation : undefined, fullOutputPath: snapshot.fullOutputPath },
  };
}

/** pi's result text: the kept tail and, when truncated, which lines it shows and where the rest is. */
function formatOutput(snapshot: OutputSnapshot, lastLineBytes: number): { text: string; details: BashDetails | undefined } {
  const { truncation } = snapshot;
  if (!truncation.truncated) return { text: snapshot.content, details: undefined };
  const fullOutput = snapshot.fullOutputPath ?? "(could not be saved)";
  const first = truncation.totalLines - truncation.outputLines + 1;
  const last = truncation.totalLines;
  let marker: string;
  if (truncation.lastLinePartial) {
    marker = `[Showing last ${formatSize(truncation.outputBytes)} of line ${last} (line is ${formatSize(lastLineBytes)}). Full output: ${fullOutput}]`;
  } else if (truncation.truncatedBy === "lines") {
    marker = `[Showing lines ${first}-${last} of ${truncation.totalLines}. Full output: ${fullOutput}]`;
  } else {
    marker = `[Showing lines ${first}-${last} of ${truncation.totalLines} (${formatSize(MAX_BYTES)} limit). Full output: ${fullOutput}]`;
  }
  return { text: `${snapshot.content}\n\n${marker}`, details: { truncation, fullOutputPath: snapshot.fullOutputPath } };
}
