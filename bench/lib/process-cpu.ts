/** How much CPU another process has used, read from /proc (Linux only). */
import { readFileSync } from "node:fs";

/** The process's user + system CPU time so far, in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After "pid (comm) ", field 3 (state) is fields[0]; utime and stime are fields 14 and 15 of the whole line.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
