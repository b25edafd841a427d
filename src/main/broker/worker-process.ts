/**
 * One agent worker process as the broker sees it, whatever started it (Electron's utilityProcess in the app,
 * Node's child_process.fork in tests and the web host).
 *
 * `Port` is what the process can be handed as a session connection: Electron's MessagePortMain for utility
 * processes, `never` for forked Node children (those serve sessions on their own loopback WebSocket instead).
 */
import { isProxyVariable, scrubEnvironment } from "../../shared/security/secret-environment";
import type { Transport } from "../../shared/transport/transport";
import { COMPILE_CACHE_ENV } from "../../shared-node/process/compile-cache";

export interface WorkerExit {
  code: number | null;
  signal: string | null;
}

export interface WorkerProcess<Port = never> {
  readonly pid: number | undefined;
  /** The control channel (main <-> worker). */
  readonly control: Transport;
  /** Resolves once, when the process has exited for any reason. */
  readonly exited: Promise<WorkerExit>;
  /** Ends the process at once (SIGKILL where the platform has it). Safe to call at any time, also before spawn. */
  kill(): void;
  /** Hands the worker one end of a session channel; the process serves the session it hosts on it. */
  transferPort(port: Port): void;
  /** Names the process's lines in the log file after what it serves (`chat <id>`); absent where nothing is logged. */
  setLogLabel?(label: string): void;
  /** The last lines the process wrote to stderr (what a chat whose worker keeps crashing shows); "" when not kept. */
  stderrTail?(): string;
}

export interface WorkerLauncher<Port = never> {
  /** Starts the process with `env` as its whole environment: by default `workerEnvironment()`, an agent worker's. */
  launch(env?: NodeJS.ProcessEnv): WorkerProcess<Port>;
}

export function describeExit(exit: WorkerExit): string {
  if (exit.signal) return `the process was killed (${exit.signal})`;
  return `the process exited with code ${exit.code ?? "unknown"}`;
}

/**
 * The environment an agent worker starts with: the host's without provider keys or anything else that looks secret
 * (`scrubEnvironment`): a worker gets a provider's key only from main's `getApiKey`, for each request, and pi-ai's
 * providers, which would fall back to `OPENAI_API_KEY` and the like, always get the key the worker was handed.
 *
 * Kept, and so the exceptions: cloud credentials that pi-ai's Amazon Bedrock and Google Vertex providers read in the
 * worker itself, through their SDKs' own credential chains, never as a key main could hand over (`AWS_*`,
 * `GOOGLE_APPLICATION_CREDENTIALS`; main answers those providers' `getApiKey` with pi-ai's "<authenticated>"); and
 * the proxy variables' credentials, which the worker's HTTP clients and the sandbox's proxies (chaining to the
 * user's) need. Commands never see either: the tools run them with `commandEnvironment`.
 *
 * Plus glibc's malloc limited to two arenas (unless set already). glibc gives every thread that allocates its own
 * arena, and an idle worker's V8 and libuv threads each left one partly touched: measured here, 2-4 MB of a bound
 * idle worker's ~60 MB, and the run-to-run spread of that figure. A worker's JavaScript runs on one thread, so two
 * arenas cost it no contention worth measuring. Other C libraries ignore the variable.
 */
/**
 * `env` naming `folder` as the process's compile cache (shared-node/process/compile-cache.ts), or naming none when
 * `folder` is undefined (an inherited name is dropped): then the process runs without one.
 */
export function withCompileCache(env: NodeJS.ProcessEnv, folder: string | undefined): NodeJS.ProcessEnv {
  const { [COMPILE_CACHE_ENV]: _inherited, ...rest } = env;
  return folder ? { ...rest, [COMPILE_CACHE_ENV]: folder } : rest;
}

export function workerEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return withMallocLimit(scrubEnvironment(env, { keep: isWorkerCloudCredential, keepUrlCredentials: isProxyVariable }), env);
}

/**
 * The environment the MCP host starts with: a worker's without the cloud credentials, as it makes no model calls
 * (its stdio servers get only the SDK's short safe list and their own variables in any case).
 */
export function mcpHostEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return withMallocLimit(scrubEnvironment(env, { keepUrlCredentials: isProxyVariable }), env);
}

/** Credentials the Bedrock and Vertex SDKs read from the worker's own environment (see `workerEnvironment`). */
function isWorkerCloudCredential(name: string): boolean {
  const upper = name.toUpperCase();
  return upper.startsWith("AWS_") || upper === "GOOGLE_APPLICATION_CREDENTIALS";
}

function withMallocLimit(kept: Record<string, string>, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...kept, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? "2" };
}
