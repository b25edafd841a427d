import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

let found: string | undefined;

/**
 * The bash that runs commands, found as pi finds it: /bin/bash, else bash on PATH (else sh); on Windows Git Bash in
 * its usual places, else bash on PATH. Throws with the places tried when there is none.
 */
export function findBash(): string {
  found ??= locate();
  return found;
}

function locate(): string {
  if (process.platform !== "win32") return existsSync("/bin/bash") ? "/bin/bash" : (onPath("which", "bash") ?? "sh");
  const candidates = [process.env.ProgramFiles, process.env["ProgramFiles(x86)"]]
    .filter((dir): dir is string => Boolean(dir))
    .map((dir) => `${dir}\\Git\\bin\\bash.exe`);
  const bash = candidates.find((path) => existsSync(path)) ?? onPath("where", "bash.exe");
  if (bash) return bash;
  throw new Error(`No bash shell found. Install Git for Windows (it brings Git Bash) or put a bash on PATH. Searched:\n${candidates.map((c) => `  ${c}`).join("\n")}`);
}

function onPath(finder: string, name: string): string | undefined {
  const result = spawnSync(finder, [name], { encoding: "utf8", timeout: 5000, windowsHide: true });
  const first = result.status === 0 ? result.stdout.trim().split(/\r?\n/)[0] : "";
  return first && existsSync(first) ? first : undefined;
}
