/**
 * The app-level calls a page makes to main (through the preload bridge in Electron, or the web host's HTTP API in
 * `npm run dev:web`). Sessions' hot traffic does not go here: it flows page <-> worker on the session channel.
 * Every input is validated in main against the schemas in app-api-schema.ts.
 */
import type { ThinkingLevel } from "../agent/types";
import type { Settings, SettingsPatch } from "../settings/schema";
import type { SessionSummary } from "./session-summary";
import type { EndpointProbeRequest, EndpointProbeResult } from "./endpoint-probe";
import type { McpStatusApi, McpStatusEvent } from "./mcp-status";
import type { McpConfigApi } from "../mcp/config-api";
import type { PiModelsFileStatus, ProviderModelList } from "./model-lists";
import type { SkillsOverview } from "./skills";
import type { AccountInfo, SignInState } from "./accounts";
import type { CloudProviderChange, CloudStatus } from "../providers/cloud-settings";
import type { CheckpointStorageStatus } from "./checkpoint-storage";
import type { WorktreeApi } from "./worktrees";
import type { ChatDraft, DraftEvent } from "./drafts";
import type { Schedule, ScheduleRun, ScheduleView } from "../schedules/schedule";
import type { MonthSpend } from "../agent/budget";

/** A chat as pages see it (declared, with the index file's schema, in session-summary.ts). */
export type { SessionSummary };

/**
 * A workspace main would not set without the user insisting (main/broker/workspace-guard.ts): the folder (its real
 * path, to pass back with `insist`) and why, in words.
 */
export interface WorkspaceRefusal {
  refused: { folder: string; reason: string };
}

/** Which model, by provider id and model id (custom endpoints use provider `custom:<id>`). */
export interface ModelRef {
  provider: string;
  id: string;
}

export interface ModelOption extends ModelRef {
  name: string;
  /** A custom endpoint's own name (settings hold it); absent for pi-ai's providers, which `providerDisplayName` names. */
  providerName?: string;
  reasoning: boolean;
  /** Thinking levels this model accepts ("off" always included). */
  thinkingLevels: ThinkingLevel[];
  contextWindow: number;
  /**
   * Where a model beyond pi-ai's catalogue comes from: "added" by the user to a built-in provider (its limits are
   * editable in Settings), or pi's `models.json` ("pi", read-only). Absent for the catalogue's and custom endpoints'.
   */
  origin?: "added" | "pi";
  /** Whether it reads images. */
  images?: boolean;
  /** Its output limit in tokens. */
  maxTokens?: number;
}

/** What a session's agent is doing right now: working, waiting for the user (a tool approval), or nothing. */
export type SessionActivity = "running" | "waiting" | "idle";

/** Why a chat wants the user: its run finished or failed, or it waits for an answer. */
export type AttentionReason = "done" | "failed" | "waiting";

/**
 * What main pushes to every page (Electron: an IPC channel; the browser host: its events WebSocket). Pages never
 * poll for these.
 */
export type AppEvent =
  /** A chat was created or changed: title, message count, activity, unread. */
  | { type: "session"; session: SessionSummary }
  /** A chat was deleted (or purged); `restoreSession` within the undo window sends it again as "session". */
  | { type: "session-removed"; id: string }
  /** A chat's run needs the user's attention; the page decides whether to notify (it knows what it shows). */
  | { type: "attention"; sessionId: string; title: string; reason: AttentionReason }
  /** An MCP server's status changed (mcp-status.ts): the whole list. */
  | McpStatusEvent
  /** An account sign-in moved on (accounts.ts): a page to open, a code, a question, its end. */
  | { type: "sign-in"; state: SignInState }
  /** A chat's draft was saved (drafts.ts): every window showing the chat follows the last edit. */
  | DraftEvent
  /** A schedule, or what it ran, changed (shared/schedules): the whole list, as `listSchedules` answers. */
  | { type: "schedules"; schedules: ScheduleView[] }
  /** This month's spending changed, or the month turned (Settings → Budgets follows it). */
  | { type: "monthly-spend"; spend: MonthSpend }
  /**
   * What `searchMessages` answers may have changed (main's index gained or dropped messages, a chat was deleted or
   * restored, its reading finished): open search results ask again. Told at most about every quarter second.
   */
  | { type: "search-index" };

export interface ProviderStatus {
  provider: string;
  /** Where the key comes from, if any ("pi": pi's `models.json`); the key itself never reaches a page. */
  keySource: "settings" | "environment" | "pi" | "none";
  /** Custom endpoints: the only address (origin: scheme, host, port) their key is sent to, from their base URL. */
  origin?: string;
  /**
   * Custom endpoints: a key is saved, but for this other origin (the endpoint's address changed since). It is not
   * sent to the new address; entering a key replaces it, moving the endpoint back makes it usable again.
   */
  keySavedFor?: string;
  /** Providers with an account sign-in (pi-ai's OAuth logins): the sign-in and whether an account is signed in. */
  account?: AccountInfo;
  /** Amazon Bedrock, Google Vertex AI, Azure OpenAI: their fields beyond a key (cloud-settings.ts). */
  cloud?: CloudStatus;
  /** `keySource` is "settings" for a signed-in account or the cloud fields, not a saved key (so there is none to remove). */
  setUpBy?: "account" | "cloud";
}

export interface AppNotice {
  id: number;
  level: "info" | "warning" | "error";
  text: string;
}

/** The worktree calls (worktrees.ts) are declared there, with their data. */
export interface AppApi extends McpStatusApi, McpConfigApi, WorktreeApi {
  listSessions(): Promise<SessionSummary[]>;
  createSession(): Promise<SessionSummary>;
  renameSession(id: string, title: string): Promise<void>;
  /** Soft delete; `restoreSession` within the undo window brings it back. */
  deleteSession(id: string): Promise<void>;
  restoreSession(id: string): Promise<void>;
  /**
   * Retry for a chat whose agent process kept crashing right after it started (WORKER_KEEPS_CRASHING): main starts
   * one again at the chat's next connection, its count of crashes afresh.
   */
  retrySessionWorker(id: string): Promise<void>;
  /** Shows the session in this window, or in a new window. */
  openSession(id: string, where: "this-window" | "new-window"): Promise<void>;
  /**
   * Gives the chat a workspace folder (an absolute path to an existing folder, checked by main), or none (null).
   * The chat's agent gets file and shell tools for it from its next step on. The home folder itself, or a folder
   * holding Paddock's data folder, is not set but answered with a `WorkspaceRefusal` saying why, unless `insist`
   * (the user read the reason and chose "Use this folder anyway"). Other bad folders reject with a readable Error.
   */
  setWorkspace(id: string, folder: string | null, insist?: boolean): Promise<SessionSummary | WorkspaceRefusal>;
  /**
   * The desktop app: main shows the system's folder dialog (never the page) and sets the chosen folder as the chat's
   * workspace (or answers its refusal, as setWorkspace); resolves null when the user cancels. The browser host has
   * no such dialog: it rejects, and the page asks for a typed path instead.
   */
  pickWorkspace(id: string): Promise<SessionSummary | WorkspaceRefusal | null>;
  getSettings(): Promise<Settings>;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  /**
   * Stores (or, with null, removes) a provider's API key in main's encrypted store. A custom endpoint's key
   * (`custom:<id>`) is bound to the origin of the endpoint's current base URL and is never sent anywhere else.
   */
  setApiKey(provider: string, key: string | null): Promise<void>;
  /** Key status of pi-ai's providers, then of each custom endpoint (`custom:<id>`, with `origin`/`keySavedFor`). */
  providerStatus(): Promise<ProviderStatus[]>;
  listModels(): Promise<ModelOption[]>;
  /**
   * "Test connection": main asks the endpoint for its models (`<base>/models`, else Ollama's `/api/tags`) within a
   * few seconds and says what happened in words. Never rejects for the server's sake (only for malformed arguments);
   * a key goes only to `baseUrl`'s origin (endpoint-probe.ts).
   */
  probeEndpoint(request: EndpointProbeRequest): Promise<EndpointProbeResult>;
  /** Notices from main (e.g. "settings file was corrupt, defaults restored"), each delivered once. */
  takeNotices(): Promise<AppNotice[]>;
  /** The agents a chat's `subagent` tool can use (user level; a project's are listed by the tool), and where they live. */
  listAgents(): Promise<AgentOverview>;
  /**
   * The desktop app: opens one of the agents folders in the system's file manager (creating Paddock's). The browser
   * host cannot: it rejects, and the page shows the path instead.
   */
  openAgentsFolder(which: "paddock" | "pi"): Promise<void>;
  /** The folder of Paddock's log file (`<data>/logs`: main's, the workers' and the MCP host's output); null: none kept. */
  logsFolder(): Promise<string | null>;
  /** "Open logs": the desktop app shows the logs folder in the system's file manager; the browser host rejects (the page shows the path). */
  openLogsFolder(): Promise<void>;
  /**
   * This month's spending across all chats (main/broker/monthly-spend.ts): dollars from the models' pricing, and the
   * tokens of replies at a cost unknown; then the `monthly-spend` event as it changes.
   */
  getMonthlySpend(): Promise<MonthSpend>;
  /**
   * Messages of every live chat that hold all the query's words (the last also as a word's start, while typed),
   * best first, with a snippet each. Main's index follows the transcripts as messages land.
   */
  searchMessages(query: string, limit: number): Promise<MessageSearchResult>;
  /** The chat as a file: Markdown to read, or JSON (its messages) that `importSession` takes back. */
  exportSession(id: string, format: ChatExportFormat): Promise<ChatExport>;
  /**
   * The desktop app: main asks where to save (the system's save dialog) and writes the export there; resolves the
   * path, or null when the user cancels. The browser host has no such dialog: it rejects, and the page downloads
   * `exportSession`'s file instead.
   */
  saveSessionExport(id: string, format: ChatExportFormat): Promise<string | null>;
  /**
   * A new chat from a Paddock JSON export (`exportSession(id, "json")`'s text). A file that is not one is refused
   * with a readable Error, and nothing changes.
   */
  importSession(text: string): Promise<SessionSummary>;
  /**
   * "Refresh models": main asks the built-in provider for the models it serves (OpenAI-compatible and Mistral
   * `GET <base>/models`, Anthropic's `GET /v1/models`, Google's `GET /v1beta/models`) with the user's key, within
   * MODEL_LIST_TIMEOUT_MS, and marks those pi-ai's catalogue lacks. Never rejects for the provider's sake (only for
   * malformed arguments): failures are said in `message`. The key goes only to the provider's own address.
   */
  refreshModels(provider: string): Promise<ProviderModelList>;
  /** pi's `models.json`: read again now, and what came of it (its problems in words, never a key). */
  piModelsFile(): Promise<PiModelsFileStatus>;
  /** The checkpoint store (every chat's): its size now, Settings' limit, and what main last dropped to stay under it. */
  checkpointStorage(): Promise<CheckpointStorageStatus>;
  /**
   * "Clear all checkpoints": every chat's checkpoints go, except the latest of a chat whose agent runs now (the state
   * it works from); resolves the store's status after. Chats and their messages are untouched.
   */
  clearCheckpoints(): Promise<CheckpointStorageStatus>;
  /**
   * The skills and prompt templates on offer (main/skills/), where each comes from, and the files skipped and why.
   * With a chat, its workspace's too: those the user agreed to, and how many wait for the user's agreement.
   */
  listSkills(sessionId: string | null): Promise<SkillsOverview>;
  /**
   * The user agrees to the chat's workspace's skills and prompt templates as they are now (a changed file asks
   * again); the chat's agent is told of the skills from its next step. Resolves how many files were agreed to.
   */
  confirmProjectSkills(sessionId: string): Promise<number>;
  /**
   * Saves a cloud provider's fields beyond its key (Bedrock, Vertex, Azure; cloud-settings.ts): non-secret ones in
   * settings, secret ones (null or "": remove) in main's secret store. A bad value, or a Vertex credentials file that
   * is not a regular JSON key file, rejects with every problem in words and saves nothing.
   */
  setCloudProvider(provider: string, change: CloudProviderChange): Promise<void>;
  /**
   * Starts signing in to `provider`'s account (its OAuth login) in main, cancelling one in progress; the flow's
   * states follow as `sign-in` events. Main opens the sign-in page in the system browser where it can.
   */
  startSignIn(provider: string): Promise<SignInState>;
  /** Answers the question sign-in `id` waits on (a typed value, a choice's id, a pasted code or address). */
  answerSignIn(id: string, answer: string): Promise<void>;
  cancelSignIn(id: string): Promise<void>;
  /** Forgets the provider's signed-in account (its tokens). */
  signOut(provider: string): Promise<void>;
  /**
   * The chat's draft (drafts.ts): what was typed and attached in its message box and not sent. Empty when there is
   * none, and when its file cannot be read (never rejects for that; only for a chat that does not exist).
   */
  getDraft(sessionId: string): Promise<ChatDraft>;
  /**
   * Keeps the chat's draft (empty: none) in its folder, atomically, and tells every page (a `draft` event, with
   * `writer`: the saving page's own id, DRAFT_WRITER_PATTERN). Resolves with the save's revision (drafts.ts,
   * DraftEvent). Rejects with a readable Error, keeping the draft saved before, when the text is too long or a file is
   * not stored in the chat (the session's `putAttachment`).
   */
  saveDraft(sessionId: string, draft: ChatDraft, writer?: string): Promise<number>;
  /**
   * "Allowed in this project": with a chat, its workspace's grants (its folder by real path; no projects without a
   * workspace); with null, every project's (Settings). Each grant exactly as it applies.
   */
  projectGrants(sessionId: string | null): Promise<ProjectGrants>;
  /**
   * Removes one grant of a project (`folder` as `projectGrants` gave it); every chat working there asks again from
   * its next call. Resolves whether it was there.
   */
  removeProjectGrant(folder: string, grant: string): Promise<boolean>;
  /** Every schedule with its last runs (newest first) and next occurrence (shared/schedules/schedule.ts). */
  listSchedules(): Promise<ScheduleView[]>;
  /**
   * Adds a schedule or replaces the one of its id (its runs kept); rejects with the reason for an invalid one (a bad
   * cron expression, a workspace that is not a folder), changing nothing. Answers it as listed.
   */
  saveSchedule(schedule: Schedule): Promise<ScheduleView>;
  /**
   * Turns a schedule on or off (the list's switch), changing nothing else (its workspace is not checked again, so a
   * schedule whose folder went away can still be paused): off, it is disarmed at once and has no next run; on, it
   * counts from now. Answers it as listed; rejects when there is no such schedule.
   */
  setScheduleEnabled(id: string, enabled: boolean): Promise<ScheduleView>;
  /** Removes a schedule (a run of it going on goes on); resolves whether it was there. */
  deleteSchedule(id: string): Promise<boolean>;
  /** Runs a schedule now, in the background; answers its run's record (skipped, "still running", while one goes on). */
  runScheduleNow(id: string): Promise<ScheduleRun>;
}

/** What projects allow without asking (`projectGrants`). */
export interface ProjectGrants {
  projects: {
    /** The workspace folder's real path. */
    folder: string;
    grants: {
      /** The grant itself (grant-format.ts), which `removeProjectGrant` takes. */
      grant: string;
      kind: "tool" | "command" | "network";
      /** Exactly what it allows: the tool's name, the whole command, the host. */
      label: string;
    }[];
  }[];
}

/** A message that matches a search across chats (`searchMessages`). */
export interface MessageHit {
  sessionId: string;
  /** The chat's title when searched. */
  title: string;
  /** The message's number in the chat (its row key in the page is `m<index>`). */
  messageIndex: number;
  /** Who said it; "toolResult": a tool's output (the page shows it in the tool card of the call, opened). */
  role: "user" | "assistant" | "toolResult";
  /** The tool whose output matched (role "toolResult"). */
  toolName?: string;
  /** About a line of the message around the first match, whitespace collapsed. */
  snippet: string;
  /** [start, end) of each matching word in `snippet`. */
  ranges: [number, number][];
}

export interface MessageSearchResult {
  /** Best first, at most a few from one chat. */
  hits: MessageHit[];
  /** Main is still reading chats into its index (just after start): more may match in a moment. */
  indexing: boolean;
}

/** What a chat export is: a Markdown page to read, or the JSON Paddock imports back (`importSession`). */
export type ChatExportFormat = "markdown" | "json";

export interface ChatExport {
  /** A file name from the chat's title, with the format's extension. */
  fileName: string;
  mimeType: string;
  text: string;
}

export interface AgentOverview {
  agents: { name: string; description: string; source: "builtin" | "user" | "pi-user" | "project"; tools: string[]; model?: string; filePath?: string }[];
  /** Paddock's own agents folder, and pi's (`~/.pi/agent/agents`). */
  folders: { paddock: string; pi: string };
  /** Files that could not be used, in words. */
  problems: string[];
}
