import { readdirSync, readFileSync } from "node:fs";

/** Whether a process with this pid exists (a zombie not yet reaped counts as existing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live processes whose parent is `parent` (Linux: read from /proc; elsewhere none are seen). Zombies do not count. */
export function childPids(parent: number): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === parent && state !== "Z") found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** This process's live agent worker children. */
export function workerChildren(): number[] {
  return childPids(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("agent-worker");
    } catch {
      return false;
    }
  });
}

/** Live (not zombie) processes whose whole command line is `cmdline` (Linux: read from /proc; elsewhere none). */
export function processesRunning(cmdline: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return line === cmdline && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}
