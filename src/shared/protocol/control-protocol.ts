/**
 * The control channel: main (the broker) <-> one agent worker. Two Comlink lanes on one transport: main calls
 * `WorkerControlApi` on lane "c2w", the worker calls `MainControlApi` on lane "w2c". Session traffic never uses it.
 */
import type { SandboxCause } from "../security/sandbox-help";
import type { BudgetCaps } from "../agent/budget";
import type { ThinkingLevel, ToolExecutionMode } from "../agent/types";
import type { ToolPolicy } from "../settings/schema";
import type { PermissionProfile } from "./permission-profiles";
import type { RunContract } from "./run-contract";
import type { Model } from "@earendil-works/pi-ai";
import type { ModelRef, SessionActivity } from "./app-api";
import type { QueueMode } from "../agent/types";
import type { McpCallOutcome, McpCallProgress, McpToolDescriptor } from "./mcp-host-protocol";
import type { SkillListing } from "./skills";
import type { WorktreeChangedFile } from "./worktrees";
import type { ChangeSet, ChangesSince } from "./changes";

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
  /**
   * Automatic retries after a rate limit, a server error or a dropped connection (Settings → Stopping and timeouts):
   * at most `attempts` of them (0: none), none after a wait longer than `maxWaitMs` would be needed. Absent: none.
   */
  retry?: { attempts: number; maxWaitMs: number };
  clearQueuesOnAbort: boolean;
  /** Per tool: run at once or ask (a tool not listed asks); see approval-gate.ts. */
  toolApproval: Record<string, ToolPolicy>;
  /** A question nobody answers while no window shows the chat is denied after this long. */
  approvalTimeoutMs: number;
  /** Settings' default permission profile, for chats that chose none (permission-profiles.ts); absent: Ask. */
  defaultProfile?: PermissionProfile;
  /** Hosts shell commands may reach through the sandbox. */
  allowedDomains: string[];
  /** Instructions for chats that have none of their own (Settings); absent or blank: none. */
  defaultSystemPrompt?: string;
  /** pi's `shellCommandPrefix` (Settings → Tools): run by bash before every command; absent or blank: none. */
  shellCommandPrefix?: string;
  /** Settings → Checkpoints, as the worker's store wants them; absent: on, with the default largest file kept. */
  checkpoints?: WorkerCheckpointSettings;
  /** Settings → Budgets: the caps of each run of a chat that has no run caps of its own; absent: none. */
  runBudget?: BudgetCaps;
  /** This month's spending reached Settings' cap: no run starts, and this says why and where to raise it. */
  monthlyRefusal?: string;
}

/** Whether the chat records checkpoints of its workspace, and the largest file a checkpoint keeps a copy of. */
export interface WorkerCheckpointSettings {
  enabled: boolean;
  /** A file larger than this is recorded as changed without a copy (the store's `maxFileBytes`). */
  maxFileBytes: number;
}

export interface WorkerInitOptions {
  sessionId: string;
  /** The session's JSONL transcript; while the worker runs it is the only writer (session-files/transcript-store.ts). */
  transcriptFile: string;
  /** The session's own folder (saved command output, temporary files); the worker creates it when needed. */
  sessionDir: string;
  /** The app's data folder (keys, settings, every chat): shell commands may not read it, except `sessionDir`. */
  privateDir?: string;
  /** The chat's workspace folder (absolute, checked by main), if it has one: file and shell tools work there. */
  workspace?: string;
  /**
   * `workspace` is the real path main checked, and this the identity that folder had when main handed it over (a
   * subagent's: when main checked its cwd). The worker works there only while the path is still that folder's real
   * path: one swapped for a symlink (to `/`, say) meanwhile is refused (no tools, and a subagent's task fails), and
   * says so. Absent when main could not stat the folder (then it is gone, and the worker says that).
   */
  workspaceIdentity?: FolderIdentity;
  /**
   * The chat (or subagent task) works in a git worktree Paddock made for it, at `base` (main's worktree record): the
   * worker records the worktree's state as soon as it opens, before anything can change it, so the Changes panel's
   * "since the worktree started" is that commit's tree (issue 24 §4).
   */
  worktree?: WorktreeStart;
  settings: WorkerSettings;
  /** Attach a state digest to every event batch so mirrors can prove they are in sync (diagnostics, tests). */
  integrityCheck?: boolean;
  /**
   * Where session clients connect. "websocket": the worker listens on 127.0.0.1 with a random token (Node hosts:
   * tests, `npm run dev:web`). "port": main hands over MessagePorts (Electron).
   */
  sessionTransport: "websocket" | "port";
  /** Set when this session is a subagent's: it works for a parent session's `subagent` tool call. */
  subagent?: SubagentSetup;
  /** Whether shell commands can be sandboxed on this machine, when an earlier worker found out (saves the probe). */
  sandbox?: SandboxVerdict;
  /**
   * What the workspace's project allows ("Allowed in this project": main's grants for the folder's real path, see
   * grant-format.ts); later changes come as `projectGrantsChanged`. Absent: none.
   */
  projectGrants?: string[];
  /** Where user-scope agent definitions are read from (pi's folder, Paddock's): the `subagent` tool's description names them. */
  agentFolders?: { pi: string; paddock: string };
}

/** Where a worktree started: its branch and the commit its changes are measured from (WorktreeRecord's fields). */
export interface WorktreeStart {
  branch: string;
  base: string;
}

/** A folder's device and inode numbers (as `stat` reports them, in decimal: they can exceed a JSON number). */
export interface FolderIdentity {
  dev: string;
  ino: string;
}

/** What a worker found out about the OS sandbox: a property of the machine, so main passes it on to later workers. */
export type SandboxVerdict = { available: true; kind: "bubblewrap" | "seatbelt" } | { available: false; reason: string; cause?: SandboxCause };

/** What makes a worker a subagent: whose task it does, as which agent, with which tools and instructions. */
export interface SubagentSetup {
  parentSessionId: string;
  /** The agent definition's name ("scout"): labels its approval questions in the parent's chat. */
  agent: string;
  /** The definition's body, appended to the subagent's system prompt. */
  instructions: string;
  /** The tools it may use, by name (workspace tools; MCP tools by name or `<server>__*`; never `subagent`: no recursion). */
  tools: string[];
  /**
   * The permission profile it runs under: the narrower of its parent's and its definition's (never wider than the
   * parent's). Absent (a launch kept by an older Paddock): Ask.
   */
  profile?: PermissionProfile;
}

/** A parent's `subagent` tool asks main for one task to be done by a subagent (see MainControlApi.runSubagent). */
export interface SubagentRequest {
  /** Chosen by the parent, unique per task: it names the task in progress reports and in `stopSubagent`. */
  requestId: string;
  /** The parent's tool call. */
  toolCallId: string;
  agent: string;
  task: string;
  /** A folder inside the parent's workspace (relative to it, or absolute); the subagent's workspace. */
  cwd?: string;
  scope: AgentScope;
  /** The parent's model: the subagent's when its definition names none, or one that cannot be used. */
  parentModel?: ModelRef;
  /**
   * Its place in the parent's call: 0 for a single task, the task's or the chain step's index otherwise. Main starts a
   * parent's waiting tasks in (call, index) order, whatever order its checks of them end in.
   */
  index: number;
  /** Tasks of the same call still to come after this one: main warms workers for them meanwhile. */
  upcoming?: number;
  /** The parent's thinking level: the subagent's along with the parent's model (pi's dispatch defaults). */
  parentThinkingLevel?: ThinkingLevel;
  /** `worktree`: the task runs in a git worktree of its own (else as its agent's definition says; else in the workspace). */
  isolation?: "worktree";
  /** The parent chat's permission profile now: the subagent's is never wider (absent: taken as Ask). */
  parentProfile?: PermissionProfile;
  /** The parent's run plans (Plan mode, or a message sent in Plan): the subagent's task runs in Plan too. */
  parentPlan?: true;
}

export type AgentScope = "user" | "project" | "both";

/** An agent a parent may hand tasks to, as the `subagent` tool lists it. */
export interface AgentSummary {
  name: string;
  description: string;
  source: "builtin" | "user" | "pi-user" | "project";
  /** For project agents: whether the user confirmed this file's current content. */
  confirmed?: boolean;
  /** The definition's `isolation`: its tasks run in a git worktree of their own. */
  isolation?: "worktree";
}

export interface AgentList {
  agents: AgentSummary[];
  projectAgentsDir?: string;
  /** Files that could not be used (no frontmatter, missing fields), in words. */
  problems: string[];
}

/** How a subagent's task ended. `ok` is false when its run ended in an error or abort, or its process died. */
export interface SubagentOutcome {
  requestId: string;
  agent: string;
  /** The subagent's own session (its transcript), hidden from the sidebar, linked from the parent's tool card. */
  sessionId: string;
  ok: boolean;
  /** The last assistant text: what the parent gets. */
  output: string;
  stopReason?: string;
  errorMessage?: string;
  model?: ModelRef;
  /** Said when the definition's model could not be used and the parent's was taken instead. */
  notice?: string;
  usage: SubagentUsage;
  /** `isolation: worktree`: the worktree the task ran in, and what it changed there. */
  worktree?: SubagentWorktree;
  // No messages: the run is journaled in the child's own session, which the parent's card opens to show it.
}

/** An isolated task's git worktree and its changes against the commit it started from (shared-node/git-worktrees). */
export interface SubagentWorktree {
  /** The worktree's folder (under Paddock's worktrees folder, never in the user's tree). */
  path: string;
  /** Its branch (`paddock/…`): the changes are there, not in the workspace, until applied. */
  branch: string;
  /** The commit it started from. */
  base: string;
  files: WorktreeChangedFile[];
  added: number;
  removed: number;
  /** Why its changes could not be listed (then `files` is empty). */
  problem?: string;
}

/**
 * A parent's `worktree` tool: what to do with the worktree of one of its isolated subagent tasks (the task's
 * subagent session, as the `subagent` result names it). `describe` only says what the worktree holds (for the
 * approval question); `apply` brings its changes into the workspace (`merge`: three ways where the workspace changed
 * the same files), `keep` ends it and keeps its branch, `discard` ends it and deletes its branch.
 */
export interface TaskWorktreeRequest {
  action: "describe" | "apply" | "keep" | "discard";
  sessionId: string;
  merge?: boolean;
}

/** What happened, in words for the model; `ok` false: refused (nothing changed), the words say why. */
export interface TaskWorktreeAnswer {
  ok: boolean;
  text: string;
}

export interface SubagentUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  turns: number;
  /** Tool calls it finished (they count toward its parent's budget); absent from older workers: none counted. */
  toolCalls?: number;
}

/** A subagent's progress, pushed by main to its parent as the subagent reports it. */
export interface SubagentProgress {
  requestId: string;
  sessionId: string;
  agent: string;
  running: boolean;
  model?: ModelRef;
  usage: SubagentUsage;
  /** What it did last, in a line: a tool call ("read src/a.ts") or the start of its text. */
  latest?: string;
}

/** A subagent's tool call that needs the user: asked in the parent's chat, by the parent's policy and grants. */
export interface SubagentApprovalQuestion {
  toolCallId: string;
  toolName: string;
  args: unknown;
  summary: string;
  diff?: string;
  /** Why it must be asked every time, with no grant: it changes a file the sandbox protects (the subagent judged it). */
  protection?: string;
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
  /** Once known: whether this machine can sandbox shell commands (main tells later workers). */
  sandbox?: SandboxVerdict;
  /** Subagents only: usage summed and the latest activity, for the parent's progress. */
  subagent?: { usage: SubagentUsage; latest?: string };
  /**
   * What this session's replies have cost (pi-ai's pricing) since this worker opened it (`id` names that opening):
   * main adds what is new to the month's spending (main/broker/monthly-spend.ts). `unpricedTokens`: the tokens of
   * replies whose model has no pricing (their cost unknown), counted beside it.
   */
  spend?: { id: string; cost: number; unpricedTokens?: number };
}

/** How far a spare warms up: a subagent's spare loads the workspace tools and its model API's client too. */
export interface WarmUpOptions {
  subagent?: { api?: string; sandbox?: SandboxVerdict };
}

/** A worker's answer to `shutdown`: it stopped, or (asked to stop only if idle) what keeps it busy. */
export type ShutdownAnswer = "stopped" | Exclude<SessionActivity, "idle">;

export interface WorkerControlApi {
  /** Binds this (possibly pre-warmed) worker to a session; loads its transcript. Called once. */
  init(options: WorkerInitOptions): Promise<WorkerInitResult>;
  updateSettings(settings: WorkerSettings): Promise<void>;
  /**
   * The chat's workspace changed (checked by main; undefined: none): tools and system prompt follow. `identity`: as
   * WorkerInitOptions' `workspaceIdentity`.
   */
  setWorkspace(folder: string | undefined, identity?: FolderIdentity): Promise<void>;
  /**
   * Ends the session: aborts any run (journaled as stopped), flushes the transcript and closes connections; the
   * process exits on its own afterwards, and the answer is "stopped". With `ifIdle` (main's idle stop, whose view of
   * the worker lags behind its reports) a worker whose agent has work refuses and answers what it is doing instead.
   */
  shutdown(options?: { ifIdle?: boolean }): Promise<ShutdownAnswer>;
  /**
   * Resolves once the worker has loaded everything `init` needs, so a warm spare hands over a session at once.
   * (The worker answers `ping` before that: it is ready for commands first, and finishes loading in the background.)
   * With `subagent`, it also loads what a subagent needs before its first model request.
   */
  warmUp(options?: WarmUpOptions): Promise<void>;
  /** Liveness probe, also used to measure start-up: resolves once the worker serves. */
  ping(): Promise<{ pid: number; rssBytes: number }>;
  /**
   * Does `task` as one run, with no page needed, and resolves when it ends (never rejects for the run's own failure:
   * the outcome says): a subagent's task (main calls it once, right after `init`; `contract.plan` when its parent's
   * run plans) and a schedule's occurrence (its contract: unattended, its profile and run caps). The contract binds
   * that run only (run-contract.ts); a malformed one is refused with the reason, and nothing runs.
   */
  runTask(task: string, contract?: RunContract): Promise<Omit<SubagentOutcome, "requestId" | "agent" | "sessionId" | "notice">>;
  /**
   * The changes view's `listChanges` (session-protocol.ts), for main: what a scheduled run changed in the chat's
   * workspace, read when it ends (main/schedules/schedule-runner.ts), from the same checkpoints the page's Changes panel
   * reads. Rejects as the page's call does (no workspace, checkpoints off, not recorded yet).
   */
  listChanges(since: ChangesSince): Promise<ChangeSet>;
  /** Parents: a subagent of theirs made progress. */
  subagentProgress(progress: SubagentProgress): Promise<void>;
  /** Parents: a subagent's tool call needs the user; resolves with what the parent's gate decided. */
  askApproval(from: { agent: string; sessionId: string; parentToolCallId: string }, question: SubagentApprovalQuestion): Promise<{ block: boolean; reason?: string }>;
  /** The MCP tools on offer changed (a server became ready or went away, or its `tools/list_changed`): all of them. */
  mcpToolsChanged(tools: McpToolDescriptor[]): Promise<void>;
  /**
   * What a model reference resolves to may have changed (Settings' added models or endpoints): the session resolves
   * its model again (`MainControlApi.resolveModel`), so a changed limit applies from its next request.
   */
  modelsChanged(): Promise<void>;
  /** Progress of one of this worker's MCP calls (`callId` as the worker named it in `mcpCall`). */
  mcpProgress(progress: McpCallProgress): Promise<void>;
  /**
   * The project's grants changed (one added by any chat in the folder, one removed in the chat or Settings): all of
   * them, for the workspace this worker was told of; they replace the earlier list at once.
   */
  projectGrantsChanged(grants: string[]): Promise<void>;
}

/** A worker's MCP tool call (see MainControlApi.mcpCall). */
export interface WorkerMcpCall {
  /** Chosen by the worker, unique among its calls in flight: names it in `mcpProgress` and `mcpCancel`. */
  callId: string;
  serverId: string;
  /** The tool's name on its server. */
  tool: string;
  arguments: Record<string, unknown>;
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
  /**
   * The agents the session's `subagent` tool may use, from Paddock's, pi's and (scope allowing) the project's folders:
   * a project's found from `cwd` (a task's, inside the workspace), else from the workspace.
   */
  listAgents(...args: [scope: AgentScope] | [scope: AgentScope, cwd: string]): Promise<AgentList>;
  /** The user confirmed these project agents (of `cwd`'s project, as listAgents): remembered per file content (a changed file asks again). */
  confirmProjectAgents(...args: [names: string[]] | [names: string[], cwd: string]): Promise<void>;
  /**
   * Runs one task in a subagent worker of its own, within the limits (4 at once per parent, Settings' global cap:
   * more wait their turn). Resolves with the outcome, a failed one when the worker dies; rejects only for a request
   * that cannot start (an unknown agent, a cwd outside the workspace), with a readable Error.
   */
  runSubagent(request: SubagentRequest): Promise<SubagentOutcome>;
  /** Aborts a task and ends its worker (the parent's run was stopped). */
  stopSubagent(requestId: string): Promise<void>;
  /**
   * Parents: the worktree of one of this chat's own isolated subagent tasks (see TaskWorktreeRequest). Main checks
   * that the task is a child of the calling session and worked in a worktree; anything else is refused in words.
   */
  taskWorktree(request: TaskWorktreeRequest): Promise<TaskWorktreeAnswer>;
  /**
   * "Allow for this project": main keeps `grant` (grant-format.ts's project shapes only) for the real path of the
   * calling session's workspace, then tells every worker there (`projectGrantsChanged`). Rejects in words when the
   * session has no workspace or the grant has another shape.
   */
  addProjectGrant(grant: string): Promise<void>;
  /** Subagents: a tool call of theirs needs the user (see WorkerControlApi.askApproval). */
  askParent(question: SubagentApprovalQuestion): Promise<{ block: boolean; reason?: string }>;
  /** Every enabled, ready MCP server's tools (the worker keeps those of the servers its chat uses). */
  mcpTools(): Promise<McpToolDescriptor[]>;
  /**
   * Calls an MCP tool through main's MCP host; progress comes back as `mcpProgress`. Rejects with a readable Error
   * (the tool is no longer on offer, the server is not ready or died, the call failed or was cancelled).
   */
  mcpCall(call: WorkerMcpCall): Promise<McpCallOutcome>;
  /** Cancels one of this worker's MCP calls in flight (the user's Stop): the server is told, the call rejects. */
  mcpCancel(callId: string): Promise<void>;
  /**
   * The skills the session's model is told of (pi's, Paddock's, Claude Code's; the workspace's once the user agreed),
   * and their folders, which its file tools may read (never write). Asked whenever the workspace is opened.
   */
  listSkills(): Promise<SkillListing>;
  /**
   * What a request to `modelId` of `provider` carries besides its key: pi-ai's provider-scoped environment values
   * (`options.env`), for the cloud providers configured in Settings (Bedrock's region and credentials, Vertex's
   * project, location and credentials file, Azure's address, deployment and API version). Secrets included: the
   * worker keeps them for the request, never in its environment. Undefined: none.
   */
  getProviderConfig(provider: string, modelId: string): Promise<ProviderRequestConfig | undefined>;
}

/** See `MainControlApi.getProviderConfig`. */
export interface ProviderRequestConfig {
  env: Record<string, string>;
}
