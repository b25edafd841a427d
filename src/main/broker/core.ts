/**
 * Paddock's core, assembled once for both hosts (the Electron app and the browser host) and for the tests: settings,
 * secrets, session index, broker and app service over one data folder, wired with the same closures. A host adds
 * only what is its own: how workers are launched, how pages reach them, windows or HTTP.
 */
import { PROJECT_GRANTS_FILE, ProjectGrants } from "./project-grants";
import { existsSync, renameSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { skillCatalog } from "../skills/skill-catalog";
import { agentCatalog } from "../agents/agent-catalog";
import { AppService, toWorkerSettings } from "./app-service";
import { MONTHLY_SPEND_FILE, MonthlySpend } from "./monthly-spend";
import { keepDataFolderPrivate } from "./data-folder-modes";
import { keyOrigin, workerApiKey } from "./endpoint-keys";
import { ModelDirectory } from "./model-directory";
import { catalogProviders } from "./model-catalog";
import { PiModelsSource } from "./pi-models-file";
import { piAgentFolder } from "../../shared-node/pi-agent-folder";
import { SecretStore, type Cipher } from "./secrets";
import { SessionBroker, type SessionTransportKind } from "./session-broker";
import { SessionIndex } from "./session-index";
import { recordedLaunch, storedLaunch } from "./child-launch";
import { MessageSearch } from "./search-service";
import { legacyMcpSecretBinding, McpConfig } from "./mcp-config";
import { McpSupervisor } from "../mcp/mcp-supervisor";
import { SettingsStore, type SettingsBackendFactory } from "./settings-store";
import type { WorkerLauncher } from "./worker-process";
import { Accounts } from "../accounts/accounts";
import { SessionWorktrees } from "./session-worktrees";
import type { OAuthFlows } from "../accounts/oauth-providers";
import { CheckpointUpkeep, type CheckpointUpkeepOptions } from "../checkpoints/checkpoint-upkeep";
import type { MaintenanceRunner } from "../checkpoints/maintenance-ops";
import { errorText } from "../../shared/error-text";
import { checkpointsRoot } from "../../shared-node/checkpoints/maintenance";
import type { AppLog } from "../logs/app-log";
import { environmentSecrets, logRedactor } from "../logs/log-redaction";
import { SCHEDULES_FILE, ScheduleStore } from "../schedules/schedule-store";
import { Scheduler, type SchedulerClock } from "../schedules/scheduler";
import { scheduleRunner } from "../schedules/schedule-runner";

/** Where Paddock keeps its files inside its data folder (Electron's userData, or the web host's --data-dir). */
export interface DataFiles {
  /** Folder of `settings.json`. */
  settingsDir: string;
  secretsFile: string;
  /** Folder of the sessions' transcripts (`<id>.jsonl`). */
  sessionsDir: string;
  sessionIndexFile: string;
  /** The search index (derived from the transcripts; rebuilt when missing or damaged). */
  searchIndexFile: string;
  /**
   * V8's compile cache for the worker and MCP host processes (their launchers name it to them): code they run, so
   * in a folder only the user may write, never the system's shared temp folder.
   */
  compileCacheDir: string;
  /**
   * Isolated subagent tasks' git worktrees (`isolation: worktree`): next to the data folder, not in it, because the
   * file tools and the sandbox keep out of the data folder, and an agent must work in its worktree; never in the
   * user's tree either (shared-node/git-worktrees).
   */
  worktreesDir: string;
  /** Paddock's log file and its rotated predecessors (main/logs/app-log.ts): what a packaged app's stdout would be. */
  logsDir: string;
}

export function dataFiles(dataDir: string): DataFiles {
  const sessionsDir = join(dataDir, "sessions");
  return {
    settingsDir: dataDir,
    secretsFile: join(dataDir, "secrets.json"),
    sessionsDir,
    sessionIndexFile: join(sessionsDir, "index.json"),
    searchIndexFile: join(sessionsDir, "search-index.bin"),
    compileCacheDir: join(dataDir, "compile-cache"),
    worktreesDir: join(dirname(resolve(dataDir)), `${basename(resolve(dataDir))}-worktrees`),
    logsDir: join(dataDir, "logs"),
  };
}

/** Where the browser host kept its session index before both hosts shared one layout. */
const LEGACY_WEB_INDEX = "session-index.json";

export interface CoreOptions<Port> {
  dataDir: string;
  launcher: WorkerLauncher<Port>;
  /** Starts the MCP host process (out/main/mcp-host.js) like a worker; absent: no MCP servers run in this host. */
  mcpLauncher?: WorkerLauncher<unknown>;
  sessionTransport: SessionTransportKind;
  /** How API keys are encrypted at rest (safeStorage in the app). */
  cipher: Cipher;
  /** What persists the settings file: electron-store in the app; Conf (which it extends) otherwise. */
  storeFactory?: SettingsBackendFactory;
  /**
   * The user's home folder: where pi's user folder is looked for (`<home>/.pi/agent`, see piAgentFolder), and a
   * workspace refused unless the user insists; default `os.homedir()`.
   */
  homeDir?: string;
  /** The environment pi's settings are read from (`PI_CODING_AGENT_DIR` moves pi's user folder); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Workers attach a state digest to every batch (diagnostics, tests). */
  integrityCheck?: boolean;
  keepSpare?: boolean;
  /** Adjusts settings once at start, before anything reads them (the web host registers its loopback model). */
  prepareSettings?(settings: SettingsStore): void;
  /** Opens a folder in the system's file manager (Electron's shell.openPath); absent where the host cannot. */
  openFolder?(path: string): Promise<void>;
  /** The host's answer to a page's `openSession` (open a window, or just check the chat exists). */
  openSession(id: string, where: "this-window" | "new-window"): Promise<void>;
  /**
   * Opens a web address in the system browser (the desktop app: Electron's shell, through the external-link rule);
   * absent where the host cannot (the browser host: the page shows the address as a link).
   */
  openExternal?(url: string): void;
  /** The account sign-in flows; default pi-ai's. Tests and the e2e host give stand-ins that follow pi-ai's contract. */
  oauthFlows?: () => OAuthFlows;
  /** Where the checkpoint store's clean-up runs (the app: a worker thread); default main's own thread, after each call. */
  checkpointRunner?: MaintenanceRunner;
  /**
   * The log file the host opened on `dataFiles(dataDir).logsDir` (its launchers copy workers' output there): the core
   * has it redact the saved keys, tells the user once when it cannot be written, and offers its folder in Settings.
   */
  log?: AppLog;
  /** The schedules' clock and the time zone their local times are in; default the system's (tests move a fake one). */
  schedules?: { clock?: SchedulerClock; timeZone?: () => string };
  /** Tests shorten these: the undo window of a deleted chat, and the checkpoint clean-up's grace, debounce and start delay. */
  timing?: { undoWindowMs?: number } & Pick<CheckpointUpkeepOptions, "graceMs" | "debounceMs" | "startDelayMs">;
}

export interface Core<Port> {
  files: DataFiles;
  settings: SettingsStore;
  secrets: SecretStore;
  index: SessionIndex;
  broker: SessionBroker<Port>;
  service: AppService<Port>;
  search: MessageSearch;
  /** Signed-in accounts and cloud providers' fields (main/accounts). */
  accounts: Accounts;
  /** The checkpoint store's clean-up (main/checkpoints). */
  checkpoints: CheckpointUpkeep;
  /** Schedules, run while this host runs (main/schedules). */
  schedules: Scheduler;
  /** MCP server configs; `resolveServerConfig(id)` gives the MCP runtime a server with its secrets. */
  mcpConfig: McpConfig;
  /** The MCP runtime: the host process, the servers' status, chats' calls (absent without `mcpLauncher`). */
  mcp?: McpSupervisor;
  /**
   * How many agents are working or waiting for the user, when Settings say to ask before stopping them by quitting
   * (`abort.confirmCloseWhileRunning`); 0 when there is nothing to ask.
   */
  agentsToConfirm(): number;
  /**
   * Quitting: stops every worker (each aborts its run and journals it) and writes the session index. Resolves within
   * about five seconds whatever the workers do.
   */
  shutdown(): Promise<void>;
  /**
   * Writes what main holds in memory and would write later (the session index, the search index) now, stopping
   * nothing: the system may end the process next (Windows' session end, a shutdown). Rejects if the index could not
   * be written.
   */
  savePending(): Promise<void>;
}

export async function createCore<Port = never>(options: CoreOptions<Port>): Promise<Core<Port>> {
  const files = dataFiles(options.dataDir);
  // The user's alone (data-folder-modes.ts): created so, and what older versions left made so, before anything is read.
  await mkdir(files.sessionsDir, { recursive: true, mode: 0o700 });
  keepDataFolderPrivate(options.dataDir, [files.sessionsDir]);
  // Before any launch: a worker uses the folder only if it exists, is the user's, and nobody else may write it.
  await mkdir(files.compileCacheDir, { recursive: true, mode: 0o700 });
  // The checkpoint store (copies of workspaces' files, written by workers): the user's alone whatever their umask.
  await mkdir(checkpointsRoot(options.dataDir), { recursive: true, mode: 0o700 });
  adoptLegacyIndex(options.dataDir, files.sessionIndexFile);
  const settings = SettingsStore.open({ cwd: files.settingsDir, storeFactory: options.storeFactory });
  options.prepareSettings?.(settings);
  const endpoints = () => settings.get().customProviders;
  const secrets = SecretStore.open(files.secretsFile, options.cipher, {
    originOf: (key) => legacyMcpSecretBinding(key, settings.get().mcpServers) ?? keyOrigin(key, undefined, endpoints()),
  });
  const index = await SessionIndex.open(files.sessionIndexFile);
  options.log?.redactWith(logRedactor(knownSecrets(secrets, options.env ?? process.env)));
  const { grants: projectGrants, notice: projectGrantsNotice } = await ProjectGrants.open(join(options.dataDir, PROJECT_GRANTS_FILE));
  const monthlySpend = new MonthlySpend(join(options.dataDir, MONTHLY_SPEND_FILE));
  const piModels = new PiModelsSource(join(piAgentFolder({ homeDir: options.homeDir, env: options.env }), "models.json"), {
    isBuiltIn: (id) => catalogProviders().includes(id),
  });
  // Read before the first worker asks for a model; every model list reads it again, as pi's picker does.
  await piModels.reload();
  // The service is built below; sign-in states and notices reach it once it is there (no flow starts before).
  const accounts: Accounts = new Accounts({
    settings,
    secrets,
    onSignInState: (state) => service.publishSignIn(state),
    notify: (text) => service.notify("warning", text),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...(options.oauthFlows ? { flows: options.oauthFlows } : {}),
  });
  void accounts.warmUp();
  // A signed-in account or a cloud provider's fields make a built-in provider usable as a key does.
  const models = new ModelDirectory({ settings, secrets, piModels, configured: (provider) => accounts.configured(provider) });
  const agents = agentCatalog({
    dataDir: options.dataDir,
    homeDir: options.homeDir,
    env: options.env,
    confirmations: { list: () => settings.get().confirmedProjectAgents, add: (hashes) => void settings.confirmProjectAgents(hashes) },
  });
  const skills = skillCatalog({
    dataDir: options.dataDir,
    homeDir: options.homeDir,
    confirmations: { list: () => settings.get().confirmedProjectSkills ?? [], add: (hashes) => void settings.confirmProjectSkills(hashes) },
  });
  // The servers are read when the supervisor configures the host (after mcpConfig exists, below).
  const mcp = options.mcpLauncher
    ? new McpSupervisor({
        launcher: options.mcpLauncher,
        servers: () => mcpConfig.servers().flatMap((s) => mcpConfig.resolveServerConfig(s.id) ?? []),
      })
    : undefined;
  const broker = new SessionBroker<Port>({
    launcher: options.launcher,
    sessionsDir: files.sessionsDir,
    privateDir: options.dataDir,
    sessionTransport: options.sessionTransport,
    getApiKey: (provider, sentTo) =>
      accounts.workerKey(provider, () => workerApiKey(provider, sentTo, secrets, endpoints()) ?? models.fileKey(provider, sentTo)),
    getProviderConfig: (provider, modelId) => accounts.requestConfig(provider, modelId),
    resolveModel: (ref) => accounts.requestModel(models.resolve(ref)),
    workspaceOf: (id) => index.get(id)?.workspace,
    worktreeOf: (id) => index.get(id)?.worktree,
    getWorkerSettings: () => toWorkerSettings(settings.get(), monthlySpend.refusal(settings.get().budgets.monthlyCapUsd)),
    idleGraceMs: () => settings.get().background.idleStopMinutes * 60_000,
    integrityCheck: options.integrityCheck,
    keepSpare: options.keepSpare,
    agents,
    skills,
    maxSubagents: () => settings.get().tools.maxSubagents,
    worktreesDir: files.worktreesDir,
    projectGrants,
    ...(mcp ? { mcp } : {}),
    onChildSession: (child) => {
      const now = Date.now();
      index.upsert({
        id: child.sessionId,
        title: `${child.agent} (subagent)`,
        created: now,
        updated: now,
        messageCount: 0,
        ...(child.model ? { model: child.model } : {}),
        ...(child.workspace ? { workspace: child.workspace } : {}),
        parent: { sessionId: child.parentSessionId, toolCallId: child.toolCallId, agent: child.agent },
        launch: storedLaunch(child.launch),
      });
    },
    // The index is where a child's launch lives (child-launch.ts says why): after a restart too.
    childLaunchOf: (id) => recordedLaunch(index.get(id)),
  });
  const search = new MessageSearch({
    file: files.searchIndexFile,
    sessions: index,
    transcriptFile: (id) => broker.transcriptFile(id),
    onBrokerEvent: (listener) => broker.onEvent(listener),
  });
  const mcpConfig = new McpConfig(settings, secrets);
  mcpConfig.onChange(() => void mcp?.reconfigure());
  void mcp?.reconfigure();
  const { undoWindowMs, ...upkeepTiming } = options.timing ?? {};
  const checkpoints = new CheckpointUpkeep({
    dataDir: options.dataDir,
    limitBytes: () => settings.get().checkpoints.storageLimitMB * 1024 * 1024,
    liveSessions: () => broker.openSessionIds(),
    chatOf: (session) => topChat(index, session),
    notify: (text) => service.notify("warning", text),
    ...(options.checkpointRunner ? { runner: options.checkpointRunner } : {}),
    ...upkeepTiming,
  });
  // The limit is checked at start, a while after a run ends (the run's checkpoints are in), and when it is lowered.
  broker.onEvent((event) => {
    if (event.type === "activity" && event.activity === "idle" && event.outcome) checkpoints.scheduleLimit();
  });
  let limit = settings.get().checkpoints.storageLimitMB;
  settings.subscribe((next) => {
    if (next.checkpoints.storageLimitMB < limit) checkpoints.scheduleLimit(0);
    limit = next.checkpoints.storageLimitMB;
  });
  const worktrees = new SessionWorktrees({ index, worktreesDir: files.worktreesDir });
  const service = new AppService<Port>({
    worktrees,
    settings,
    secrets,
    index,
    broker,
    openSession: options.openSession,
    agents,
    skills,
    search,
    mcpConfig,
    guardedPlaces: { home: options.homeDir ?? homedir(), dataDir: options.dataDir },
    models,
    accounts,
    checkpoints,
    projectGrants,
    monthlySpend,
    ...(undoWindowMs !== undefined ? { undoWindowMs } : {}),
    ...(mcp ? { mcp } : {}),
    ...(options.openFolder ? { openFolder: options.openFolder } : {}),
    logsFolder: files.logsDir,
  });
  options.log?.onProblem((text) => service.notify("warning", text));
  const scheduleStore = new ScheduleStore(join(options.dataDir, SCHEDULES_FILE));
  for (const notice of scheduleStore.notices) service.notify("warning", notice.text);
  const schedules = new Scheduler({
    store: scheduleStore,
    run: scheduleRunner({ service, broker, index }),
    ...(options.schedules?.clock ? { clock: options.schedules.clock } : {}),
    ...(options.schedules?.timeZone ? { timeZone: options.schedules.timeZone } : {}),
    onWriteError: (error) => service.notify("warning", `Could not save the schedules: ${errorText(error)}`),
  });
  service.useSchedules(schedules);
  if (projectGrantsNotice) service.notify("warning", projectGrantsNotice.text);
  for (const notice of monthlySpend.notices) service.notify("warning", notice.text);
  // Every session's reports (subagents' too) carry what its replies cost: the month's total.
  broker.onEvent((event) => {
    if (event.type === "status") monthlySpend.report(event.status);
  });
  // Chats deleted before Paddock last quit, their undo window long over, go now; then the limit's first check.
  void service.purgeDeleted().catch((error) => service.notify("warning", `Could not remove a deleted chat's files: ${errorText(error)}`));
  checkpoints.start();
  schedules.start();
  // Paddock's worktrees that no chat or task uses any more (a crash's leftovers) end with their branch kept.
  void worktrees.pruneLeftovers().then((said) => said.forEach((text) => service.notify("info", text)));
  let shuttingDown: Promise<void> | undefined;
  return {
    files,
    settings,
    secrets,
    index,
    broker,
    service,
    search,
    accounts,
    checkpoints,
    schedules,
    mcpConfig,
    ...(mcp ? { mcp } : {}),
    agentsToConfirm: () => (settings.get().abort.confirmCloseWhileRunning ? broker.busySessionIds().length : 0),
    shutdown: () =>
      (shuttingDown ??= (async () => {
        // Workers report their last status as they stop: the index is written after that.
        accounts.signIns.dispose();
        service.dispose();
        // Before the workers stop: a run the quit ends is recorded at the next start as stopped by it.
        await schedules.dispose();
        await Promise.all([broker.dispose(), mcp?.dispose(), checkpoints.dispose()]);
        await index.flush().catch(() => undefined);
        await search.dispose();
        await options.log?.flush();
      })()),
    savePending: async () => {
      await Promise.all([index.flush(), search.flush()]);
    },
  };
}

/**
 * The secrets a log line must not show, for the redactor: the saved keys and the environment's secret-looking
 * values. Read again at most every few seconds (a saved key is decrypted to be known), so keys saved since are hidden.
 */
function knownSecrets(secrets: SecretStore, env: NodeJS.ProcessEnv): () => string[] {
  const fromEnvironment = environmentSecrets(env);
  let cached: { at: number; values: string[] } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > 5_000) {
      const saved = secrets.providers().flatMap((provider) => secrets.get(provider, secrets.boundOrigin(provider)) ?? []);
      cached = { at: now, values: [...saved, ...fromEnvironment] };
    }
    return cached.values;
  };
}

/** The chat a session belongs to: a subagent's parent chat (and its parent's, up), else the session itself. */
function topChat(index: SessionIndex, session: string): string {
  let id = session;
  for (let depth = 0; depth < 10; depth++) {
    const parent = index.get(id)?.parent?.sessionId;
    if (parent === undefined) return id;
    id = parent;
  }
  return id;
}

/** The browser host's old index at `<data>/session-index.json` moves to the shared place, unless one is there. */
function adoptLegacyIndex(dataDir: string, indexFile: string): void {
  const legacy = join(dataDir, LEGACY_WEB_INDEX);
  if (existsSync(legacy) && !existsSync(indexFile)) renameSync(legacy, indexFile);
}
