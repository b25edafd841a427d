/**
 * The control channel: main (the broker) <-> one agent worker. Two Comlink lanes on one transport: main calls
 * `WorkerControlApi` on lane "c2w", the worker calls `MainControlApi` on lane "w2c". Session traffic never uses it.
 */
import type { ThinkingLevel, ToolExecutionMode } from "../agent/types";
import type { ToolPolicy } from "../settings/schema";
import type { Model } from "@mariozechner/pi-ai";
import type { ModelRef, SessionActivity } from "./app-api";
import type { QueueMode } from "../agent/types";

/**
 * Electron only: frames that carry a MessagePort to a utility-process worker (the port travels beside the frame).
 * A session port serves one viewer. The lifeline is handed over once, right after launch; main holds the other
 * end for the worker's life, so its `close` tells the worker that main is gone (`process.parentPort` has no such
 * event), and the worker exits instead of living on as an orphan.
 */
export const SESSION_PORT_FRAME = { ch: "port" } as const;
export const LIFELINE_FRAME = { ch: "lifeline" } as const;

/** The settings a worker needs; main sends them at init and whenever they change. */
export interface WorkerSettings {
  defaultModel?: ModelRef;
  thinkingLevel: ThinkingLevel;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  toolExecution: ToolExecutionMode;
  requestTimeoutMs: number;
  clearQueuesOnAbort: boolean;
  /** Per tool: run at once or ask (a tool not listed asks); see approval-gate.ts. */
  toolApproval: Record<string, ToolPolicy>;
  /** A question nobody answers while no window shows the chat is denied after this long. */
  approvalTimeoutMs: number;
  /** Hosts shell commands may reach through the sandbox. */
  allowedDomains: string[];
}

export interface WorkerInitOptions {
  sessionId: string;
  /** The session's JSONL transcript; the worker is its only writer. */
  transcriptFile: string;
  /** The session's own folder (saved command output, temporary files); the worker creates it when needed. */
  sessionDir: string;
  /** The app's data folder (keys, settings, every chat): shell commands may not read it, except `sessionDir`. */
  privateDir?: string;
  /** The chat's workspace folder (absolute, checked by main), if it has one: file and shell tools work there. */
  workspace?: string;
  settings: WorkerSettings;
  /** Attach a state digest to every event batch so mirrors can prove they are in sync (diagnostics, tests). */
  integrityCheck?: boolean;
  /**
   * Where session clients connect. "websocket": the worker listens on 127.0.0.1 with a random token (Node hosts:
   * tests, `npm run dev:web`). "port": main hands over MessagePorts (Electron).
   */
  sessionTransport: "websocket" | "port";
}

export interface WorkerInitResult {
  /** For "websocket": the URL a session client connects to (includes the token). */
  url?: string;
  /** Problems met while loading the transcript (a torn last line, a corrupt line). */
  problems: string[];
  messageCount: number;
  title?: string;
}

/** How an agent run ended: finished, failed (an error, or the worker died mid-run), or stopped by the user. */
export type RunOutcome = "done" | "failed" | "aborted";

export interface WorkerStatus {
  sessionId: string;
  running: boolean;
  /** The agent waits for the user (a tool approval): the worker must live on, and the user be told. */
  waiting?: boolean;
  /** How the most recent run ended; absent before the first run. */
  lastRun?: RunOutcome;
  title?: string;
  messageCount: number;
  updated: number;
  model?: ModelRef;
  /** Total cost so far in USD, from the assistant messages' usage. */
  cost: number;
}

/** A worker's answer to `shutdown`: it stopped, or (asked to stop only if idle) what keeps it busy. */
export type ShutdownAnswer = "stopped" | Exclude<SessionActivity, "idle">;

export interface WorkerControlApi {
  /** Binds this (possibly pre-warmed) worker to a session; loads its transcript. Called once. */
  init(options: WorkerInitOptions): Promise<WorkerInitResult>;
  updateSettings(settings: WorkerSettings): Promise<void>;
  /** The chat's workspace changed (checked by main; undefined: none): tools and system prompt follow. */
  setWorkspace(folder: string | undefined): Promise<void>;
  /**
   * Ends the session: aborts any run (journaled as stopped), flushes the transcript and closes connections; the
   * process exits on its own afterwards, and the answer is "stopped". With `ifIdle` (main's idle stop, whose view of
   * the worker lags behind its reports) a worker whose agent has work refuses and answers what it is doing instead.
   */
  shutdown(options?: { ifIdle?: boolean }): Promise<ShutdownAnswer>;
  /**
   * Resolves once the worker has loaded everything `init` needs, so a warm spare hands over a session at once.
   * (The worker answers `ping` before that: it is ready for commands first, and finishes loading in the background.)
   */
  warmUp(): Promise<void>;
  /** Liveness probe, also used to measure start-up: resolves once the worker serves. */
  ping(): Promise<{ pid: number; rssBytes: number }>;
}

export interface MainControlApi {
  /** The key for a provider, or undefined. Keys live in main; the worker asks before every model call. */
  getApiKey(provider: string): Promise<string | undefined>;
  /**
   * The pi-ai Model a reference names (a built-in provider's, or a custom endpoint's from Settings); rejects with a
   * readable Error when it is unknown. Main resolves: it owns the settings and pi-ai's model catalogue.
   */
  resolveModel(ref: ModelRef): Promise<Model<any>>;
  report(status: WorkerStatus): void;
}
