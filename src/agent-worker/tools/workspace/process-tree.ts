import { spawn } from "node:child_process";

/**
 * Ends a command and everything it started. On POSIX the command was spawned detached, so it leads its own process
 * group and one signal to the group reaches every descendant that did not leave it (a sandboxed command's whole PID
 * namespace dies with bubblewrap). On Windows, taskkill walks the tree.
 */
export function killProcessTree(pid: number): void {
  if (process.platform === "win32") {
    spawn("taskkill", ["/T", "/F", "/PID", String(pid)], { stdio: "ignore", windowsHide: true }).on("error", () => {});
    return;
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone (never the bare pid: once the leader is reaped, its number may belong to someone else)
  }
}
