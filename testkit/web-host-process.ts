/**
 * The web host (`src/web-host/main.ts`) as a child process, the way a developer runs it: reads the printed page URL
 * and the `worker <pid> session <id>` lines, calls its HTTP API with the token, and stops it with SIGTERM (or
 * kills it, to play a crash).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { WEB_HOST_TOKEN_HEADER } from "../src/shared/protocol/ids";

export const REPO_ROOT = resolve(import.meta.dirname, "..");
const MAIN = resolve(REPO_ROOT, "src/web-host/main.ts");

export interface WebHostProcess {
  /** The page URL, token included. */
  url: string;
  token: string;
  /** The host process's pid. */
  pid: number;
  origin: string;
  /** Every worker pid seen per session, in order. */
  workers: Map<string, number[]>;
  /** Everything the host printed (stdout and stderr), for failure messages. */
  output(): string;
  /** An AppApi call through the host's HTTP API; rejects with the host's error text. */
  call<T = unknown>(method: string, ...args: unknown[]): Promise<T>;
  /** Attaches a viewer to the session as a page does; resolves with the worker's session URL. */
  attach(sessionId: string, viewerId: string): Promise<{ url: string; restartedReason?: string }>;
  /** The page URL opening `sessionId`. */
  pageUrl(sessionId: string): string;
  /** Resolves with the session's newest worker pid once one other than `not` is announced. */
  waitForWorker(sessionId: string, not?: number, timeoutMs?: number): Promise<number>;
  /** SIGTERM, then waits for a clean exit (rejects on another exit code). */
  stop(): Promise<void>;
  /** SIGKILL (a crash: the host cleans up nothing), then waits for the exit. */
  kill(): Promise<void>;
}

/**
 * Copies the build (out/main, out/renderer) to a private folder inside the repo (so the worker still resolves
 * node_modules), for `--build-dir`: a rebuild elsewhere during the run then cannot swap files under the tests.
 * Returns the folder and a function that removes it.
 */
export function privateBuildCopy(): { dir: string; remove(): void } {
  for (const built of ["out/main/agent-worker.js", "out/renderer/index.html"]) {
    if (!existsSync(resolve(REPO_ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const dir = resolve(REPO_ROOT, "test-results", `e2e-build-${process.pid}`);
  for (const part of ["main", "renderer"]) cpSync(resolve(REPO_ROOT, "out", part), resolve(dir, part), { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `env`: variables added to the host's environment (e.g. HOME, where it looks for pi's and Claude Code's skills, or
 * `PI_CODING_AGENT_DIR`, where pi's models.json is). */
export async function startWebHostProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<WebHostProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const workers = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  let buffered = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => {
    log += text;
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      const m = /^worker (\d+) session (\S+)$/.exec(line);
      if (m) workers.set(m[2], [...(workers.get(m[2]) ?? []), Number(m[1])]);
    }
    for (const w of [...waiters]) w();
  });
  child.stderr!.setEncoding("utf8").on("data", (text: string) => void (log += text));
  const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));

  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`web host did not start:\n${log}`)), 60_000);
    const check = () => {
      const m = /PADDOCK_WEB_URL (\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        waiters.delete(check);
        ok(m[1]);
      }
    };
    waiters.add(check);
    void exited.then((code) => fail(new Error(`web host exited (${code}) before serving:\n${log}`)));
  });
  const parsed = new URL(url);
  const token = parsed.searchParams.get("token")!;
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${parsed.origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", [WEB_HOST_TOKEN_HEADER]: token },
      body: JSON.stringify(body),
    });
    const data = (await response.json()) as { result?: T; error?: string };
    if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
    return (path === "/api/call" ? data.result : data) as T;
  };

  return {
    url,
    token,
    pid: child.pid!,
    origin: parsed.origin,
    workers,
    output: () => log,
    async call<T>(method: string, ...callArgs: unknown[]): Promise<T> {
      return post<T>("/api/call", { method, args: callArgs });
    },
    async attach(sessionId, viewerId) {
      return post(`/api/session/${encodeURIComponent(sessionId)}/attach`, { viewerId });
    },
    pageUrl: (sessionId) => `${url}&session=${encodeURIComponent(sessionId)}`,
    waitForWorker(sessionId, not, timeoutMs = 20_000) {
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`no worker for ${sessionId} (other than ${not}) announced:\n${log}`));
        }, timeoutMs);
        const check = () => {
          const pid = workers.get(sessionId)?.at(-1);
          if (pid !== undefined && pid !== not) {
            clearTimeout(timer);
            waiters.delete(check);
            ok(pid);
          }
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0) throw new Error(`web host exited with ${code}:\n${log}`);
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
