/**
 * Running the system `git` for worktrees: `execFile`, never a shell, so nothing in a path, a branch name or a chat
 * title is ever parsed by one. Every call:
 * - starts from an environment without any `GIT_*` variable of ours (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`,
 *   `GIT_CONFIG_*`…), so the repository git works on is the folder we name and nothing else; a call that needs one
 *   (a temporary index) sets it itself;
 * - never prompts (`GIT_TERMINAL_PROMPT=0`), takes no optional lock in the user's repository (`GIT_OPTIONAL_LOCKS=0`),
 *   answers in the C locale (its messages are parsed in a few places), and reads every pathspec literally
 *   (`--literal-pathspecs`: a file named `*` or `:(glob)…` is that file, not a pattern);
 * - runs no hook and no file-system monitor (`core.hooksPath` pointed at nothing, `core.fsmonitor=false`): a
 *   worktree made for an agent must not run a repository's `post-checkout` or `pre-commit` scripts, nor a program a
 *   downloaded repository's `.git/config` names. Clean/smudge filters (Git LFS) still run, as they must for the files
 *   to be right: they are the user's configuration, which git itself trusts.
 * Arguments that come from outside (paths, branch names, commits) always follow `--` or a validated form, so none of
 * them is taken for an option.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { devNull } from "node:os";

/** The words the chat shows when there is no `git` at all (Windows without Git for Windows). */
export const GIT_MISSING_MESSAGE = "git is not installed: worktrees are off";

export type WorktreeErrorCode =
  | "git-missing"
  | "git-too-old"
  | "not-a-repository"
  | "bare-repository"
  | "inside-git-folder"
  | "no-commit"
  | "invalid-name"
  | "inside-workspace"
  | "not-a-paddock-worktree"
  | "git-failed";

/** A clear answer to show the user: what is wrong, in words, and a code to act on. */
export class WorktreeError extends Error {
  constructor(
    readonly code: WorktreeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "WorktreeError";
  }
}

/** Options every worktree operation takes: the environment to start from (tests hide `git` by changing its PATH). */
export interface GitOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The git folder to use (`--git-dir`, with the call's folder as `--work-tree`) instead of the one git would find from
   * the folder: for a worktree, whose `.git` file is in the agent's reach (worktree-git-dir.ts).
   */
  gitDir?: string;
}

export interface GitCall extends GitOptions {
  cwd: string;
  /** Bytes for git's standard input. */
  input?: string | Buffer;
  /** Variables this call sets (a temporary index): added after ours are taken away. */
  set?: Record<string, string>;
  /** Exit codes that are answers, not failures (`git diff --quiet`, `git merge-file`). */
  okCodes?: readonly number[];
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Large enough for a whole tree's diff; git's output beyond it is a failure, not a silent truncation. */
const MAX_OUTPUT = 512 * 1024 * 1024;

const FIXED_CONFIG = ["-c", `core.hooksPath=${devNull}`, "-c", "core.fsmonitor=false", "-c", "core.quotePath=false"];

/** `base` without any `GIT_*` variable, plus what every call sets. */
export function gitEnvironment(base: Readonly<Record<string, string | undefined>>, set: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || /^GIT_/i.test(name)) continue;
    env[name] = value;
  }
  return { ...env, LC_ALL: "C", LANGUAGE: "C", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", ...set };
}

/** Runs `git <args>` in `call.cwd`; throws a `WorktreeError` (`git-missing` or `git-failed`, with git's message). */
export function runGit(args: readonly string[], call: GitCall): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...FIXED_CONFIG, "--literal-pathspecs", ...(call.gitDir ? [`--git-dir=${call.gitDir}`, `--work-tree=${call.cwd}`] : []), ...args],
      {
        cwd: call.cwd,
        env: gitEnvironment(call.env ?? process.env, call.set),
        encoding: "buffer",
        maxBuffer: MAX_OUTPUT,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const errText = stderr.toString("utf8");
        if (error && (error as NodeJS.ErrnoException).code === "ENOENT") {
          // The same code when the folder is missing: only a folder that is there means git is not.
          reject(existsSync(call.cwd) ? new WorktreeError("git-missing", GIT_MISSING_MESSAGE) : new WorktreeError("git-failed", `There is no folder ${call.cwd}`));
          return;
        }
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        if (code !== 0 && !call.okCodes?.includes(code)) {
          const said = errText.trim().split("\n").slice(-3).join(" ");
          reject(new WorktreeError("git-failed", `git ${args[0] ?? ""} failed${said ? `: ${said}` : ` (exit ${code})`}`));
          return;
        }
        resolve({ code, stdout, stderr: errText });
      },
    );
    child.stdin?.on("error", () => {}); // git may exit before reading all of its input; its exit code says why
    child.stdin?.end(call.input ?? "");
  });
}

/** `git <args>`'s standard output as text, without the final newline. */
export async function gitText(args: readonly string[], call: GitCall): Promise<string> {
  return (await runGit(args, call)).stdout.toString("utf8").replace(/\n$/, "");
}

/** Splits git's `-z` output into its NUL-terminated fields. */
export function nulFields(out: Buffer): string[] {
  const text = out.toString("utf8");
  const fields = text.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

const repositoryQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` when no other worktree operation of this process on the same repository runs (keyed by its common git
 * folder): git's `worktree add`, `remove` and `list` read each other's half-written entries under `.git/worktrees`
 * ("failed to read …/commondir") when parallel tasks make worktrees at once.
 */
export async function withRepositoryLock<T>(folder: string, options: GitOptions, fn: () => Promise<T>): Promise<T> {
  const key = await gitText(["rev-parse", "--path-format=absolute", "--git-common-dir"], { ...options, cwd: folder });
  const before = repositoryQueues.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  repositoryQueues.set(key, settled);
  void settled.then(() => {
    if (repositoryQueues.get(key) === settled) repositoryQueues.delete(key);
  });
  return run;
}
