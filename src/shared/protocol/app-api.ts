/**
 * The app-level calls a page makes to main (through the preload bridge in Electron, or the web host's HTTP API in
 * `npm run dev:web`). Sessions' hot traffic does not go here: it flows page <-> worker on the session channel.
 * Every input is validated in main against the schemas in app-api-schema.ts.
 */
import type { ThinkingLevel } from "../agent/types";
import type { Settings, SettingsPatch } from "../settings/schema";

/** Which model, by provider id and model id (custom endpoints use provider `custom:<id>`). */
export interface ModelRef {
  provider: string;
  id: string;
}

export interface ModelOption extends ModelRef {
  name: string;
  reasoning: boolean;
  /** Thinking levels this model accepts ("off" always included). */
  thinkingLevels: ThinkingLevel[];
  contextWindow: number;
}

export interface SessionSummary {
  id: string;
  title: string;
  created: number;
  updated: number;
  model?: ModelRef;
  messageCount: number;
  /** Whether an agent run is in progress in this session right now. */
  running?: boolean;
}

export interface ProviderStatus {
  provider: string;
  /** Where the key comes from, if any; the key itself never reaches a page. */
  keySource: "settings" | "environment" | "none";
}

export interface AppNotice {
  id: number;
  level: "info" | "warning" | "error";
  text: string;
}

export interface AppApi {
  listSessions(): Promise<SessionSummary[]>;
  createSession(): Promise<SessionSummary>;
  renameSession(id: string, title: string): Promise<void>;
  /** Soft delete; `restoreSession` within the undo window brings it back. */
  deleteSession(id: string): Promise<void>;
  restoreSession(id: string): Promise<void>;
  /** Shows the session in this window, or in a new window. */
  openSession(id: string, where: "this-window" | "new-window"): Promise<void>;
  getSettings(): Promise<Settings>;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  /** Stores (or, with null, removes) a provider's API key in main's encrypted store. */
  setApiKey(provider: string, key: string | null): Promise<void>;
  providerStatus(): Promise<ProviderStatus[]>;
  listModels(): Promise<ModelOption[]>;
  /** Notices from main (e.g. "settings file was corrupt, defaults restored"), each delivered once. */
  takeNotices(): Promise<AppNotice[]>;
}
