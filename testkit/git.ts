/** Runs the system `git` in `cwd` for a test's own repository: a fixed default branch and identity, output as text. */
import { execFileSync } from "node:child_process";

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
