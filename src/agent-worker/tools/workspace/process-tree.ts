import { spawn } from "node:child_process";

/** The commands running now (their shells' pids): what `endRunningCommands` ends when the worker goes. */
const running = new Set<number>();

/**
 * Ends a command and everything it started. On POSIX the command was spawned detached, so it leads its own process
 * group and one signal to the group reaches every descendant that did not leave it (a sandboxed command's whole PID
 * namespace dies with bubblewrap). On Windows, taskkill walks the tree. Resolves once the kill is done (on Windows,
 * when taskkill has exited); callers that need not wait may ignore the promise.
 */
export function killProcessTree(pid: number): Promise<void> {
  if (process.platform === "win32") {
    return new Promise((resolve) => {
      const taskkill = spawn("taskkill", ["/T", "/F", "/PID", String(pid)], { stdio: "ignore", windowsHide: true });
      taskkill.on("error", () => resolve());
      taskkill.on("exit", () => resolve());
    });
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone (never the bare pid: once the leader is reaped, its number may belong to someone else)
  }
  return Promise.resolve();
}

/** Records a running command's shell (the bash tool, right after spawn); the returned function forgets it again. */
export function trackCommand(pid: number): () => void {
  running.add(pid);
  return () => running.delete(pid);
}

/**
 * Ends every command still running, each with its whole tree: the worker is going (its parent died), and a command
 * spawned detached (its own process group) would outlive it. On Windows this is what ends them once main is gone: a
 * utility process there learns of main's end only through its lifeline and runs this before it exits. On macOS and
 * Linux, Chromium kills a utility process the moment main's pipe drops, before any of its JavaScript runs, so this
 * runs for workers forked under Node (the web host, tests) there.
 */
export async function endRunningCommands(): Promise<void> {
  const pids = [...running];
  running.clear();
  await Promise.all(pids.map((pid) => killProcessTree(pid)));
}
