/**
 * The broker's core (no Electron import): which session runs in which worker, who is viewing it, and how long a
 * worker lives.
 *
 * - A session gets a worker when its first viewer attaches (the warm spare when there is one).
 * - Any number of viewers (windows, tabs) may view one session; each gets its own connection to the same worker.
 * - A worker lives as long as its work, not as long as a window watches it: detaching never aborts. A worker that
 *   is idle (no run, nothing waiting for the user) with no viewer is stopped after a grace period: abort, flush, at
 *   most 2 s, then killed. Attaching again before then keeps it.
 * - A worker that exits without being asked to is reported. With viewers it is respawned at once and reloads the
 *   transcript; the next attach of each of those viewers carries the reason, so the page can tell the user.
 *   Without viewers nothing is respawned until someone opens the chat again.
 * - A worker that will not start (init fails) is killed and the session forgotten, so the next attach tries again.
 * - A worker that keeps crashing right after it starts (dies before or within seconds of taking its session) is
 *   started again at once the first time, then after a backoff (1 s doubling), and after five such crashes in a row
 *   not at all: the chat's attaches are refused with its last stderr lines (WORKER_KEEPS_CRASHING) until `retry`.
 * - `close()` stops a session now (a deleted chat); `dispose()` (quit) stops every worker, stops already under way
 *   included, and never takes longer than its limit.
 */
import { realFolderOf, type ProjectGrants } from "./project-grants";
import { projectFolder } from "./project-folder";
import type { WorktreeRecord } from "../../shared/protocol/worktrees";
import type {
  MainControlApi,
  ProviderRequestConfig,
  RunOutcome,
  SandboxVerdict,
  ShutdownAnswer,
  WorkerControlApi,
  WorkerInitOptions,
  WorkerSettings,
  WorkerStatus,
  WorktreeStart,
} from "../../shared/protocol/control-protocol";
import type { Model } from "@earendil-works/pi-ai";
import type { ModelRef, SessionActivity } from "../../shared/protocol/app-api";
import { Listeners } from "../../shared/transport/transport";
import type { WorkerHandle } from "./worker-handle";
import { WorkerPool, WorkerStartError } from "./worker-pool";
import { describeExit, type WorkerLauncher } from "./worker-process";
import { SESSION_ID_PATTERN } from "../../shared/protocol/ids";
import { childWorkerSettings, SubagentRuns, type AgentCatalog, type ChildCreated } from "./subagent-runs";
import type { RecordedLaunch } from "./child-launch";
import { identityOf } from "../../shared-node/folder-identity";
import { sessionDirIn, transcriptFileIn } from "../../shared-node/session-files/session-folder";
import { WorkerMcpCalls, type McpGateway } from "../mcp/worker-mcp-calls";
import type { McpToolDescriptor } from "../../shared/protocol/mcp-host-protocol";
import { NO_SKILLS } from "../../shared/protocol/skills";
import type { SkillCatalog } from "../skills/skill-catalog";
import { ParentTaskWorktrees } from "./parent-task-worktrees";
import { CrashLoopGuard, type CrashLoopOptions } from "./restart-backoff";
import { workerCrashLoopText } from "../../shared/protocol/worker-failure";

export type BrokerEvent =
  | { type: "status"; status: WorkerStatus }
  /**
   * The session's agent started or stopped working, or began or stopped waiting for the user. When it becomes idle,
   * `outcome` says how its run ended (a worker that died mid-run: "failed").
   */
  | { type: "activity"; sessionId: string; activity: SessionActivity; outcome?: RunOutcome }
  | { type: "attached"; sessionId: string }
  | { type: "worker-exited"; sessionId: string; reason: string; pid: number | undefined }
  | { type: "worker-restarted"; sessionId: string; pid: number | undefined }
  /** The session's worker kept crashing right after it started: no new one starts until `retry` (`message` says why). */
  | { type: "worker-failed"; sessionId: string; message: string }
  /** The session's worker was stopped (idle without viewers, or closed) or died without viewers, and is gone. */
  | { type: "session-closed"; sessionId: string };

/** How the broker's viewers reach a worker: each worker's own loopback WebSocket, or ports handed over by main. */
export type SessionTransportKind = WorkerInitOptions["sessionTransport"];

export interface SessionBrokerOptions<Port = never> {
  launcher: WorkerLauncher<Port>;
  /** How a worker that keeps crashing is restarted, and when the broker gives up (restart-backoff.ts; tests shorten it). */
  crashLoop?: CrashLoopOptions;
  /** Folder of the sessions' JSONL transcripts. */
  sessionsDir: string;
  /** The app's data folder, which shell commands in the sandbox may not read (keys, settings, other chats). */
  privateDir?: string;
  sessionTransport: SessionTransportKind;
  /**
   * The key for `provider`'s requests to `sentTo` (the base URL of the model main last resolved for the asking
   * worker, when it has one): a custom endpoint's key must only go to the origin it was saved for (endpoint-keys.ts).
   */
  getApiKey(provider: string, sentTo?: string): Promise<string | undefined> | string | undefined;
  /** What a worker's request to `modelId` of `provider` carries besides its key (see MainControlApi). Absent: nothing. */
  getProviderConfig?(provider: string, modelId: string): ProviderRequestConfig | undefined;
  /** The Model a worker's reference names; throws a readable Error when unknown (see model-resolver.ts). */
  resolveModel(ref: ModelRef): Model<any>;
  getWorkerSettings(): WorkerSettings;
  /** The chat's workspace folder, if it has one (read when a worker starts). */
  workspaceOf?(sessionId: string): string | undefined;
  /**
   * The git worktree a chat works in ("New chat in a worktree"), if it does (read when a worker starts); its
   * repository's folder is the chat's project (project-folder.ts).
   */
  worktreeOf?(sessionId: string): (WorktreeStart & Partial<Pick<WorktreeRecord, "repositoryRoot" | "path">>) | undefined;
  /** How long an idle worker without viewers lives on (read each time). Default DEFAULT_IDLE_GRACE_MS. */
  idleGraceMs?(): number;
  /** The same for a subagent's worker, at most the chats' grace. Default SUBAGENT_IDLE_GRACE_MS. */
  subagentIdleGraceMs?: number;
  integrityCheck?: boolean;
  keepSpare?: boolean;
  /** Where subagents' definitions come from; without it, `runSubagent` refuses. */
  agents?: AgentCatalog;
  /** Settings' cap on subagents running at once across all chats (default 8). */
  maxSubagents?(): number;
  /** Where isolated subagent tasks' git worktrees are made (`isolation: worktree`); absent: such tasks are refused. */
  worktreesDir?: string;
  /**
   * A subagent's session was created: main records it (hidden from the sidebar, linked to its parent) with its launch,
   * which `childLaunchOf` must give back from then on. Required with `agents`: a child whose launch is not recorded
   * is not started.
   */
  onChildSession?(child: ChildCreated): void;
  /**
   * A subagent session's launch as main recorded it (the session index in the app: child-launch.ts); undefined for a
   * chat. Whether a session is a child, and how its worker starts, come from this alone.
   */
  childLaunchOf?(sessionId: string): RecordedLaunch | undefined;
  /** Where the skills a worker lists to its model come from (main/skills); absent: none. */
  skills?: Pick<SkillCatalog, "listing">;
  /**
   * "Allowed in this project" (project-grants.ts): a worker starts with its workspace's grants, adds one with
   * `addProjectGrant`, and every live worker in a folder whose grants change is told at once. Absent: none.
   */
  projectGrants?: ProjectGrants;
  /** The MCP runtime (main/mcp): workers' MCP calls go there, and its tool changes reach every live worker. */
  mcp?: McpGateway & { onToolsChanged(listener: (tools: McpToolDescriptor[]) => void): () => void };
}

export const DEFAULT_IDLE_GRACE_MS = 5 * 60_000;
/**
 * A subagent's worker once its task is done and no window shows it: a finished subagent rarely gets more work, and
 * a parallel call leaves up to eight of them (~60 MB each). Watching or opening it later loads it from its transcript.
 */
const SUBAGENT_IDLE_GRACE_MS = 10_000;
/** The whole of `dispose()`, at most. */
const DISPOSE_LIMIT_MS = 5_000;

/** How a viewer connects to the session's worker. */
export type SessionEndpoint<Port> =
  /** Node hosts: the worker's loopback WebSocket (token included). */
  | { kind: "url"; url: string }
  /** Electron: main makes a channel and hands the worker one end with `handOff`. */
  | { kind: "port"; handOff(port: Port): void };

export interface Attachment<Port = never> {
  sessionId: string;
  worker: WorkerHandle<Port>;
  endpoint: SessionEndpoint<Port>;
  /** After a crash, for each viewer once: why the previous worker died. */
  restartedReason?: string;
  /** Problems met loading the transcript: given to the first viewer of each worker, [] for the rest. */
  problems: string[];
}

/** The WebSocket URL a Node host's viewer connects to; throws for an Electron port hand-off. */
export function endpointUrl(attachment: Pick<Attachment<unknown>, "endpoint">): string {
  if (attachment.endpoint.kind !== "url") throw new Error("This worker takes ports, not URLs");
  return attachment.endpoint.url;
}

interface StartedWorker<Port> {
  worker: WorkerHandle<Port>;
  url?: string;
  problems: string[];
  /** Whether a viewer has been given `problems` already (each worker's are told once). */
  problemsTold?: boolean;
}

interface LiveSession<Port> {
  id: string;
  viewers: Set<string>;
  worker: Promise<StartedWorker<Port>>;
  /** The worker once started: only it may report for the session (a stopping predecessor may not). */
  current?: WorkerHandle<Port>;
  /** Why the last worker died, per viewer that has not reconnected since (each is told once). */
  restartReasons: Map<string, string>;
  activity: SessionActivity;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** A stop under way; when it settles the session is gone (or, an idle stop the worker refused, lives on). */
  closing?: Promise<void>;
}

export class SessionBroker<Port = never> {
  private readonly sessions = new Map<string, LiveSession<Port>>();
  private readonly pool: WorkerPool<Port>;
  private readonly listeners = new Listeners<[BrokerEvent]>();
  private readonly sessionOfWorker = new WeakMap<WorkerHandle<Port>, string>();
  private disposed = false;
  private readonly subagents: SubagentRuns | undefined;
  /** A parent's `worktree` tool: its own isolated tasks' worktrees, found from their recorded launches. */
  private readonly taskWorktrees = new ParentTaskWorktrees((id) => this.launchOf(id));
  /** Each session's worker crashes in a row (kept while the session itself comes and goes). */
  private readonly crashes = new Map<string, CrashLoopGuard>();
  /** Sessions whose worker kept crashing: why, until `retry`. */
  private readonly failed = new Map<string, string>();
  /** What a worker found about the OS sandbox here (a machine's property): later workers skip the probe. */
  private sandbox: SandboxVerdict | undefined;

  constructor(private readonly options: SessionBrokerOptions<Port>) {
    options.projectGrants?.onChange((folder, grants) => void this.projectGrantsChanged(folder, grants));
    this.pool = new WorkerPool(
      options.launcher,
      (worker) => this.callbacks(worker),
      options.keepSpare ?? true,
      options.agents && {
        // A chat with a workspace can start subagents: keep one ready for it.
        wanted: () => ([...this.sessions.keys()].some((id) => !this.isChild(id) && this.options.workspaceOf?.(id)) ? 1 : 0),
        warmUp: () => ({ subagent: { api: this.defaultModelApi(), ...(this.sandbox ? { sandbox: this.sandbox } : {}) } }),
        busy: () => this.subagents?.busy ?? false,
      },
    );
    options.mcp?.onToolsChanged((tools) => void this.broadcastMcpTools(tools));
    this.subagents = options.agents && new SubagentRuns(
      {
        workspaceOf: (id) => this.options.workspaceOf?.(id),
        startChild: async (childId, holder) => (await this.attach(childId, holder)).worker as WorkerHandle<unknown>,
        releaseChild: (childId, holder) => this.detach(childId, holder),
        close: (id) => this.close(id),
        workerOf: (id) => this.sessions.get(id)?.current as WorkerHandle<unknown> | undefined,
        childCreated: (child) => this.options.onChildSession?.(child),
        launchOf: (id) => this.launchOf(id),
        resolveModel: (ref) => this.options.resolveModel(ref),
        hasApiKey: async (provider) => (await this.options.getApiKey(provider)) !== undefined,
        maxSubagents: () => this.options.maxSubagents?.() ?? 8,
        prewarm: (count, now, callWidth) => this.pool.prewarm(count, now, callWidth),
        tasksDone: () => this.pool.refillSoon(),
        ...(options.worktreesDir ? { worktreesDir: options.worktreesDir } : {}),
      },
      options.agents,
    );
  }

  /** Starts the warm spare now rather than at the first chat. */
  warmUp(): void {
    this.pool.refill();
  }

  onEvent(listener: (event: BrokerEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  /** The session's transcript; throws for an id that is not one (a path must never come out of a bad id). */
  transcriptFile(sessionId: string): string {
    return transcriptFileIn(this.options.sessionsDir, checkedId(sessionId));
  }

  /** The session's own folder: saved command output, temporary files. */
  sessionDir(sessionId: string): string {
    return sessionDirIn(this.options.sessionsDir, checkedId(sessionId));
  }

  /** Tells the session's worker, if it has one, that the chat's workspace changed. */
  async setWorkspace(sessionId: string, folder: string | undefined): Promise<void> {
    this.pool.refill(); // a chat that can start subagents now (or no longer) changes which spares to keep
    const started = await this.sessions.get(sessionId)?.worker.catch(() => undefined);
    if (!started) return;
    const identity = folder ? await identityOf(folder) : undefined;
    await started.worker.call((c) => c.setWorkspace(folder, identity));
    // Another folder is another project: its grants replace the old folder's (none without a workspace).
    const grants = (await this.options.projectGrants?.forWorkspace(this.projectFor(sessionId, folder)))?.grants ?? [];
    await started.worker.call((c) => c.projectGrantsChanged(grants)).catch(() => {});
  }

  /** What the session's agent is doing ("idle" when it has no worker). */
  activity(sessionId: string): SessionActivity {
    return this.sessions.get(sessionId)?.activity ?? "idle";
  }

  /** Sessions whose agent is working or waiting for the user: quitting would stop them. */
  busySessionIds(): string[] {
    return [...this.sessions.values()].filter((s) => s.activity !== "idle").map((s) => s.id);
  }

  /** How many viewers the session has right now. */
  viewerCount(sessionId: string): number {
    return this.sessions.get(sessionId)?.viewers.size ?? 0;
  }

  /** Sessions with a worker, running, starting or still stopping (their transcripts are in use). */
  openSessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * Attaches a viewer, starting the session's worker if needed. A session being stopped is waited for first: it is
   * then either gone (a new worker starts, after the old one flushed) or lives on (its worker refused an idle stop).
   */
  async attach(sessionId: string, viewerId: string): Promise<Attachment<Port>> {
    if (!SESSION_ID_PATTERN.test(sessionId)) throw new Error(`Invalid session id: ${sessionId.slice(0, 40)}`);
    for (let live = this.sessions.get(sessionId); live?.closing; live = this.sessions.get(sessionId)) await live.closing;
    if (this.disposed) throw new Error("Paddock is shutting down");
    const failure = this.failed.get(sessionId);
    if (failure) throw new Error(failure);
    const live = this.sessions.get(sessionId) ?? this.open(sessionId);
    this.cancelIdleStop(live);
    live.viewers.add(viewerId);
    const started = await live.worker;
    const problems = started.problemsTold ? [] : started.problems;
    started.problemsTold = true;
    const restartedReason = live.restartReasons.get(viewerId);
    live.restartReasons.delete(viewerId);
    this.listeners.emit({ type: "attached", sessionId });
    const worker = started.worker;
    const endpoint: SessionEndpoint<Port> =
      started.url !== undefined ? { kind: "url", url: started.url } : { kind: "port", handOff: (port) => worker.process.transferPort(port) };
    return { sessionId, worker, endpoint, restartedReason, problems };
  }

  /**
   * Lets go of a viewer. Never stops a run: the last viewer out only starts the idle grace period, after which an
   * idle worker is stopped.
   */
  detach(sessionId: string, viewerId: string): void {
    const live = this.sessions.get(sessionId);
    if (!live?.viewers.delete(viewerId)) return;
    this.scheduleIdleStop(live);
  }

  /**
   * Stops the session's worker now, whatever it is doing (its run is aborted and journaled as stopped), and lets go
   * of its viewers: a deleted chat. Resolves once the worker is gone.
   */
  async close(sessionId: string): Promise<void> {
    const live = this.sessions.get(sessionId);
    if (!live) return;
    if (live.closing) return live.closing;
    this.cancelIdleStop(live);
    live.viewers.clear();
    live.closing = live.worker
      .then((started) => started.worker.stop(), () => undefined)
      .then(() => this.forget(live));
    return live.closing;
  }

  /**
   * The user's Retry for a chat whose worker kept crashing: its next attach starts a worker again, and the count of
   * crashes starts afresh. Nothing to do for a chat that has not failed.
   */
  retry(sessionId: string): void {
    this.failed.delete(sessionId);
    this.crashes.get(sessionId)?.reset();
  }

  /** Tells every live worker which MCP tools are on offer now (each keeps those of its chat's servers). */
  private broadcastMcpTools(tools: McpToolDescriptor[]): Promise<void> {
    return this.toEveryWorker((c) => c.mcpToolsChanged(tools));
  }

  /** Tells every live worker that models may resolve differently now (SessionHost.modelsChanged). */
  modelsChanged(): Promise<void> {
    return this.toEveryWorker((c) => c.modelsChanged());
  }

  /** Sends changed settings to every live worker. */
  broadcastSettings(settings: WorkerSettings): Promise<void> {
    return this.toEveryWorker((c) => c.updateSettings(settings));
  }

  /**
   * A project's grants changed: every live worker whose workspace's real path is that folder gets the new list (a
   * removed grant no longer applies from its next call).
   */
  private async projectGrantsChanged(folder: string, grants: string[]): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map(async (live) => {
        if ((await realFolderOf(this.projectFor(live.id))) !== folder) return;
        const started = await live.worker.catch(() => undefined);
        await started?.worker.call((c) => c.projectGrantsChanged(grants)).catch(() => {});
      }),
    );
  }

  /** One call to every live worker; a worker that is gone or fails is skipped. */
  private async toEveryWorker(call: (c: WorkerControlApi) => Promise<void>): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map(async (live) => {
        const started = await live.worker.catch(() => undefined);
        await started?.worker.call(call).catch(() => {});
      }),
    );
  }

  /**
   * Stops every worker (each aborts its run and flushes its transcript) and the spare, including stops already under
   * way. Resolves within `limitMs` whatever the workers do; stragglers are killed.
   */
  async dispose(limitMs = DISPOSE_LIMIT_MS): Promise<void> {
    this.disposed = true;
    const all = [...this.sessions.values()];
    for (const live of all) this.cancelIdleStop(live);
    const workers: WorkerHandle<Port>[] = [];
    const stops = all.map(async (live) => {
      const started = await live.worker.catch(() => undefined);
      if (!started) return;
      workers.push(started.worker);
      await started.worker.stop();
    });
    const everything = Promise.allSettled([...stops, this.pool.dispose()]);
    await Promise.race([everything, new Promise((resolve) => setTimeout(resolve, limitMs).unref?.())]);
    for (const worker of workers) worker.kill();
    this.sessions.clear();
  }

  private open(sessionId: string): LiveSession<Port> {
    const starting = this.startWorker(sessionId);
    const live: LiveSession<Port> = { id: sessionId, viewers: new Set(), worker: starting, restartReasons: new Map(), activity: "idle" };
    this.sessions.set(sessionId, live);
    this.adopt(live, starting);
    return live;
  }

  /** Makes `starting` the session's worker; if it fails to start, the session is forgotten, so the next attach retries. */
  private adopt(live: LiveSession<Port>, starting: Promise<StartedWorker<Port>>): void {
    live.worker = starting;
    live.current = undefined;
    starting.then(
      (started) => {
        if (live.worker === starting) live.current = started.worker;
      },
      () => {
        if (live.worker === starting && this.sessions.get(live.id) === live) this.sessions.delete(live.id);
      },
    );
  }

  /** The session is gone: out of the map (unless already replaced), and everyone told. */
  private forget(live: LiveSession<Port>): void {
    live.closing = undefined;
    this.cancelIdleStop(live);
    if (this.sessions.get(live.id) !== live) return;
    this.sessions.delete(live.id);
    void this.subagents?.parentGone(live.id);
    this.listeners.emit({ type: "session-closed", sessionId: live.id });
  }

  private cancelIdleStop(live: LiveSession<Port>): void {
    clearTimeout(live.idleTimer);
    live.idleTimer = undefined;
  }

  /** Starts the grace period when the session has neither viewers nor work; restarts it if already running. */
  private scheduleIdleStop(live: LiveSession<Port>): void {
    this.cancelIdleStop(live);
    if (this.disposed || live.closing || live.viewers.size > 0 || live.activity !== "idle") return;
    const chatGrace = Math.max(0, this.options.idleGraceMs?.() ?? DEFAULT_IDLE_GRACE_MS);
    const grace = this.isChild(live.id) ? Math.min(chatGrace, this.options.subagentIdleGraceMs ?? SUBAGENT_IDLE_GRACE_MS) : chatGrace;
    live.idleTimer = setTimeout(() => this.stopIdle(live), grace);
    // A pending stop must not keep a host alive on its own; dispose() stops everything anyway.
    live.idleTimer.unref?.();
  }

  /**
   * The grace period is over. The worker is asked to stop only if idle: a run it started just now, whose report is
   * still on its way, makes it refuse, and it lives on with its activity brought up to date.
   */
  private stopIdle(live: LiveSession<Port>): void {
    live.idleTimer = undefined;
    if (this.sessions.get(live.id) !== live || live.closing || live.viewers.size > 0 || live.activity !== "idle") return;
    live.closing = live.worker
      .then((started) => started.worker.stopIfIdle(), (): ShutdownAnswer => "stopped")
      .then((answer) => {
        if (answer === "stopped") return this.forget(live);
        live.closing = undefined;
        this.setActivity(live, answer);
      });
  }

  private setActivity(live: LiveSession<Port>, activity: SessionActivity, outcome?: RunOutcome): void {
    if (live.activity === activity) return;
    live.activity = activity;
    this.listeners.emit({ type: "activity", sessionId: live.id, activity, ...(activity === "idle" && outcome ? { outcome } : {}) });
    if (activity === "idle") this.scheduleIdleStop(live);
    else this.cancelIdleStop(live);
  }

  /** The session's recorded launch if it is a subagent's (see SessionBrokerOptions.childLaunchOf). */
  private launchOf(sessionId: string): RecordedLaunch | undefined {
    return this.options.childLaunchOf?.(sessionId);
  }

  /** Whether the session is a subagent's: its worker is not respawned after a crash, nor ever given `subagent`. */
  private isChild(sessionId: string): boolean {
    return this.launchOf(sessionId) !== undefined;
  }

  private async startWorker(sessionId: string): Promise<StartedWorker<Port>> {
    // After a crash right after start, the next worker waits its turn (restart-backoff.ts).
    const wait = this.crashes.get(sessionId)?.waitMs() ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (this.disposed) throw new Error("Paddock is shutting down");
    const failure = this.failed.get(sessionId);
    if (failure) throw new Error(failure);
    const recorded = this.launchOf(sessionId);
    const launch = recorded?.launch;
    const startedAt = (this.options.crashLoop?.now ?? Date.now)();
    let worker: WorkerHandle<Port>;
    try {
      worker = await this.pool.take(launch ? "subagent" : "session");
    } catch (error) {
      // Its process ended before it was even ready: a crash right after start.
      if (error instanceof WorkerStartError && !this.disposed) {
        const dead = error.worker as WorkerHandle<Port>;
        const gaveUp = this.noteCrash(sessionId, startedAt, dead, describeExit(await dead.process.exited));
        if (gaveUp) throw new Error(gaveUp, { cause: error });
      }
      throw error;
    }
    let exit: string | undefined;
    void worker.process.exited.then((e) => (exit = describeExit(e)));
    this.sessionOfWorker.set(worker, sessionId);
    worker.process.setLogLabel?.(`chat ${sessionId}`);
    let result: Awaited<ReturnType<WorkerControlApi["init"]>>;
    const settings = this.options.getWorkerSettings();
    const workspace = launch ? launch.workspace : this.options.workspaceOf?.(sessionId);
    // The folder's identity now: the worker works there only if the path still leads to this very folder.
    const workspaceIdentity = launch ? launch.workspaceIdentity : workspace ? await identityOf(workspace) : undefined;
    // A subagent task records no checkpoints of its own (its parent's call does): only a chat's worktree matters.
    const worktree = launch ? undefined : this.options.worktreeOf?.(sessionId);
    const projectGrants = (await this.options.projectGrants?.forWorkspace(this.projectFor(sessionId, workspace)))?.grants ?? [];
    try {
      result = await worker.call((c) =>
        c.init({
          sessionId,
          transcriptFile: this.transcriptFile(sessionId),
          sessionDir: this.sessionDir(sessionId),
          privateDir: this.options.privateDir,
          workspace,
          ...(workspaceIdentity ? { workspaceIdentity } : {}),
          ...(worktree ? { worktree: { branch: worktree.branch, base: worktree.base } } : {}),
          settings: launch ? childWorkerSettings(settings, launch) : settings,
          ...(launch ? { subagent: launch.setup } : {}),
          ...(this.subagents && !launch ? { agentFolders: this.subagents.agentFolders() } : {}),
          ...(this.sandbox ? { sandbox: this.sandbox } : {}),
          ...(projectGrants.length > 0 ? { projectGrants } : {}),
          integrityCheck: this.options.integrityCheck,
          sessionTransport: this.options.sessionTransport,
        }),
      );
    } catch (error) {
      worker.kill(); // bound to nothing now: it would idle on forever
      // A worker that died before it could take its session crashed right after start; a refusal is not a crash.
      await Promise.race([worker.process.exited, new Promise((resolve) => setTimeout(resolve, 200))]);
      if (exit !== undefined && !worker.expectedExit && !this.disposed) {
        const gaveUp = this.noteCrash(sessionId, startedAt, worker, exit);
        if (gaveUp) throw new Error(gaveUp, { cause: error });
      }
      throw error;
    } finally {
      if (launch) this.pool.refillSoon();
      else this.pool.refill();
    }
    void worker.process.exited.then((exit) => this.onWorkerExit(sessionId, worker, describeExit(exit), startedAt));
    return { worker, url: result.url, problems: recorded?.problem ? [recorded.problem, ...result.problems] : result.problems };
  }

  private onWorkerExit(sessionId: string, worker: WorkerHandle<Port>, reason: string, startedAt: number): void {
    if (worker.expectedExit || this.disposed) return;
    this.listeners.emit({ type: "worker-exited", sessionId, reason, pid: worker.pid });
    const live = this.sessions.get(sessionId);
    if (!live || live.current !== worker || live.closing) return;
    void this.subagents?.parentGone(sessionId);
    this.setActivity(live, "idle", "failed");
    // The next viewer starts a worker, which reloads the transcript. A subagent's is not restarted: its task failed.
    if (live.viewers.size === 0 || this.isChild(sessionId)) return this.forget(live);
    // One that keeps crashing is not: its viewers' next attach is refused with why (noteCrash).
    if (this.noteCrash(sessionId, startedAt, worker, reason)) return this.forget(live);
    for (const viewer of live.viewers) live.restartReasons.set(viewer, reason);
    const next = this.startWorker(sessionId);
    this.adopt(live, next);
    next.then((started) => this.listeners.emit({ type: "worker-restarted", sessionId, pid: started.worker.pid }), () => {});
  }

  /**
   * Counts a crash of the session's worker (`startedAt`: when it was being started). Returns the refusal's text once
   * the broker gives up (and tells listeners), undefined while it restarts: at once, or after the backoff.
   */
  private noteCrash(sessionId: string, startedAt: number, worker: WorkerHandle<Port>, exit: string): string | undefined {
    let guard = this.crashes.get(sessionId);
    if (!guard) this.crashes.set(sessionId, (guard = new CrashLoopGuard(this.options.crashLoop)));
    const decision = guard.crashed(startedAt);
    if (decision.action === "restart") return undefined;
    const message = workerCrashLoopText(decision.crashes, exit, worker.process.stderrTail?.() ?? "");
    this.failed.set(sessionId, message);
    this.listeners.emit({ type: "worker-failed", sessionId, message });
    return message;
  }

  /** The API of the default model (what a subagent most likely uses), if it resolves. */
  private defaultModelApi(): string | undefined {
    const ref = this.options.getWorkerSettings().defaultModel;
    try {
      return ref ? (this.options.resolveModel(ref) as { api?: string }).api : undefined;
    } catch {
      return undefined;
    }
  }

  private callbacks(worker: () => WorkerHandle<Port>): MainControlApi {
    // Where this worker's requests for each provider go: the model main last resolved for it. A worker keeps its
    // model when Settings move an endpoint elsewhere, so the key it gets must be the one for that model's address.
    const sentTo = new Map<string, string>();
    let mcpCalls: WorkerMcpCalls | undefined;
    const mcp = () => {
      const gateway = this.options.mcp;
      if (!gateway) throw new Error("MCP servers are not available here");
      this.callerSession(worker());
      if (!mcpCalls) {
        const calls = new WorkerMcpCalls(gateway, (progress) => void worker().call((c) => c.mcpProgress(progress)).catch(() => {}));
        void worker().process.exited.then(() => calls.cancelAll());
        mcpCalls = calls;
      }
      return mcpCalls;
    };
    return {
      getApiKey: async (provider: string) => this.options.getApiKey(provider, sentTo.get(provider)),
      resolveModel: async (ref: ModelRef) => {
        const model = this.options.resolveModel(ref);
        sentTo.set(model.provider, model.baseUrl);
        return model;
      },
      report: (status: WorkerStatus) => {
        const sessionId = this.sessionOfWorker.get(worker());
        // A worker may only speak for its own session, and only while it is the session's worker. (Its shape was
        // checked on the way in: MAIN_CONTROL_SCHEMAS, in the worker's handle.)
        if (sessionId !== status.sessionId) return;
        const live = this.sessions.get(sessionId);
        if (live?.current !== worker()) return;
        this.listeners.emit({ type: "status", status });
        // A verdict goes on to other workers: one whose reason runs past 1000 characters is not kept.
        if (!this.sandbox && status.sandbox && (status.sandbox.available || status.sandbox.reason.length < 1000)) this.sandbox = status.sandbox;
        this.setActivity(live, status.waiting ? "waiting" : status.running ? "running" : "idle", status.lastRun);
        this.subagents?.childStatus(status);
      },
      listAgents: async (scope, cwd?: string) => this.requireSubagents().listAgents(this.callerSession(worker()), scope, cwd),
      confirmProjectAgents: async (names, cwd?: string) => this.requireSubagents().confirmProjectAgents(this.callerSession(worker()), names, cwd),
      runSubagent: async (request) => this.requireSubagents().run(this.callerSession(worker()), request),
      stopSubagent: async (requestId) => this.requireSubagents().stop(this.callerSession(worker()), requestId),
      askParent: async (question) => this.requireSubagents().askParent(this.callerSession(worker()), question),
      addProjectGrant: async (grant) => {
        const sessionId = this.callerSession(worker());
        const store = this.options.projectGrants;
        if (!store) throw new Error("Project grants are not kept here.");
        // The project's folder as it is now, by real path: a workspace swapped for a link to another folder grants
        // that one nothing of this one's, and this grant goes to the project the chat really works in (a worktree
        // chat's: its repository's folder, project-folder.ts).
        const folder = await realFolderOf(this.projectFor(sessionId));
        if (!folder) throw new Error("This chat has no workspace folder, so nothing can be allowed for its project.");
        await store.add(folder, grant);
      },
      taskWorktree: async (request) => this.taskWorktrees.run(this.callerSession(worker()), request),
      // Asked during `init`, before the worker is its session's current one: any bound worker may see the list.
      mcpTools: async () => {
        if (!this.sessionOfWorker.has(worker())) throw new Error("This worker hosts no session");
        return this.options.mcp?.currentTools() ?? [];
      },
      mcpCall: async (call) => mcp().call(call),
      mcpCancel: async (callId) => mcp().cancel(callId),
      // Asked as the workspace opens, during `init` too (as mcpTools): any bound worker, for its own session's folder.
      listSkills: async () => {
        const sessionId = this.sessionOfWorker.get(worker());
        if (!sessionId) throw new Error("This worker hosts no session");
        return this.options.skills?.listing(this.workspaceFor(sessionId)) ?? NO_SKILLS;
      },
      getProviderConfig: async (provider: string, modelId: string) => this.options.getProviderConfig?.(provider, modelId),
    };
  }

  /**
   * The project the session's grants are kept for (project-folder.ts): its workspace (`workspace`, as it is being
   * set; else as workspaceFor says), or for a git worktree Paddock made (a chat's, an isolated task's), the
   * repository's folder it was made from.
   */
  private projectFor(sessionId: string, workspace = this.workspaceFor(sessionId)): string | undefined {
    const launch = this.launchOf(sessionId)?.launch;
    const worktree = launch ? launch.worktree : this.options.worktreeOf?.(sessionId);
    return projectFolder(workspace, worktree?.repositoryRoot && worktree.path ? { repositoryRoot: worktree.repositoryRoot, path: worktree.path } : undefined);
  }

  /** The session's workspace, as its worker was started with it (startWorker): a subagent's own (its cwd), a chat's from the index. */
  private workspaceFor(sessionId: string): string | undefined {
    const launch = this.launchOf(sessionId)?.launch;
    return launch ? launch.workspace : this.options.workspaceOf?.(sessionId);
  }

  /** The session a worker serves now; a worker that serves none (a spare, a stale one) may not ask for anything. */
  private callerSession(worker: WorkerHandle<Port>): string {
    const sessionId = this.sessionOfWorker.get(worker);
    if (!sessionId || this.sessions.get(sessionId)?.current !== worker) throw new Error("This worker hosts no session");
    return sessionId;
  }

  private requireSubagents(): SubagentRuns {
    if (!this.subagents) throw new Error("Subagents are not available here");
    return this.subagents;
  }
}

function checkedId(sessionId: string): string {
  if (typeof sessionId !== "string" || !SESSION_ID_PATTERN.test(sessionId)) throw new Error(`Invalid session id: ${String(sessionId).slice(0, 40)}`);
  return sessionId;
}
