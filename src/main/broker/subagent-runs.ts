/**
 * Subagents, brokered by main (no Electron import). A parent session's `subagent` tool asks over its control channel
 * for a task to be done; this takes a worker for it (the warm pool's), binds it to a session of its own (journaled
 * like any chat, hidden from the sidebar, linked to the parent's tool call), runs the task and hands back the
 * outcome. It keeps the limits (4 at once per parent, Settings' global cap: the rest wait their turn, a parent's in its
 * calls' order) and ties each child to its parent: stopping the parent's task, or the parent's worker going away, ends
 * the child; a child whose process dies is a failed task.
 */
import { randomBytes } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type {
  AgentList,
  AgentScope,
  FolderIdentity,
  SubagentApprovalQuestion,
  SubagentOutcome,
  SubagentProgress,
  SubagentRequest,
  SubagentUsage,
  SubagentWorktree,
  WorkerSettings,
  WorkerStatus,
} from "../../shared/protocol/control-protocol";
import { THINKING_LEVELS } from "../../shared/agent/types";
import { DEFAULT_PROFILE, isPermissionProfile, narrowest } from "../../shared/protocol/permission-profiles";
import type { ModelRef } from "../../shared/protocol/app-api";
import { catalogProviders } from "./model-catalog";
import type { AgentDefinition } from "../agents/agent-definitions";
import { folderIdentity } from "../../shared-node/folder-identity";
import type { WorkerHandle } from "./worker-handle";
import type { ChildLaunch, RecordedLaunch } from "./child-launch";
import { createWorktree, type Worktree } from "../../shared-node/git-worktrees/worktree-lifecycle";
import { worktreeChanges } from "../../shared-node/git-worktrees/worktree-changes";

/** At most this many of one parent's subagents run at once (pi's example extension: 4). */
export const MAX_PER_PARENT = 4;

/** Where the agents come from (see agents/agent-catalog.ts), and which project agents the user confirmed. */
export interface AgentCatalog {
  discover(scope: AgentScope, workspace: string | undefined): Promise<{ agents: AgentDefinition[]; projectAgentsDir?: string; problems: string[] }>;
  /** The user-level folders agents are read from (Paddock's, pi's). */
  folders(): { paddock: string; pi: string };
  isConfirmed(agent: AgentDefinition): boolean;
  confirm(agents: AgentDefinition[]): Promise<void>;
}

/** What this needs of the session broker. */
export interface SubagentBrokerHost {
  workspaceOf(sessionId: string): string | undefined;
  /**
   * Starts (or finds) the child's worker, held by `holder` as a viewer holds a chat's: it lives while held. It is set
   * up by the launch `childCreated` recorded (launchOf).
   */
  startChild(childId: string, holder: string): Promise<WorkerHandle<unknown>>;
  /** Lets go of the child: it stops after the idle grace period unless a window views it. */
  releaseChild(childId: string, holder: string): void;
  /** Ends a session's worker now (its run aborted and journaled as stopped). */
  close(sessionId: string): Promise<void>;
  /** The session's current worker, if it has one running. */
  workerOf(sessionId: string): WorkerHandle<unknown> | undefined;
  /** A new subagent session exists: main records it in the index, linked to its parent, with its launch. */
  childCreated(child: ChildCreated): void;
  /** The child's launch as main recorded it (child-launch.ts); undefined for a chat. */
  launchOf(sessionId: string): RecordedLaunch | undefined;
  resolveModel(ref: ModelRef): unknown;
  hasApiKey(provider: string): Promise<boolean>;
  maxSubagents(): number;
  /**
   * Tasks are about to need subagent workers: have that many warming (`now`: start them at once). `callWidth`: how many
   * tasks the call has in all, which the pool remembers for the next call.
   */
  prewarm(count: number, now?: boolean, callWidth?: number): void;
  /** No subagent task runs any more: spares held back while they ran may start. */
  tasksDone(): void;
  /**
   * The folder isolated tasks' git worktrees are made in (`isolation: worktree`); absent: such tasks are refused.
   * Outside the data folder, which the tools and the sandbox keep out of (core.ts's `dataFiles`).
   */
  worktreesDir?: string;
}

/** A subagent session just created, as main records it. */
export interface ChildCreated {
  sessionId: string;
  parentSessionId: string;
  toolCallId: string;
  agent: string;
  workspace?: string;
  model?: ModelRef;
  launch: ChildLaunch;
}

/**
 * A child worker's settings: Settings' own, but for the model its launch chose and, with the parent's model, the
 * parent's thinking level (else Settings' default level, as a pi child process starts with pi's).
 */
export function childWorkerSettings(settings: WorkerSettings, launch: ChildLaunch): WorkerSettings {
  return {
    ...settings,
    ...(launch.model ? { defaultModel: launch.model } : {}),
    ...(launch.thinkingLevel ? { thinkingLevel: launch.thinkingLevel } : {}),
  };
}

interface RunningChild {
  requestId: string;
  parentSessionId: string;
  sessionId: string;
  agent: string;
  model?: ModelRef;
  stopped: boolean;
  /** `isolation: worktree`: the worktree it works in. */
  worktree?: Worktree;
}

export class SubagentRuns {
  private readonly byRequest = new Map<string, RunningChild>();
  private readonly bySession = new Map<string, RunningChild>();
  private readonly slots = new Slots();

  constructor(
    private readonly host: SubagentBrokerHost,
    private readonly catalog: AgentCatalog,
  ) {}

  /** The user-level folders agents are read from, for the `subagent` tool's description. */
  agentFolders(): { pi: string; paddock: string } {
    return this.catalog.folders();
  }

  /** The agents in `scope`; a project's are found from `cwd` (a task's, in the workspace), else from the workspace. */
  async listAgents(parentSessionId: string, scope: AgentScope, cwd?: string): Promise<AgentList> {
    const found = await this.catalog.discover(checkScope(scope), await this.projectFolder(parentSessionId, cwd));
    return {
      agents: found.agents.map((a) => ({
        name: a.name,
        description: a.description,
        source: a.source,
        ...(a.source === "project" ? { confirmed: this.catalog.isConfirmed(a) } : {}),
        ...(a.isolation ? { isolation: a.isolation } : {}),
      })),
      ...(found.projectAgentsDir ? { projectAgentsDir: found.projectAgentsDir } : {}),
      problems: found.problems,
    };
  }

  async confirmProjectAgents(parentSessionId: string, names: string[], cwd?: string): Promise<void> {
    if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) throw new Error("confirmProjectAgents: names must be strings");
    const found = await this.catalog.discover("project", await this.projectFolder(parentSessionId, cwd));
    await this.catalog.confirm(found.agents.filter((a) => names.includes(a.name)));
  }

  /**
   * Where a project's agents are looked for (the nearest `.pi/agents` at or above it): the folder a task runs in, its
   * `cwd` inside the chat's workspace (checked as the task's is), or the workspace itself.
   */
  private async projectFolder(parentSessionId: string, cwd: string | undefined): Promise<string | undefined> {
    const workspace = this.host.workspaceOf(parentSessionId);
    if (workspace === undefined || cwd === undefined || cwd === "" || cwd === ".") return workspace;
    return (await folderInside(workspace, cwd)).folder;
  }

  /** See MainControlApi.runSubagent. */
  async run(parentSessionId: string, request: SubagentRequest): Promise<SubagentOutcome> {
    checkRequest(request);
    if (this.byRequest.has(request.requestId)) throw new Error(`A subagent task ${request.requestId} is already running`);
    // Its place in line now, before the checks below (which can end in either order for two tasks of one call).
    const place = this.slots.enter(parentSessionId, request.toolCallId, request.index);
    try {
      return await this.runInLine(parentSessionId, request, place);
    } finally {
      // Checks that failed leave the line to those behind (no-op for a task that took its slot).
      place.leave();
    }
  }

  private async runInLine(parentSessionId: string, request: SubagentRequest, place: SlotPlace): Promise<SubagentOutcome> {
    const workspace = this.host.workspaceOf(parentSessionId);
    if (!workspace) throw new Error("Subagents work in the chat's workspace: choose a workspace folder first.");
    const inside = await folderInside(workspace, request.cwd);
    // A project's agents are the ones of the folder the task runs in (as the list the tool asked about them from).
    const found = await this.catalog.discover(request.scope, await this.projectFolder(parentSessionId, request.cwd));
    const definition = found.agents.find((a) => a.name === request.agent);
    if (!definition) {
      const available = found.agents.map((a) => `"${a.name}"`).join(", ") || "none";
      throw new Error(`Unknown agent: "${request.agent}". Available agents: ${available}.`);
    }
    if (definition.source === "project" && !this.catalog.isConfirmed(definition)) {
      throw new Error(`Project agent "${definition.name}" has not been confirmed by the user.`);
    }
    const isolation = request.isolation ?? definition.isolation;
    if (isolation === "worktree" && !this.host.worktreesDir) throw new Error("isolation: worktree is not available in this app: it has no folder for worktrees.");
    const { model, notice, inherited } = await this.chooseModel(definition.model, request.parentModel);

    const child: RunningChild = {
      requestId: request.requestId,
      parentSessionId,
      sessionId: newChildId(),
      agent: definition.name,
      model,
      stopped: false,
    };
    this.byRequest.set(request.requestId, child);
    // The first task of a call with more to come: start warm workers for the rest of its first wave now.
    const upcoming = Math.max(0, Number(request.upcoming) || 0);
    if (upcoming > 0 && !this.hasRunningTasks(parentSessionId, request.requestId)) this.host.prewarm(Math.min(MAX_PER_PARENT, upcoming + 1), true, upcoming + 1);
    const release = await place.take(() => this.host.maxSubagents());
    const holder = `subagent:${request.requestId}`;
    try {
      if (child.stopped) return this.outcome(child, { ok: false, output: "", stopReason: "aborted", errorMessage: "Stopped before it started." }, notice);
      const { folder, identity } = isolation === "worktree" ? await this.isolate(child, inside.folder, request.task) : inside;
      const launch: ChildLaunch = {
        setup: {
          parentSessionId,
          agent: definition.name,
          instructions: definition.systemPrompt,
          tools: definition.tools,
          // Never wider than the parent's (a parent that does not say counts as Ask); a definition may narrow it.
          profile: narrowest(request.parentProfile ?? DEFAULT_PROFILE, definition.profile),
        },
        toolCallId: request.toolCallId,
        workspace: folder,
        workspaceIdentity: identity,
        model,
        ...(inherited && request.parentThinkingLevel ? { thinkingLevel: request.parentThinkingLevel } : {}),
        ...(child.worktree ? { worktree: child.worktree } : {}),
      };
      this.bySession.set(child.sessionId, child);
      this.host.childCreated({ sessionId: child.sessionId, parentSessionId, toolCallId: request.toolCallId, agent: definition.name, workspace: folder, model, launch });
      // The recorded launch is what the child's worker starts with: without one it would start as an ordinary chat.
      const recorded = this.host.launchOf(child.sessionId);
      if (!recorded || recorded.problem !== undefined) {
        throw new Error("The subagent's set-up could not be recorded, so it was not started.");
      }
      const worker = await this.host.startChild(child.sessionId, holder);
      // Later tasks of the same call will want workers: warm them while this one works (not before: on a small
      // machine processes starting now would slow this one's start).
      this.host.prewarm(Math.min(MAX_PER_PARENT, upcoming));
      this.progress(child, { running: true, usage: NO_USAGE });
      if (child.stopped) return this.outcome(child, { ok: false, output: "", stopReason: "aborted", errorMessage: "Stopped before it started." }, notice);
      const died = worker.process.exited.then((exit) => exit);
      const result = await Promise.race([
        // pi's subagent sends its child `Task: <task>`, not the bare task; a planning parent's subagent plans too.
        worker.call((c) => c.runTask(`Task: ${request.task}`, request.parentPlan ? { plan: true } : undefined)).then((r) => ({ kind: "ran" as const, r })),
        died.then((exit) => ({ kind: "died" as const, exit })),
      ]).catch((error: unknown) => ({ kind: "failed" as const, error }));
      if (result.kind === "ran") {
        const ok = result.r.ok && !child.stopped;
        return this.outcome(child, { ...result.r, ok }, notice, await this.changes(child));
      }
      const why =
        child.stopped ? "Stopped." :
        result.kind === "died" ? `The subagent's process ended (${result.exit.signal ?? `code ${result.exit.code}`}).` :
        `The subagent could not run: ${(result.error as Error)?.message ?? String(result.error)}`;
      return this.outcome(child, { ok: false, output: "", stopReason: child.stopped ? "aborted" : "error", errorMessage: why }, notice, await this.changes(child));
    } finally {
      release();
      this.byRequest.delete(request.requestId);
      this.bySession.delete(child.sessionId);
      if (this.byRequest.size === 0) this.host.tasksDone();
      this.host.releaseChild(child.sessionId, holder);
      // A stop that came while the worker was starting found nothing to end yet.
      if (child.stopped) void this.host.close(child.sessionId);
    }
  }

  /**
   * `isolation: worktree`: a branch and a worktree of the workspace's repository for this task (from its last
   * commit: the user's uncommitted work stays theirs), and the task's folder in it (the counterpart of `folder`).
   * Throws a readable Error when the workspace is not in a git repository or git is not there.
   */
  private async isolate(child: RunningChild, folder: string, task: string): Promise<{ folder: string; identity: FolderIdentity }> {
    try {
      child.worktree = await createWorktree({ workspace: folder, dataFolder: this.host.worktreesDir!, title: `${child.agent} ${task.slice(0, 40)}` });
    } catch (error) {
      throw new Error(`isolation: worktree needs the workspace in a git repository with a commit: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const stats = await stat(child.worktree.folder, { bigint: true }).catch(() => undefined);
    if (!stats?.isDirectory()) {
      throw new Error(`${folder} has no counterpart in the worktree (${child.worktree.folder}): a folder must be committed for an isolated task to work in it.`);
    }
    return { folder: child.worktree.folder, identity: folderIdentity(stats) };
  }

  /** What an isolated task changed in its worktree, for its outcome; undefined for a task that was not isolated. */
  private async changes(child: RunningChild): Promise<SubagentWorktree | undefined> {
    const worktree = child.worktree;
    if (!worktree) return undefined;
    const where = { path: worktree.path, branch: worktree.branch, base: worktree.base };
    try {
      const { files, added, removed } = await worktreeChanges(worktree);
      return { ...where, files, added, removed };
    } catch (error) {
      return { ...where, files: [], added: 0, removed: 0, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Whether any subagent task is running or waiting for a slot. */
  get busy(): boolean {
    return this.byRequest.size > 0;
  }

  private hasRunningTasks(parentSessionId: string, except: string): boolean {
    for (const child of this.byRequest.values()) if (child.parentSessionId === parentSessionId && child.requestId !== except) return true;
    return false;
  }

  /** The parent's run was stopped: the task is aborted and its worker ended. */
  async stop(parentSessionId: string, requestId: string): Promise<void> {
    const child = this.byRequest.get(requestId);
    if (!child || child.parentSessionId !== parentSessionId) return;
    child.stopped = true;
    await this.host.close(child.sessionId);
  }

  /** The parent's worker is gone (crashed, stopped, the chat deleted): so are its subagents. */
  async parentGone(parentSessionId: string): Promise<void> {
    const children = [...this.byRequest.values()].filter((c) => c.parentSessionId === parentSessionId);
    await Promise.all(children.map((c) => this.stop(parentSessionId, c.requestId)));
  }

  /** A child's status report: its parent hears of the progress. */
  childStatus(status: WorkerStatus): void {
    const child = this.bySession.get(status.sessionId);
    if (!child) return;
    this.progress(child, {
      running: status.running,
      usage: status.subagent?.usage ?? NO_USAGE,
      ...(status.subagent?.latest ? { latest: status.subagent.latest } : {}),
      ...(status.model ? { model: status.model } : {}),
    });
  }

  /**
   * A child's tool call in its parent's task needs the user: asked in the parent's chat, under the parent's policy.
   * Only while that task runs: a child at work on what the user typed in its own window asks there.
   */
  async askParent(childSessionId: string, question: SubagentApprovalQuestion): Promise<{ block: boolean; reason?: string }> {
    const launch = this.host.launchOf(childSessionId)?.launch;
    if (!launch) return { block: true, reason: "This subagent has no parent chat to ask." };
    if (!this.bySession.has(childSessionId)) return { block: true, reason: "No task of the parent chat is running here, so the parent chat cannot be asked." };
    const parent = this.host.workerOf(launch.setup.parentSessionId);
    if (!parent) return { block: true, reason: "The parent chat is gone, so nobody can allow this call." };
    const from = { agent: launch.setup.agent, sessionId: childSessionId, parentToolCallId: launch.toolCallId };
    return parent.call((c) => c.askApproval(from, question)).catch(() => ({ block: true, reason: "The parent chat stopped before the user answered." }));
  }

  private progress(child: RunningChild, update: Omit<SubagentProgress, "requestId" | "sessionId" | "agent">): void {
    const parent = this.host.workerOf(child.parentSessionId);
    if (!parent) return;
    const progress: SubagentProgress = { requestId: child.requestId, sessionId: child.sessionId, agent: child.agent, ...(child.model ? { model: child.model } : {}), ...update };
    void parent.call((c) => c.subagentProgress(progress)).catch(() => undefined);
  }

  private outcome(
    child: RunningChild,
    ran: Omit<SubagentOutcome, "requestId" | "agent" | "sessionId" | "usage"> & Partial<Pick<SubagentOutcome, "usage">>,
    notice: string | undefined,
    worktree?: SubagentWorktree,
  ): SubagentOutcome {
    // Only these fields go on to the parent: whatever else a child's answer carries (an older worker's messages)
    // would end up in the parent's transcript.
    const { ok, output, stopReason, errorMessage, model, usage } = ran;
    return {
      requestId: child.requestId,
      agent: child.agent,
      sessionId: child.sessionId,
      ok,
      output,
      usage: usage ?? NO_USAGE,
      ...((model ?? child.model) ? { model: model ?? child.model } : {}),
      ...(stopReason ? { stopReason } : {}),
      ...(errorMessage ? { errorMessage } : {}),
      ...(notice ? { notice } : {}),
      ...(worktree ? { worktree } : {}),
    };
  }

  /**
   * The definition's model when it can be used here (known to pi-ai or a custom endpoint, with a key where one is
   * needed), else the parent's, with a notice saying why. `inherited`: the parent's model is used (so, with it, the
   * parent's thinking level): pi's rule for a definition without a model, and ours for one whose model is unusable.
   */
  private async chooseModel(wanted: string | undefined, parentModel: ModelRef | undefined): Promise<{ model?: ModelRef; notice?: string; inherited: boolean }> {
    if (!wanted) return { model: parentModel, inherited: true };
    for (const ref of candidateRefs(wanted, parentModel)) {
      try {
        this.host.resolveModel(ref);
      } catch {
        continue;
      }
      if (ref.provider.startsWith("custom:") || (await this.host.hasApiKey(ref.provider))) return { model: ref, inherited: false };
      return { model: parentModel, inherited: true, notice: `Model "${wanted}" needs an API key for ${ref.provider}; used the chat's model instead.` };
    }
    return { model: parentModel, inherited: true, notice: `Model "${wanted}" is not available here; used the chat's model instead.` };
  }
}

export const NO_USAGE: SubagentUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0 };

/** "provider/id" names one model; a bare id is looked for at the parent's provider, then at each of pi-ai's. */
function candidateRefs(wanted: string, parentModel: ModelRef | undefined): ModelRef[] {
  const slash = wanted.indexOf("/");
  if (slash > 0) return [{ provider: wanted.slice(0, slash), id: wanted.slice(slash + 1) }];
  const refs: ModelRef[] = [];
  if (parentModel) refs.push({ provider: parentModel.provider, id: wanted });
  for (const provider of catalogProviders()) if (provider !== parentModel?.provider) refs.push({ provider, id: wanted });
  return refs;
}

/**
 * The subagent's workspace: the parent's, or a folder inside it, as its real path and the identity it has now (the
 * child checks both before it works there). Throws a readable Error for anything else.
 */
async function folderInside(workspace: string, cwd: string | undefined): Promise<{ folder: string; identity: FolderIdentity }> {
  const root = await realpath(workspace).catch(() => undefined);
  if (!root) throw new Error(`The workspace ${workspace} does not exist.`);
  const whole = cwd === undefined || cwd === "" || cwd === ".";
  const wanted = whole ? root : isAbsolute(cwd) ? cwd : resolve(root, cwd);
  const real = await realpath(wanted).catch(() => undefined);
  if (!real) throw new Error(`cwd "${cwd}" does not exist in the workspace.`);
  const rel = relative(root, real);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`cwd "${cwd}" is outside the workspace; subagents work inside it.`);
  const stats = await stat(real, { bigint: true });
  if (!stats.isDirectory()) throw new Error(whole ? `The workspace ${workspace} is not a folder.` : `cwd "${cwd}" is not a folder.`);
  return { folder: real, identity: folderIdentity(stats) };
}

function checkScope(scope: unknown): AgentScope {
  if (scope === "user" || scope === "project" || scope === "both") return scope;
  throw new Error(`agentScope must be "user", "project" or "both"`);
}

/** The request came from a worker that runs tools: its shape is checked, not trusted. */
function checkRequest(request: SubagentRequest): void {
  const text = (v: unknown, max: number) => typeof v === "string" && v.length > 0 && v.length <= max;
  if (
    typeof request !== "object" || request === null ||
    !text(request.requestId, 100) || !text(request.toolCallId, 200) || !text(request.agent, 64) ||
    typeof request.task !== "string" || request.task.length > 1_000_000 ||
    !Number.isSafeInteger(request.index) || request.index < 0 ||
    (request.cwd !== undefined && typeof request.cwd !== "string") ||
    (request.isolation !== undefined && request.isolation !== "worktree") ||
    (request.parentModel !== undefined && (typeof request.parentModel?.provider !== "string" || typeof request.parentModel?.id !== "string")) ||
    (request.parentThinkingLevel !== undefined && !(THINKING_LEVELS as readonly unknown[]).includes(request.parentThinkingLevel)) ||
    (request.parentProfile !== undefined && !isPermissionProfile(request.parentProfile)) ||
    (request.parentPlan !== undefined && request.parentPlan !== true)
  ) {
    throw new Error("runSubagent: invalid request");
  }
  checkScope(request.scope);
}

function newChildId(): string {
  return `sub-${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
}

/**
 * Running-task slots: at most MAX_PER_PARENT per parent and `max()` in all. A task gets its place in line as main
 * hears of it (`enter`, before any await: main's checks of two tasks can end in either order), and waits until both
 * limits have room; the function `take` gives back frees its slot (once). Parents are served in the order their tasks
 * came in; one parent's tasks in (call, index) order: a call main heard of first before a later one, within a call
 * by the task's index, so a task never starts ahead of an earlier one of its parent that is still in line (still
 * being checked, or waiting).
 */
export class Slots {
  private total = 0;
  private readonly perParent = new Map<string, number>();
  /** Each parent's calls with tasks in line or running: the call's number (the order main heard of it) and how many. */
  private readonly calls = new Map<string, Map<string, { order: number; tasks: number }>>();
  private nextCall = 0;
  /** Tasks in line, in the order they came in. */
  private readonly line: Place[] = [];

  /** A task of `parent`'s call `callId`, at `index` in it, takes its place in line. */
  enter(parent: string, callId: string, index: number): SlotPlace {
    const calls = this.calls.get(parent) ?? new Map<string, { order: number; tasks: number }>();
    this.calls.set(parent, calls);
    const call = calls.get(callId) ?? { order: this.nextCall++, tasks: 0 };
    calls.set(callId, call);
    call.tasks++;
    const place: Place = { parent, call: call.order, index };
    this.line.push(place);
    let left = false;
    const leaveCall = () => {
      if (left) return;
      left = true;
      if (--call.tasks === 0) calls.delete(callId);
      if (calls.size === 0) this.calls.delete(parent);
    };
    return {
      take: (max) =>
        new Promise((resolve) => {
          if (!this.line.includes(place)) throw new Error("This task has left the line.");
          place.max = max;
          place.go = () => resolve(this.releaser(parent, leaveCall));
          this.pump();
        }),
      leave: () => {
        const at = this.line.indexOf(place);
        if (at < 0) return;
        this.line.splice(at, 1);
        leaveCall();
        // A task behind it may go now.
        this.pump();
      },
    };
  }

  private releaser(parent: string, leaveCall: () => void): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const n = (this.perParent.get(parent) ?? 1) - 1;
      if (n === 0) this.perParent.delete(parent);
      else this.perParent.set(parent, n);
      leaveCall();
      this.pump();
    };
  }

  private pump(): void {
    for (let i = 0; i < this.line.length; ) {
      const p = this.line[i];
      const ahead = this.line.some((o) => o !== p && o.parent === p.parent && (o.call < p.call || (o.call === p.call && o.index < p.index)));
      if (p.go && p.max && !ahead && this.total < p.max() && (this.perParent.get(p.parent) ?? 0) < MAX_PER_PARENT) {
        this.line.splice(i, 1);
        this.total++;
        this.perParent.set(p.parent, (this.perParent.get(p.parent) ?? 0) + 1);
        p.go();
        // One that started may let an earlier-come task of its parent go: from the top again.
        i = 0;
      } else i++;
    }
  }
}

/** A task's place in Slots' line. */
export interface SlotPlace {
  /** Waits for the task's turn; the function it resolves to frees the slot. */
  take(max: () => number): Promise<() => void>;
  /** The task will not run (its checks failed): it leaves the line, letting those behind it go. No-op once taken. */
  leave(): void;
}

interface Place {
  parent: string;
  call: number;
  index: number;
  max?: () => number;
  go?: () => void;
}
