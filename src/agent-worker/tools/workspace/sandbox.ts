import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { commandEnvironment } from "../../../shared/security/secret-environment";
import { sandboxCause, type SandboxCause, type SandboxFacts } from "../../../shared/security/sandbox-help";
import { piAgentFolder } from "../../../shared-node/pi-agent-folder";
import { unpackedAsarPath } from "./packaged-path";
import { ripgrepPath } from "./ripgrep";
import { findBash } from "./shell";

type Runtime = typeof import("@anthropic-ai/sandbox-runtime");

/** A command running in the sandbox now, as a network question names it. */
export interface RunningCommand {
  command: string;
  callId?: string;
}

/** A connection no rule allows: who asks, and what the user answered (a denial's reason goes to the command). */
export type NetworkAsk = (request: { host: string; port: number | undefined; commands: RunningCommand[] }) => Promise<{ allow: boolean; reason?: string }>;

/**
 * How to start one command: spawn `argv` with `env`, then call `release` when it has ended. `env` holds no
 * secret-looking variable and no credentials in URLs (`commandEnvironment`), sandbox or not.
 */
export interface ShellLaunch {
  argv: string[];
  env: NodeJS.ProcessEnv;
  release(): void;
}

export interface LaunchRequest {
  command: string;
  /** The workspace: where the command runs, and (with `tempDir`) all it may write. */
  cwd: string;
  /** The session's temp folder, given to the command as TMPDIR. */
  tempDir: string;
  signal?: AbortSignal;
  /** The command as the user saw it (without Settings' prefix line): what a network question names. */
  shown?: string;
  /** The tool call that runs it: a network question shows in its card. */
  callId?: string;
  /**
   * The workspace is read-only to the command (the Read-only permission profile): it may write only `tempDir`. A
   * shell without a sandbox cannot promise that, and refuses to run it.
   */
  readOnlyWorkspace?: boolean;
}

/** Where a `bash` command runs. */
export interface ShellSandbox {
  /**
   * "bubblewrap" (Linux) or "seatbelt" (macOS): writes only in the workspace and the temp folder, no network except
   * the allowed domains, credential folders unreadable. "none": the command runs with the user's full rights, so every
   * call should be the user's to approve.
   */
  readonly kind: "bubblewrap" | "seatbelt" | "none";
  launch(request: LaunchRequest): Promise<ShellLaunch>;
}

export type SandboxSupport =
  | { available: true; kind: "bubblewrap" | "seatbelt"; warnings: string[] }
  | { available: false; reason: string; cause?: SandboxCause };

export interface SandboxOptions {
  /**
   * Hosts commands may reach (sandbox-runtime's syntax: "example.com", "*.npmjs.org", "host:443"), read as each
   * command starts (Settings' list and the project's granted hosts). Default: none.
   */
  allowedDomains?: readonly string[] | (() => readonly string[]);
  /**
   * Asked when a command connects to a host no rule allows; its connection waits for the answer. Absent: refused at
   * once. The latest sandbox made in a process asks (a worker hosts one session).
   */
  askNetwork?: NetworkAsk;
  /** Paths commands may not read. Default: the usual credential stores in the home folder. */
  denyRead?: string[];
  /** Paths inside a denied one that commands may read after all (the session's own folder inside the app's). */
  allowRead?: string[];
}

/**
 * Credential stores a sandboxed command has no business reading (anything it reads can end up at the model): the
 * usual folders, and the files other agent harnesses keep their sign-ins and keys in (pi's `auth.json`, in its user
 * folder wherever `PI_CODING_AGENT_DIR` moves it; Claude Code's and Codex's), whose neighbours (skills, agents) stay
 * readable.
 */
export const DEFAULT_DENY_READ = [
  ...[".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker", ".netrc", ".git-credentials", ".claude/.credentials.json", ".codex/auth.json"].map(
    (path) => join(homedir(), path),
  ),
  join(piAgentFolder(), "auth.json"),
];

/** Paths sandbox-runtime leaves writable for Claude Code's convenience; ours write only where they were told. */
const RUNTIME_CONVENIENCE_WRITES = ["/tmp/claude", "/private/tmp/claude", join(homedir(), ".npm/_logs"), join(homedir(), ".claude/debug")];

/** A shell without a sandbox: for platforms where none can run, with every command approved by the user. */
export function unsandboxedShell(): ShellSandbox {
  return {
    kind: "none",
    async launch({ command, tempDir, readOnlyWorkspace }) {
      if (readOnlyWorkspace) throw new Error("This chat is Read-only: commands run only in a sandbox with the workspace read-only, and there is no sandbox here.");
      mkdirSync(tempDir, { recursive: true });
      return { argv: [findBash(), "-c", command], env: { ...commandEnvironment(process.env), TMPDIR: tempDir }, release() {} };
    },
  };
}

/**
 * A shell under @anthropic-ai/sandbox-runtime (bubblewrap + a network namespace on Linux, Seatbelt on macOS; network
 * only through its filtering proxies). Throws, with the reason, where `detectSandbox()` says no sandbox can run.
 */
export async function createShellSandbox(options: SandboxOptions = {}): Promise<ShellSandbox> {
  const support = await detectSandbox();
  if (!support.available) throw new Error(support.reason);
  return sandboxedShell(support.kind, options);
}

let detection: Promise<SandboxSupport> | undefined;

/**
 * Whether commands can be sandboxed here, and if not, why. Checks the runtime's dependencies (bubblewrap, socat and
 * ripgrep on Linux), then really runs `true` in the sandbox once, which is what finds a kernel without usable user
 * namespaces or a root without CAP_SETFCAP. Done once per process (~200 ms, mostly loading the runtime).
 */
export function detectSandbox(): Promise<SandboxSupport> {
  detection ??= probe();
  return detection;
}

/**
 * Takes what another worker on this machine found (main passes it on), instead of probing: the probe loads the
 * runtime (~200 ms, ~25 MB), which a process then needs only for its first sandboxed command. No effect once known.
 */
export function knowSandboxSupport(support: SandboxSupport): void {
  if (process.env.PADDOCK_NO_SANDBOX) return; // the probe says why, in this process's own words
  detection ??= Promise.resolve(support);
}

async function probe(): Promise<SandboxSupport> {
  const simulated = simulatedCheck(process.env.PADDOCK_NO_SANDBOX);
  if (simulated) return unavailable(simulated);
  const kind = process.platform === "linux" ? "bubblewrap" : process.platform === "darwin" ? "seatbelt" : undefined;
  if (!kind) return unavailable({ platform: process.platform });
  try {
    const { SandboxManager } = await import("@anthropic-ai/sandbox-runtime");
    const deps = SandboxManager.checkDependencies({ command: await ripgrepPath() });
    if (deps.errors.length > 0) return unavailable({ platform: process.platform, dependencyErrors: deps.errors });
    const folder = mkdtempSync(join(tmpdir(), "paddock-sandbox-probe-"));
    try {
      const failure = await runProbe(sandboxedShell(kind, { denyRead: [] }), folder);
      if (failure) return unavailable({ platform: process.platform, probeFailure: failure, appArmorRestrictsUserNamespaces: appArmorRestrictsUserNamespaces() });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    return { available: true, kind, warnings: deps.warnings };
  } catch (error) {
    return unavailable({ platform: process.platform, probeFailure: error instanceof Error ? error.message : String(error), appArmorRestrictsUserNamespaces: appArmorRestrictsUserNamespaces() });
  }
}

/** The check's result as a verdict: the reason in the check's words, and its cause (shared/security/sandbox-help.ts). */
export function unavailable(facts: SandboxFacts): SandboxSupport & { available: false } {
  const cause = sandboxCause(facts);
  const reason =
    cause.kind === "turned-off" ? "turned off by PADDOCK_NO_SANDBOX=1"
    : cause.kind === "windows" ? "No sandbox on Windows yet: sandbox-runtime's Windows support is an alpha that needs an elevated, machine-wide install."
    : cause.kind === "unsupported-os" ? `No sandbox for ${cause.os}.`
    : facts.dependencyErrors?.length ? `The sandbox cannot run here: ${facts.dependencyErrors.join("; ")}.`
    : `The sandbox cannot run here: ${facts.probeFailure ?? "the check failed"}`;
  return { available: false, reason, cause };
}

/** Ubuntu 23.10 and later: AppArmor allows unprivileged user namespaces only to programs with a profile. */
function appArmorRestrictsUserNamespaces(): boolean {
  try {
    return readFileSync("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "utf8").trim() === "1";
  } catch {
    return false;
  }
}

/**
 * `PADDOCK_NO_SANDBOX`: "1" turns the sandbox off; a test switch names a check result to report instead of checking,
 * so tests and screenshots can show the workspace panel's help on any machine: "missing" (bubblewrap and socat not
 * installed), "apparmor" (stock Ubuntu 24.04: AppArmor refuses bubblewrap its user namespace), "windows".
 */
export function simulatedCheck(value: string | undefined): SandboxFacts | undefined {
  switch (value) {
    case undefined:
    case "":
    case "0":
      return undefined;
    case "missing":
      return { platform: "linux", dependencyErrors: ["bubblewrap (bwrap) not installed", "socat not installed"] };
    case "apparmor":
      return { platform: "linux", probeFailure: "bwrap: setting up uid map: Permission denied", appArmorRestrictsUserNamespaces: true };
    case "windows":
      return { platform: "win32" };
    default:
      return { platform: process.platform, turnedOff: true };
  }
}

/** Runs `true` in the sandbox; undefined when it worked, else what went wrong. */
async function runProbe(shell: ShellSandbox, folder: string): Promise<string | undefined> {
  const launch = await shell.launch({ command: "true", cwd: folder, tempDir: join(folder, "tmp") });
  try {
    return await new Promise<string | undefined>((resolve) => {
      const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: folder, env: launch.env, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.once("error", (error) => {
        clearTimeout(timer);
        resolve(error.message);
      });
      child.once("close", (code) => {
        clearTimeout(timer);
        resolve(code === 0 ? undefined : stderr.trim().slice(0, 500) || `the test command exited with ${code}`);
      });
    });
  } finally {
    launch.release();
  }
}

let runtime: Promise<Runtime> | undefined;

/**
 * sandbox-runtime keeps one configuration per process (proxies, their allow lists): started once, strict (no
 * network, no writes), and widened per command through the wrap's own filesystem config and a per-command domain
 * list. It costs ~275 ms to load, so it loads on the first sandboxed command.
 */
function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    const module = await import("@anthropic-ai/sandbox-runtime");
    await module.SandboxManager.initialize(
      {
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { denyRead: [], allowWrite: [], denyWrite: RUNTIME_CONVENIENCE_WRITES },
        ripgrep: { command: await ripgrepPath() },
        ...vendoredFilesInPackagedApp(),
      },
      askAboutHost,
    );
    return module;
  })();
  runtime.catch(() => {
    runtime = undefined;
  });
  return runtime;
}

/**
 * In a packaged app, the runtime's own files that other programs open (the seccomp helper bubblewrap executes, the
 * agent jar a JVM loads) must be the unpacked copies (see packaged-path.ts); elsewhere its defaults are right.
 */
function vendoredFilesInPackagedApp(): { seccomp?: { applyPath: string }; javaAgentJarPath?: string } {
  const vendor = join(dirname(createRequire(import.meta.url).resolve("@anthropic-ai/sandbox-runtime")), "..", "vendor");
  if (unpackedAsarPath(vendor) === vendor) return {};
  const helper = join(vendor, "seccomp", process.arch === "arm64" ? "arm64" : "x64", "apply-seccomp");
  return {
    ...(process.platform === "linux" ? { seccomp: { applyPath: unpackedAsarPath(helper) } } : {}),
    javaAgentJarPath: unpackedAsarPath(join(vendor, "java-proxy-agent", "srt-proxy-agent.jar")),
  };
}

/** Stops the runtime's proxies (tests; a worker that exits needs nothing). */
export async function disposeSandboxRuntime(): Promise<void> {
  const current = runtime;
  runtime = undefined;
  detection = undefined;
  networkAsk = undefined;
  running.clear();
  if (current) await (await current).SandboxManager.reset();
}

let wraps: Promise<unknown> = Promise.resolve();

/** The commands running in the sandbox now, by the id their network list is registered under. */
interface Running extends RunningCommand {
  /** The list the command started with, and the hosts allowed for it since (once, or for the project). */
  allowed: () => readonly string[];
  extra: Set<string>;
}
const running = new Map<string, Running>();
let networkAsk: NetworkAsk | undefined;
/** One question per host at a time: a program opening several connections to it waits for the same answer. */
const asking = new Map<string, Promise<{ allow: boolean; reason?: string }>>();

function registerList(SandboxManager: Runtime["SandboxManager"], commandId: string, command: Running): void {
  const allowedDomains = [...new Set([...command.allowed(), ...command.extra])];
  try {
    SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains });
  } catch {
    // An entry the runtime refuses (a hand-edited Settings list): without the extras, nothing more is allowed.
    SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: [...command.extra] });
  }
}

/**
 * The runtime's ask callback: a sandboxed command connects to a host that neither Settings nor the project allow.
 * The runtime does not say which command (its proxy knows only the connection), so the question names the commands
 * running now (one, nearly always: a chat's worker runs its own commands). Allowed: the host is added to the list of
 * each command running now, so its further connections do not ask again; the held connection then goes on.
 */
async function askAboutHost({ host, port }: { host: string; port: number | undefined }): Promise<boolean | { allow: false; reason: string }> {
  const commands = [...running.entries()];
  const ask = networkAsk;
  if (!ask || commands.length === 0) return { allow: false, reason: `${host} is not an allowed domain (Settings -> Tools)` };
  const key = host.toLowerCase();
  let answer = asking.get(key);
  if (!answer) {
    answer = ask({ host, port, commands: commands.map(([, c]) => ({ command: c.command, ...(c.callId ? { callId: c.callId } : {}) })) })
      .catch((error: unknown) => ({ allow: false, reason: `the question could not be asked (${error instanceof Error ? error.message : String(error)})` }))
      .finally(() => asking.delete(key));
    asking.set(key, answer);
  }
  const { allow, reason } = await answer;
  if (!allow) return { allow: false, reason: reason ?? "the user denied it" };
  const current = await runtime;
  for (const [id, command] of commands) {
    if (running.get(id) !== command) continue; // ended meanwhile
    command.extra.add(key);
    if (current) registerList(current.SandboxManager, id, command);
  }
  return true;
}

/**
 * The project's grants changed: every running command's list is read again (a host granted for the project reaches
 * the commands running now; a removed one is not taken from a command that was allowed it once).
 */
export async function refreshRunningNetworkLists(): Promise<void> {
  const current = await runtime?.catch(() => undefined);
  if (!current) return;
  for (const [id, command] of running) registerList(current.SandboxManager, id, command);
}

function sandboxedShell(kind: "bubblewrap" | "seatbelt", options: SandboxOptions): ShellSandbox {
  const given = options.allowedDomains ?? [];
  const allowedDomains = typeof given === "function" ? given : () => given;
  if (options.askNetwork) networkAsk = options.askNetwork;
  const denyRead = options.denyRead ?? DEFAULT_DENY_READ;
  const allowRead = options.allowRead ?? [];
  return {
    kind,
    async launch({ command, cwd, tempDir, signal, shown, callId, readOnlyWorkspace }) {
      const { SandboxManager } = await loadRuntime();
      mkdirSync(tempDir, { recursive: true });
      // A per-command id carries the domain list: the proxies learn it from the proxy credentials the command uses.
      const commandId = randomBytes(16).toString("base64url");
      const entry: Running = { command: shown ?? command, ...(callId ? { callId } : {}), allowed: allowedDomains, extra: new Set() };
      running.set(commandId, entry);
      registerList(SandboxManager, commandId, entry);
      const release = () => {
        running.delete(commandId);
        SandboxManager.unregisterCommandNetworkLists(commandId);
      };
      try {
        // The runtime sets TMPDIR to its shared folder; the session's own comes first on the same line (line numbers
        // in bash's messages stay right).
        const script = `export TMPDIR=${shellQuote(tempDir)}; ${command}`;
        const wrap = () =>
          SandboxManager.wrapWithSandboxArgv(
            script,
            findBash(),
            { filesystem: { denyRead, allowRead, allowWrite: readOnlyWorkspace ? [tempDir] : [cwd, tempDir], denyWrite: RUNTIME_CONVENIENCE_WRITES } },
            signal,
            cwd,
            { commandId, commandText: command },
          );
        // The runtime passes the worker's own environment on (its proxy settings travel in argv): scrubbed here.
        const { argv, env } = await inWorkingDirectory(cwd, wrap);
        // bubblewrap makes an empty file or folder on the host for each protected path that does not exist (a
        // workspace's .bashrc, .gitconfig, .vscode…) to mount over; the runtime removes them once every command
        // wrapped meanwhile has ended, but only when told each one has. Without this they stay in the user's folder
        // (and every command would count as changing a dozen files). Once per wrapped command: the runtime counts.
        let released = false;
        const releaseWrapped = () => {
          if (released) return;
          released = true;
          release();
          SandboxManager.cleanupAfterCommand();
        };
        return { argv, env: commandEnvironment(env), release: releaseWrapped };
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

/**
 * The runtime also protects files that would run outside the sandbox later (git hooks and config, shell rc files,
 * editor folders), found under `process.cwd()`: so the wrap runs with the workspace as the current folder, one wrap
 * at a time, and the folder is restored after.
 */
function inWorkingDirectory<T>(cwd: string, wrap: () => Promise<T>): Promise<T> {
  const run = wraps.then(async () => {
    const previous = process.cwd();
    process.chdir(cwd);
    try {
      return await wrap();
    } finally {
      process.chdir(previous);
    }
  });
  wraps = run.catch(() => {});
  return run;
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
