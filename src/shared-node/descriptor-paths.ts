/**
 * Whether this system says where an open file descriptor is: Linux with /proc mounted (`/proc/self/fd/N` is a link to
 * the descriptor's real path). The file readers that check what they opened (the workspace tools' checked-open.ts,
 * regular-file.ts) ask here; elsewhere they fall back to resolving the path again. Asked once per process.
 */
import { readlink } from "node:fs/promises";

let answer: Promise<boolean> | undefined;

export function descriptorPathsKnown(): Promise<boolean> {
  answer ??= process.platform === "linux" ? readlink("/proc/self").then(() => true, () => false) : Promise.resolve(false);
  return answer;
}
