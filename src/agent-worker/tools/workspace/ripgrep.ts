import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { commandEnvironment } from "../../../shared/security/secret-environment";
import { unpackedAsarPath } from "./packaged-path";

let resolved: Promise<string> | undefined;

/**
 * The `rg` binary of @vscode/ripgrep (it comes in a per-platform optional package, so installing needs no
 * download). Loaded on first use: the package throws at import on a platform it has no binary for.
 */
export function ripgrepPath(): Promise<string> {
  resolved ??= import("@vscode/ripgrep").then(
    (module) => unpackedAsarPath(module.rgPath),
    (error: unknown) => {
      resolved = undefined;
      throw new Error(`ripgrep is not available: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  return resolved;
}

export interface RipgrepRun {
  /** rg's exit code (0 found, 1 nothing found, 2 an error); null when it was stopped. */
  code: number | null;
  stderr: string;
}

/**
 * Runs rg in `cwd` (rg matches `--glob`s relative to its working folder) and hands each line of its output to
 * `onLine`, which returns false to stop early (rg is then killed). Abort kills rg and rejects with pi's "Operation
 * aborted". `stdin`: a descriptor rg reads as its standard input (a file to search, given as the path "-").
 */
export async function runRipgrep(
  args: string[],
  cwd: string,
  onLine: (line: string) => boolean | void,
  signal?: AbortSignal,
  stdin?: number,
): Promise<RipgrepRun> {
  if (signal?.aborted) throw new Error("Operation aborted");
  const rg = await ripgrepPath();
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, env: commandEnvironment(process.env), stdio: [stdin ?? "ignore", "pipe", "pipe"], windowsHide: true }) as ChildProcessByStdio<null, Readable, Readable>;
    const lines = createInterface({ input: child.stdout });
    let stderr = "";
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      lines.close();
      child.kill();
    };
    const onAbort = () => stop();
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 10_000) stderr += chunk.toString();
    });
    lines.on("line", (line) => {
      if (!stopped && onLine(line) === false) stop();
    });
    child.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new Error(`Failed to run ripgrep: ${error.message}`));
    });
    child.once("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) reject(new Error("Operation aborted"));
      else resolve({ code: stopped ? null : code, stderr });
    });
  });
}

/** Flags both searches share: the workspace's ignore files (in a git repository or not), dotfiles, never .git. */
export const COMMON_RG_FLAGS = ["--no-config", "--color=never", "--hidden", "--no-require-git"];
export const EXCLUDE_GIT_DIR = ["--glob", "!.git"];
