/**
 * Main's side of the page calls (AppApi), Electron-free: sessions index, settings, keys, models, notices. The
 * Electron app and the web host both wrap this one implementation; `openSession` is the host's business.
 */
import { realFolderOf, type ProjectGrants } from "./project-grants";
import { projectFolder } from "./project-folder";
import type { ProjectGrants as ProjectGrantsView } from "../../shared/protocol/app-api";
import { randomUUID } from "node:crypto";
import { mkdir, realpath, rm, stat } from "node:fs/promises";
import { dirname, isAbsolute } from "node:path";
import { homedir } from "node:os";
import { catalogProviders } from "./model-catalog";
import type { AgentOverview, AppApi, AppEvent, AppNotice, ChatExport, ChatExportFormat, MessageSearchResult, ModelOption, ProviderStatus, SessionSummary, WorkspaceRefusal } from "../../shared/protocol/app-api";
import type { WorkerSettings } from "../../shared/protocol/control-protocol";
import { customProviderId } from "../../shared/providers/custom-provider";
import type { Settings, SettingsPatch } from "../../shared/settings/schema";
import { Listeners } from "../../shared/transport/transport";
import { errorText } from "../../shared/error-text";
import { endpointKeyStatus, endpointOf, endpointOrigin, isProviderKeyName, orphanedKeys } from "./endpoint-keys";
import { probeEndpoint as probeServer, probeKey } from "./endpoint-probe";
import type { EndpointProbeRequest, EndpointProbeResult } from "../../shared/protocol/endpoint-probe";
import { apiKeySource, type SecretStore } from "./secrets";
import type { BrokerEvent, SessionBroker } from "./session-broker";
import type { AgentCatalog } from "./subagent-runs";
import type { SessionIndex, SessionRecord } from "./session-index";
import type { SettingsStore } from "./settings-store";
import type { MessageSearch } from "./search-service";
import { exportChat, readAttachments } from "./chat-export";
import { parseChatExport, writeImportedChat } from "./chat-import";
import { loadTranscript } from "../../shared-node/session-files/transcript-store";
import type { McpSupervisor } from "../mcp/mcp-supervisor";
import type { McpServerStatus } from "../../shared/protocol/mcp-status";
import type { McpPromptInfo, McpResourceContent, McpResourceInfo } from "../../shared/protocol/mcp-host-protocol";
import type { McpConfig } from "./mcp-config";
import type { McpImportOutcome, McpSecretStatus } from "../../shared/mcp/config-api";
import type { McpServerConfig } from "../../shared/mcp/server-config";
import { NEW_CHAT_TITLE } from "../../shared/protocol/empty-chat";
import { expandHome, workspaceRefusal, type GuardedPlaces } from "./workspace-guard";
import { ModelDirectory } from "./model-directory";
import type { PiModelsFileStatus, ProviderModelList } from "../../shared/protocol/model-lists";
import type { SkillCatalog } from "../skills/skill-catalog";
import type { SkillsOverview } from "../../shared/protocol/skills";
import type { Accounts } from "../accounts/accounts";
import type { SignInState } from "../../shared/protocol/accounts";
import type { CloudProviderChange } from "../../shared/providers/cloud-settings";
import type { CheckpointUpkeep } from "../checkpoints/checkpoint-upkeep";
import type { CheckpointStorageStatus } from "../../shared/protocol/checkpoint-storage";
import type { SessionWorktrees } from "./session-worktrees";
import type { ChatDraft } from "../../shared/protocol/drafts";
import { DraftStore } from "../../shared-node/session-files/draft-store";
import type { MonthlySpend } from "./monthly-spend";
import type { Scheduler } from "../schedules/scheduler";
import type { Schedule, ScheduleRun, ScheduleView } from "../../shared/schedules/schedule";
import { monthKey, type MonthSpend } from "../../shared/agent/budget";
import type { WorktreeApplyOutcome, WorktreeChangesSummary, WorktreeKept, WorktreeOffer, WorktreeStatus } from "../../shared/protocol/worktrees";

/** Deleted sessions stay restorable this long (the sidebar's undo). */
export const UNDO_WINDOW_MS = 60_000;

/** What workers are sent of `settings`; `monthlyRefusal`: the month's spending reached its cap (monthly-spend.ts). */
export function toWorkerSettings(settings: Settings, monthlyRefusal?: string): WorkerSettings {
  return {
    defaultModel: settings.defaultModel,
    thinkingLevel: settings.thinkingLevel,
    steeringMode: settings.steeringMode,
    followUpMode: settings.followUpMode,
    toolExecution: settings.toolExecution,
    requestTimeoutMs: settings.abort.requestTimeoutMs,
    retry: { attempts: settings.abort.retryAttempts, maxWaitMs: settings.abort.retryMaxWaitSeconds * 1000 },
    clearQueuesOnAbort: settings.abort.clearQueuesOnAbort,
    toolApproval: settings.tools.approval,
    approvalTimeoutMs: settings.tools.approvalTimeoutMinutes * 60_000,
    ...(settings.tools.defaultProfile ? { defaultProfile: settings.tools.defaultProfile } : {}),
    allowedDomains: settings.tools.allowedDomains,
    defaultSystemPrompt: settings.defaultSystemPrompt,
    shellCommandPrefix: settings.tools.shellCommandPrefix,
    checkpoints: { enabled: settings.checkpoints.enabled, maxFileBytes: settings.checkpoints.maxFileMB * MB },
    ...(Object.keys(settings.budgets.run).length > 0 ? { runBudget: settings.budgets.run } : {}),
    ...(monthlyRefusal ? { monthlyRefusal } : {}),
  };
}

const MB = 1024 * 1024;

export interface AppServiceOptions<Port> {
  settings: SettingsStore;
  secrets: SecretStore;
  index: SessionIndex;
  /** Built first, with `getApiKey` over the same secrets (see core.ts), so neither needs the other half-made. */
  broker: SessionBroker<Port>;
  openSession(id: string, where: "this-window" | "new-window"): Promise<void>;
  /** Where agent definitions are found: the broker's catalog (see main/agents). */
  agents?: AgentCatalog;
  /** Where skills and prompt templates are found, and which project ones the user agreed to (main/skills). */
  skills?: SkillCatalog;
  /** Opens a folder in the system's file manager (the desktop app); absent where the host cannot. */
  openFolder?(path: string): Promise<void>;
  /** The search across chats (search-service.ts); absent: searches find nothing. */
  search?: MessageSearch;
  /** MCP server configs and their secrets (mcp-config.ts); absent: the MCP config calls are refused. */
  mcpConfig?: McpConfig;
  /** The MCP runtime (main/mcp); absent: no server runs here, `mcpStatus` lists none. */
  mcp?: McpSupervisor;
  /**
   * Paddock's data folder and the user's home folder: a workspace holding the one or being the other is refused
   * unless the user insists (workspace-guard.ts). Absent: no such check (tests of other things).
   */
  guardedPlaces?: GuardedPlaces;
  /** Every model there is (model-directory.ts); absent: one over these settings and keys, without pi's models.json. */
  models?: ModelDirectory;
  /** Accounts (sign-ins) and cloud providers' fields (main/accounts); absent: those calls are refused. */
  accounts?: Accounts;
  /** The checkpoint store's clean-up (main/checkpoints); absent: no chat keeps checkpoints here, the calls are refused. */
  checkpoints?: CheckpointUpkeep;
  /** How long a deleted chat can be brought back (default UNDO_WINDOW_MS; tests shorten it). */
  undoWindowMs?: number;
  /** Worktree chats and isolated tasks' worktrees (session-worktrees.ts); absent: those calls are refused. */
  worktrees?: SessionWorktrees;
  /** "Allowed in this project" (project-grants.ts); absent: no project has any, removing refuses. */
  projectGrants?: ProjectGrants;
  /** The folder of Paddock's log file (main/logs); absent: this host keeps none. */
  logsFolder?: string;
  /** The month's spending across all chats; absent: not counted, no monthly cap applies. */
  monthlySpend?: MonthlySpend;
}

export class AppService<Port = never> implements AppApi {
  private readonly notices: AppNotice[] = [];
  private nextNoticeId = 1;
  private readonly broker: SessionBroker<Port>;
  private readonly events = new Listeners<[AppEvent]>();
  private schedules: Scheduler | undefined;
  private readonly models: ModelDirectory;
  private purgeTimer: ReturnType<typeof setTimeout> | undefined;
  private purging: Promise<void> = Promise.resolve();
  private readonly drafts = new DraftStore();
  /** The last draft save's revision (saveDraft). */
  private draftRevision = 0;

  constructor(private readonly options: AppServiceOptions<Port>) {
    this.broker = options.broker;
    this.models =
      options.models ??
      new ModelDirectory({ settings: options.settings, secrets: options.secrets, configured: (provider) => options.accounts?.configured(provider) === true });
    for (const n of [...options.settings.notices, ...options.secrets.notices, ...options.index.notices]) this.notify(n.level, n.text);
    for (const text of options.checkpoints?.notices ?? []) this.notify("warning", text);
    options.index.onNotice((n) => this.notify(n.level, n.text));
    options.broker.onEvent((event) => this.onBrokerEvent(event));
    options.index.onChange((id) => this.publishSession(id));
    options.mcp?.onStatus((servers) => this.events.emit({ type: "mcp-status", servers }));
    options.search?.onIndexChange(() => this.events.emit({ type: "search-index" }));
    this.forgetRemovedEndpointKeys(options.settings.get());
    // Only what workers use: window moves also change settings, and must not ping every worker.
    const workerSettings = (s: Settings) => toWorkerSettings(s, options.monthlySpend?.refusal(s.budgets.monthlyCapUsd));
    let last = JSON.stringify(workerSettings(options.settings.get()));
    // What a model reference resolves to: an added model's limits or an endpoint's address change open chats' models.
    const modelSources = (s: Settings) => JSON.stringify([s.addedModels ?? [], s.customProviders]);
    let lastModels = modelSources(options.settings.get());
    options.settings.subscribe((settings) => {
      this.forgetRemovedEndpointKeys(settings);
      const models = modelSources(settings);
      if (models !== lastModels) {
        lastModels = models;
        void options.broker.modelsChanged();
      }
      broadcast(settings);
    });
    // Spending reaching the month's cap (or the month turning) starts or lifts the refusal in every worker.
    options.monthlySpend?.onChange(() => {
      broadcast(options.settings.get());
      this.events.emit({ type: "monthly-spend", spend: options.monthlySpend!.snapshot() });
    });
    function broadcast(settings: Settings): void {
      const next = workerSettings(settings);
      const text = JSON.stringify(next);
      if (text === last) return;
      last = text;
      void options.broker.broadcastSettings(next);
    }
  }

  /**
   * What every page is pushed: chats changing (titles, activity, unread) and chats wanting attention. The host
   * relays them (IPC, WebSocket); the listener must not throw. Returns the unsubscribe function.
   */
  onEvent(listener: (event: AppEvent) => void): () => void {
    return this.events.add(listener);
  }

  notify(level: AppNotice["level"], text: string): void {
    this.notices.push({ id: this.nextNoticeId++, level, text });
  }

  /** A removed endpoint's key goes with it (also one removed while Paddock was not running). */
  private forgetRemovedEndpointKeys(settings: Settings): void {
    this.options.secrets.forget(orphanedKeys(this.options.secrets.providers(), settings.customProviders));
  }

  /**
   * Broker news into the index and the pages: titles and counts from status reports; activity as it changes; a run
   * that ends while nobody watches leaves the chat unread; opening the chat reads it.
   */
  private onBrokerEvent(event: BrokerEvent): void {
    const index = this.options.index;
    switch (event.type) {
      case "status": {
        const s = event.status;
        if (!index.get(s.sessionId)) return;
        index.update(s.sessionId, {
          ...(s.title ? { title: s.title } : {}),
          messageCount: s.messageCount,
          updated: s.updated,
          ...(s.model ? { model: s.model } : {}),
        });
        return;
      }
      case "activity": {
        const { sessionId, activity, outcome } = event;
        const summary = index.get(sessionId);
        // A subagent's run is part of its parent's: the parent's chat tells the user.
        if (!summary || summary.deleted !== undefined || summary.parent) return;
        const ended = activity === "idle" && (outcome === "done" || outcome === "failed") ? outcome : undefined;
        // The index change publishes the summary; otherwise publish the new activity here.
        if (ended && this.broker.viewerCount(sessionId) === 0) index.update(sessionId, { unread: ended });
        else this.publishSession(sessionId);
        const reason = activity === "waiting" ? "waiting" : ended;
        if (reason) this.events.emit({ type: "attention", sessionId, title: summary.title, reason });
        return;
      }
      case "attached":
        if (index.get(event.sessionId)?.unread) index.update(event.sessionId, { unread: undefined });
        return;
      case "worker-exited":
        this.notify("warning", `A chat's agent process stopped unexpectedly (${event.reason}).`);
        return;
    }
  }

  private publishSession(id: string): void {
    const summary = this.options.index.get(id);
    if (summary?.parent) return; // a subagent's session: its parent's tool card shows it, not the sidebar
    if (!summary || summary.deleted !== undefined) this.events.emit({ type: "session-removed", id });
    else this.events.emit({ type: "session", session: this.toPage(summary) });
  }

  /** The page's view of an index entry: what the agent is doing now added, the index's own fields left out. */
  private toPage({ deleted: _deleted, launch: _launch, ...summary }: SessionRecord): SessionSummary {
    const activity = this.broker.activity(summary.id);
    return activity === "idle" ? summary : { ...summary, activity };
  }

  async listAgents(): Promise<AgentOverview> {
    const catalog = this.requireAgents();
    const found = await catalog.discover("user", undefined);
    return {
      agents: found.agents.map((a) => ({
        name: a.name,
        description: a.description,
        source: a.source,
        tools: a.tools,
        ...(a.model ? { model: a.model } : {}),
        ...(a.filePath ? { filePath: a.filePath } : {}),
      })),
      folders: catalog.folders(),
      problems: found.problems,
    };
  }

  async openAgentsFolder(which: "paddock" | "pi"): Promise<void> {
    const folder = this.requireAgents().folders()[which];
    if (!this.options.openFolder) throw new Error(`Open this folder yourself: ${folder}`);
    await mkdir(folder, { recursive: true });
    await this.options.openFolder(folder);
  }

  async logsFolder(): Promise<string | null> {
    return this.options.logsFolder ?? null;
  }

  async getMonthlySpend(): Promise<MonthSpend> {
    return this.options.monthlySpend?.snapshot() ?? { month: monthKey(new Date()), costUsd: 0, unpricedTokens: 0 };
  }

  async openLogsFolder(): Promise<void> {
    const folder = this.options.logsFolder;
    if (!folder) throw new Error("This host keeps no log file");
    if (!this.options.openFolder) throw new Error(`Open this folder yourself: ${folder}`);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await this.options.openFolder(folder);
  }

  async listSkills(sessionId: string | null): Promise<SkillsOverview> {
    const catalog = this.requireSkills();
    return catalog.overview(sessionId === null ? undefined : this.liveWorkspace(sessionId));
  }

  async confirmProjectSkills(sessionId: string): Promise<number> {
    const workspace = this.liveWorkspace(sessionId);
    if (workspace === undefined) throw new Error("This chat has no workspace, so it has no project skills.");
    const agreed = await this.requireSkills().confirmProject(workspace);
    // The chat's agent opens its workspace again: its tools may now read the skills, its prompt lists them.
    if (agreed > 0) await this.broker.setWorkspace(sessionId, workspace);
    return agreed;
  }

  private liveWorkspace(sessionId: string): string | undefined {
    if (!this.options.index.isLive(sessionId)) throw new Error("No such chat");
    return this.options.index.get(sessionId)?.workspace;
  }

  private requireSkills(): SkillCatalog {
    if (!this.options.skills) throw new Error("Skills are not available here");
    return this.options.skills;
  }

  private requireAgents(): AgentCatalog {
    if (!this.options.agents) throw new Error("Agents are not available here");
    return this.options.agents;
  }

  async listSessions(): Promise<SessionSummary[]> {
    return this.options.index.list().map((s) => this.toPage(s));
  }

  async createSession(): Promise<SessionSummary> {
    const now = Date.now();
    const summary = { id: randomUUID(), title: NEW_CHAT_TITLE, created: now, updated: now, messageCount: 0 };
    this.options.index.upsert(summary);
    return summary;
  }

  async renameSession(id: string, title: string): Promise<void> {
    if (!this.options.index.update(id, { title: title.trim() || "Untitled" })) throw new Error("No such chat");
  }

  async deleteSession(id: string): Promise<void> {
    if (!this.options.index.get(id)) throw new Error("No such chat");
    this.options.index.markDeleted(id);
    // A deleted chat's agent stops (its run journaled as stopped; the page need not wait for that); undo reloads the
    // transcript in a new worker, which waits for this one to have flushed.
    void this.broker.close(id);
    await this.purgeDeleted();
    // Once its undo window is over the chat goes for good even if nothing else is deleted (a moment after, so the
    // window is over by then).
    clearTimeout(this.purgeTimer);
    this.purgeTimer = setTimeout(() => {
      this.purgeDeleted().catch((error) => this.notify("warning", `Could not remove a deleted chat's files: ${errorText(error)}`));
    }, this.undoWindowMs() + Math.min(1000, this.undoWindowMs()));
    this.purgeTimer.unref?.();
  }

  /**
   * Chats deleted longer ago than the undo window are gone for good: transcripts and folders (closed back then), and
   * their checkpoints with their subagents' (removed in the background: a failure is said in a notice, and the
   * delete stays done). Also run at start, for chats deleted before Paddock last quit.
   */
  purgeDeleted(): Promise<void> {
    const run = this.purging.catch(() => undefined).then(async () => {
      const index = this.options.index;
      const cutoff = Date.now() - this.undoWindowMs();
      const ending = index.all().filter((s) => s.deleted !== undefined && s.deleted < cutoff && s.worktree);
      const purged = index.purgeDeleted(cutoff);
      if (purged.length === 0) return;
      const sessions = purged.flatMap((id) => [id, ...index.descendantsOf(id)]);
      for (const id of purged) await this.removeChatFiles(id);
      void this.options.checkpoints?.removeChats(sessions);
      // A worktree chat's worktree goes with it, once final; a branch with changes stays, and the user is told.
      for (const record of ending) {
        const said = await this.options.worktrees?.endWithChat(record);
        if (said) this.notify("info", said);
      }
    });
    this.purging = run;
    return run;
  }

  private undoWindowMs(): number {
    return this.options.undoWindowMs ?? UNDO_WINDOW_MS;
  }

  /** Stops the delayed clean-up of deleted chats (quitting). */
  dispose(): void {
    clearTimeout(this.purgeTimer);
  }

  /** A chat's transcript and its folder (saved command output and temporary files are the chat's data too). */
  private async removeChatFiles(id: string): Promise<void> {
    await rm(this.broker.transcriptFile(id), { force: true });
    await rm(this.broker.sessionDir(id), { recursive: true, force: true });
  }

  /** A deleted chat's draft goes with its folder once the chat is gone for good (removeChatFiles); undo brings it back. */
  async getDraft(sessionId: string): Promise<ChatDraft> {
    if (!this.options.index.get(sessionId)) throw new Error("No such chat");
    return this.drafts.read(this.broker.sessionDir(sessionId));
  }

  /** Saves and tells every page (drafts.ts, DraftEvent), in the order the saves are kept. */
  async saveDraft(sessionId: string, draft: ChatDraft, writer?: string): Promise<number> {
    if (!this.options.index.isLive(sessionId)) throw new Error("No such chat");
    // Numbered as called: the store keeps the saves of a chat in call order, so the highest is the one on disk. From
    // the clock on, so a page still open across a restart of the host does not take a new save for an old one.
    this.draftRevision = Math.max(this.draftRevision + 1, Date.now());
    const revision = this.draftRevision;
    await this.drafts.write(this.broker.sessionDir(sessionId), draft);
    this.events.emit({ type: "draft", sessionId, draft: { text: draft.text, attachments: draft.attachments.map((a) => ({ ...a })) }, revision, ...(writer !== undefined ? { writer } : {}) });
    return revision;
  }

  async restoreSession(id: string): Promise<void> {
    this.options.index.restore(id);
  }

  async retrySessionWorker(id: string): Promise<void> {
    if (!this.options.index.isLive(id)) throw new Error("No such chat");
    this.broker.retry(id);
  }

  openSession(id: string, where: "this-window" | "new-window"): Promise<void> {
    return this.options.openSession(id, where);
  }

  async setWorkspace(id: string, folder: string | null, insist = false): Promise<SessionSummary | WorkspaceRefusal> {
    if (!this.options.index.isLive(id)) throw new Error("No such chat");
    // A subagent's folder is part of its launch (child-launch.ts), checked by main when its parent asked.
    if (this.options.index.get(id)?.parent) throw new Error("A subagent works in the folder its parent chat gave it; that cannot change.");
    if (this.options.index.get(id)?.worktree) throw new Error("This chat works in its worktree: keep its branch or discard it first.");
    const workspace = folder === null ? undefined : await checkWorkspace(folder, this.options.guardedPlaces?.home);
    const places = this.options.guardedPlaces;
    const reason = workspace !== undefined && !insist && places ? await workspaceRefusal(workspace, places) : undefined;
    if (reason !== undefined) return { refused: { folder: workspace!, reason } };
    const summary = this.options.index.update(id, { workspace })!;
    if (workspace) this.options.settings.rememberWorkspace(workspace);
    await this.broker.setWorkspace(id, workspace);
    return this.toPage(summary);
  }

  /** The browser host has no folder dialog (the desktop app answers this per window, with the system's). */
  async pickWorkspace(_id: string): Promise<SessionSummary | WorkspaceRefusal | null> {
    throw new Error("There is no folder dialog here: type the folder's full path.");
  }

  async worktreeOffer(folder: string): Promise<WorktreeOffer> {
    let workspace: string;
    try {
      workspace = await checkWorkspace(folder, this.options.guardedPlaces?.home);
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    return this.requireWorktrees().offer(workspace);
  }

  /** A new chat whose workspace is a new worktree of `folder`'s repository (the counterpart of `folder` in it). */
  async createWorktreeChat(folder: string, insist = false): Promise<SessionSummary | WorkspaceRefusal> {
    const worktrees = this.requireWorktrees();
    const workspace = await checkWorkspace(folder, this.options.guardedPlaces?.home);
    const places = this.options.guardedPlaces;
    const reason = !insist && places ? await workspaceRefusal(workspace, places) : undefined;
    if (reason !== undefined) return { refused: { folder: workspace, reason } };
    const id = randomUUID();
    const worktree = await worktrees.create(workspace, `chat-${id.slice(0, 8)}`);
    const now = Date.now();
    const summary: SessionRecord = { id, title: NEW_CHAT_TITLE, created: now, updated: now, messageCount: 0, workspace: worktree.folder, worktree };
    this.options.index.upsert(summary);
    this.options.settings.rememberWorkspace(workspace);
    return this.toPage(summary);
  }

  worktreeChanges(sessionId: string): Promise<WorktreeChangesSummary> {
    return this.requireWorktrees().changes(sessionId);
  }

  worktreeStatus(sessionId: string): Promise<WorktreeStatus> {
    return this.requireWorktrees().status(sessionId);
  }

  applyWorktree(sessionId: string, merge: boolean): Promise<WorktreeApplyOutcome> {
    return this.requireWorktrees().apply(sessionId, merge);
  }

  async keepWorktreeBranch(sessionId: string): Promise<WorktreeKept> {
    const { ended, ...kept } = await this.requireWorktrees().keep(sessionId);
    if (ended) await this.broker.setWorkspace(sessionId, undefined);
    return kept;
  }

  async discardWorktree(sessionId: string): Promise<void> {
    const { ended } = await this.requireWorktrees().discard(sessionId);
    if (ended) await this.broker.setWorkspace(sessionId, undefined);
  }

  async projectGrants(sessionId: string | null): Promise<ProjectGrantsView> {
    const store = this.options.projectGrants;
    if (sessionId === null) return store?.view() ?? { projects: [] };
    const entry = this.options.index.get(sessionId);
    if (!entry) throw new Error("No such chat.");
    // A worktree chat's project is its repository's folder (project-folder.ts), as the broker keeps its grants.
    const folder = await realFolderOf(projectFolder(entry.workspace, entry.worktree));
    if (!folder) return { projects: [] };
    return store?.view(folder) ?? { projects: [{ folder, grants: [] }] };
  }

  async removeProjectGrant(folder: string, grant: string): Promise<boolean> {
    const store = this.options.projectGrants;
    if (!store) throw new Error("Project grants are not kept here.");
    return store.remove(folder, grant);
  }

  /** Serves the AppApi's schedule calls from `scheduler` and pushes its changes to pages (core.ts calls it once). */
  useSchedules(scheduler: Scheduler): void {
    this.schedules = scheduler;
    scheduler.onChange((schedules) => this.events.emit({ type: "schedules", schedules }));
  }

  async listSchedules(): Promise<ScheduleView[]> {
    return this.requireSchedules().list();
  }

  async saveSchedule(schedule: Schedule): Promise<ScheduleView> {
    const scheduler = this.requireSchedules();
    // The folder as a chat's workspace is checked (absolute, an existing folder, its real path); the user chose it.
    const workspace = schedule.workspace.trim() ? await checkWorkspace(schedule.workspace.trim(), this.options.guardedPlaces?.home) : "";
    if (typeof schedule.target === "object" && !this.options.index.isLive(schedule.target.continue)) throw new Error("The chat to continue does not exist.");
    return scheduler.save({ ...schedule, workspace });
  }

  async setScheduleEnabled(id: string, enabled: boolean): Promise<ScheduleView> {
    return this.requireSchedules().setEnabled(id, enabled);
  }

  async deleteSchedule(id: string): Promise<boolean> {
    return this.requireSchedules().delete(id);
  }

  async runScheduleNow(id: string): Promise<ScheduleRun> {
    return this.requireSchedules().runNow(id);
  }

  private requireSchedules(): Scheduler {
    if (!this.schedules) throw new Error("Schedules are not run here.");
    return this.schedules;
  }

  private requireWorktrees(): SessionWorktrees {
    if (!this.options.worktrees) throw new Error("Worktrees are not available here.");
    return this.options.worktrees;
  }

  async getSettings(): Promise<Settings> {
    return this.options.settings.get();
  }

  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    return this.options.settings.update(patch);
  }

  /**
   * Keys only for providers Paddock knows (pi-ai's) or the user configured (custom endpoints): no store of strays. A
   * custom endpoint's key is bound to the origin of the endpoint's base URL as it is now (endpoint-keys.ts).
   */
  async setApiKey(provider: string, key: string | null): Promise<void> {
    if (!isProviderKeyName(provider)) throw new Error(`Unknown provider "${provider.slice(0, 60)}"${key === null ? "" : ": add it as a custom endpoint first"}.`);
    if (key === null) return this.options.secrets.set(provider, null);
    if (customProviderId(provider) === undefined) {
      this.options.secrets.set(provider, key);
      this.options.accounts?.keySaved(provider);
      return;
    }
    const endpoint = endpointOf(provider, this.options.settings.get().customProviders);
    if (!endpoint) throw new Error(`Unknown provider "${provider.slice(0, 60)}": add it as a custom endpoint first.`);
    const origin = endpointOrigin(endpoint.baseUrl);
    if (origin === undefined) throw new Error(`The endpoint's base URL is not a web address: ${endpoint.baseUrl.slice(0, 200)}`);
    this.options.secrets.set(provider, key, origin);
  }

  /** pi-ai's providers, then each custom endpoint with the address its key is for. Never a key. */
  async providerStatus(): Promise<ProviderStatus[]> {
    const builtIn = catalogProviders().map((provider): ProviderStatus => {
      const keySource = this.models.keySource(provider);
      const saved = apiKeySource(provider, this.options.secrets) === "settings";
      const setUpBy = keySource === "settings" && !saved ? (this.options.accounts?.tokens.signedIn(provider) ? "account" : "cloud") : undefined;
      return { provider, keySource, ...(setUpBy ? { setUpBy } : {}), ...this.options.accounts?.status(provider) };
    });
    const endpoints = this.options.settings.get().customProviders.map((e) => endpointKeyStatus(e, this.options.secrets));
    return [...builtIn, ...endpoints];
  }

  /** Built-in providers with a key (catalogue, `models.json`, added), `models.json`'s own, then the endpoints'. */
  listModels(): Promise<ModelOption[]> {
    return this.models.list();
  }

  /** The endpoint's model list, asked by main (endpoint-probe.ts): a typed key, or the one saved for that address. */
  probeEndpoint(request: EndpointProbeRequest): Promise<EndpointProbeResult> {
    return probeServer(request.baseUrl, probeKey(request, this.options.secrets));
  }

  /** "Refresh models": the provider's own list, asked by main with the user's key (provider-model-list.ts). */
  refreshModels(provider: string): Promise<ProviderModelList> {
    return this.models.refresh(provider);
  }

  piModelsFile(): Promise<PiModelsFileStatus> {
    return this.models.fileStatus();
  }

  async checkpointStorage(): Promise<CheckpointStorageStatus> {
    return this.requireCheckpoints().status();
  }

  async clearCheckpoints(): Promise<CheckpointStorageStatus> {
    return this.requireCheckpoints().clearAll();
  }

  private requireCheckpoints(): CheckpointUpkeep {
    if (!this.options.checkpoints) throw new Error("Checkpoints are not kept here.");
    return this.options.checkpoints;
  }

  async setCloudProvider(provider: string, change: CloudProviderChange): Promise<void> {
    return this.requireAccounts().saveCloud(provider, change);
  }

  async startSignIn(provider: string): Promise<SignInState> {
    return this.requireAccounts().signIns.start(provider);
  }

  async answerSignIn(id: string, answer: string): Promise<void> {
    return this.requireAccounts().signIns.answer(id, answer);
  }

  async cancelSignIn(id: string): Promise<void> {
    this.requireAccounts().signIns.cancel(id);
  }

  async signOut(provider: string): Promise<void> {
    this.requireAccounts().signOut(provider);
  }

  /** Tells every page how a sign-in stands (main's accounts call this). */
  publishSignIn(state: SignInState): void {
    this.events.emit({ type: "sign-in", state });
  }

  private requireAccounts(): Accounts {
    if (!this.options.accounts) throw new Error("Accounts are not available here.");
    return this.options.accounts;
  }

  async takeNotices(): Promise<AppNotice[]> {
    return this.notices.splice(0, this.notices.length);
  }

  async searchMessages(query: string, limit: number): Promise<MessageSearchResult> {
    return this.options.search ? this.options.search.search(query, limit) : { hits: [], indexing: false };
  }

  /** The chat's transcript as its worker would load it (a reply streaming now shows as far as it has been saved). */
  async exportSession(id: string, format: ChatExportFormat): Promise<ChatExport> {
    const record = this.options.index.get(id);
    if (!record || record.deleted !== undefined) throw new Error("No such chat");
    const loaded = await loadTranscript(this.broker.transcriptFile(id));
    const model = loaded.model ?? record.model;
    const attachments = format === "json" ? await readAttachments(this.broker.sessionDir(id), loaded.messages) : undefined;
    return exportChat({ title: record.title, ...(model ? { model } : {}), messages: loaded.messages, ...(attachments ? { attachments } : {}) }, format);
  }

  /** The browser host has no save dialog (the desktop app answers this per window): the page downloads the export. */
  async saveSessionExport(_id: string, _format: ChatExportFormat): Promise<string | null> {
    throw new Error("There is no save dialog here: the page downloads the file instead.");
  }

  /** A new chat from a Paddock JSON export: checked whole first, so a bad file changes nothing. */
  async importSession(text: string): Promise<SessionSummary> {
    const chat = parseChatExport(text);
    const id = randomUUID();
    try {
      await writeImportedChat(this.broker.transcriptFile(id), this.broker.sessionDir(id), chat);
    } catch (error) {
      await this.removeChatFiles(id);
      throw error;
    }
    const now = Date.now();
    const summary = { id, title: chat.title, created: now, updated: now, messageCount: chat.messages.length, ...(chat.model ? { model: chat.model } : {}) };
    this.options.index.upsert(summary);
    return this.toPage(summary);
  }

  async saveMcpServer(server: McpServerConfig, secrets: Record<string, string>): Promise<Settings> {
    return this.requireMcpConfig().save(server, secrets);
  }

  async removeMcpServer(id: string): Promise<Settings> {
    return this.requireMcpConfig().remove(id);
  }

  async mcpSecretStatus(): Promise<McpSecretStatus[]> {
    return this.requireMcpConfig().secretStatus();
  }

  async importMcpServers(text: string): Promise<McpImportOutcome> {
    return this.requireMcpConfig().import(text);
  }

  async mcpStatus(): Promise<McpServerStatus[]> {
    return this.options.mcp?.status() ?? [];
  }

  async mcpRestart(id: string): Promise<McpServerStatus> {
    if (!this.options.mcp) throw new Error("MCP servers cannot run here");
    return this.options.mcp.restart(id);
  }

  async mcpPrompts(): Promise<McpPromptInfo[]> {
    return this.options.mcp?.prompts() ?? [];
  }

  async mcpGetPrompt(serverId: string, name: string, args: Record<string, string>): Promise<string> {
    if (!this.options.mcp) throw new Error("MCP servers cannot run here");
    return this.options.mcp.getPrompt(serverId, name, args);
  }

  async mcpResources(): Promise<McpResourceInfo[]> {
    return this.options.mcp?.resources() ?? [];
  }

  async mcpReadResource(serverId: string, uri: string): Promise<McpResourceContent> {
    if (!this.options.mcp) throw new Error("MCP servers cannot run here");
    return this.options.mcp.readResource(serverId, uri);
  }

  private requireMcpConfig(): McpConfig {
    if (!this.options.mcpConfig) throw new Error("MCP servers are not available here");
    return this.options.mcpConfig;
  }
}

/**
 * The folder a chat may work in, as the tools will see it (symlinks resolved), or a readable Error: it must be an
 * absolute path to an existing folder (`~` and `~/…` stand for `home`, the user's home folder), and not the root of
 * a file system (a whole disk is no workspace).
 */
export async function checkWorkspace(folder: string, home: string = homedir()): Promise<string> {
  const trimmed = expandHome(folder.trim(), home);
  if (!isAbsolute(trimmed)) throw new Error(`Give the folder's full path (it starts with ${process.platform === "win32" ? "a drive, like C:\\" : "/ or ~/"}): ${trimmed}`);
  let real: string;
  try {
    real = await realpath(trimmed);
  } catch {
    throw new Error(`There is no folder at ${trimmed}`);
  }
  if (!(await stat(real)).isDirectory()) throw new Error(`${trimmed} is a file, not a folder`);
  if (dirname(real) === real) throw new Error("The root of a disk cannot be a workspace: choose a project folder");
  return real;
}
