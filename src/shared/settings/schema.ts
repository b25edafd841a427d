/**
 * Paddock's settings: the one schema for the settings file, the page's changes to it, and the migrations that read
 * older files. Pure data and functions (no Node, DOM or Electron), shared by main, the web host and the renderer.
 *
 * API keys are not settings: they live in main's encrypted secret store and never appear here.
 */
import { Type, type Static } from "typebox";
import { MIGRATIONS } from "./migrations";
import { THINKING_LEVELS } from "../agent/types";
import { MAX_RETRY_ATTEMPTS, MAX_RETRY_WAIT_SECONDS, MIN_REQUEST_TIMEOUT_MS } from "./limits";
import { schemaErrors } from "../schema-errors";
import { MAX_INSTRUCTIONS_CHARS } from "../protocol/chat-options";
import { PERMISSION_PROFILES } from "../protocol/permission-profiles";
import { MAX_MCP_SERVERS, McpServerConfigSchema } from "../mcp/server-config";
import { mcpServersRuleErrors } from "../mcp/server-fields";
import { isRecord } from "../is-record";
import { KeyedRecord } from "../keyed-record";
import { CloudProvidersSettingsSchema } from "../providers/cloud-settings";
import { MAX_BUDGET_MINUTES, MAX_BUDGET_TOKENS, MAX_BUDGET_TOOL_CALLS, MAX_BUDGET_USD } from "../agent/budget";

export const SETTINGS_VERSION = 3;
/** The shell command prefix is a line or two of shell, not a script: settings go to every worker. */
export const MAX_SHELL_PREFIX_CHARS = 4096;
/** How many recent workspaces Settings keep. */
export const RECENT_WORKSPACES = 10;

export const ModelRefSchema = Type.Object(
  { provider: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export const ThinkingLevelSchema = Type.Enum([...THINKING_LEVELS]);
export const QueueModeSchema = Type.Enum(["one-at-a-time", "all"]);
export const ToolExecutionSchema = Type.Enum(["parallel", "sequential"]);
export const ThemeSchema = Type.Enum(["system", "light", "dark"]);

export { MIN_REQUEST_TIMEOUT_MS, MAX_RETRY_ATTEMPTS, MAX_RETRY_WAIT_SECONDS };

export const AbortSettingsSchema = Type.Object(
  {
    /** What Esc does in the composer while the agent runs. */
    escAction: Type.Enum(["abort", "abort-and-clear-queues", "nothing"]),
    /** Whether Stop (and an Esc abort) also drops queued steering and follow-up messages. */
    clearQueuesOnAbort: Type.Boolean(),
    /** Ask before closing a window, or quitting, while its session's agent runs. */
    confirmCloseWhileRunning: Type.Boolean(),
    requestTimeoutMs: Type.Integer({ minimum: MIN_REQUEST_TIMEOUT_MS }),
    /**
     * How many times a run asks again, with growing waits, after a rate limit (429), a server error (5xx) or a dropped
     * connection before it fails (0: never; see agent-worker/host/provider/retry-policy.ts).
     */
    retryAttempts: Type.Integer({ minimum: 0, maximum: MAX_RETRY_ATTEMPTS }),
    /** The longest wait before one retry, in seconds: a provider asking for longer (Retry-After) fails the run at once. */
    retryMaxWaitSeconds: Type.Integer({ minimum: 1, maximum: MAX_RETRY_WAIT_SECONDS }),
  },
  { additionalProperties: false },
);

/** Caps on what a run may spend (shared/agent/budget.ts' BudgetCaps); an absent field is no cap. */
export const BudgetCapsSchema = Type.Object(
  {
    costUsd: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_BUDGET_USD })),
    tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BUDGET_TOKENS })),
    minutes: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_BUDGET_MINUTES })),
    toolCalls: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BUDGET_TOOL_CALLS })),
  },
  { additionalProperties: false },
);

/** Settings → Budgets (issue 27 §3). */
export const BudgetSettingsSchema = Type.Object(
  {
    /** Each run's caps in a chat that sets none of its own (its Budget…); {}: none. */
    run: BudgetCapsSchema,
    /** Dollars all chats may spend in a calendar month (local time), counted by main; 0: no cap. */
    monthlyCapUsd: Type.Number({ minimum: 0, maximum: MAX_BUDGET_USD }),
  },
  { additionalProperties: false },
);

export const BackgroundSettingsSchema = Type.Object(
  {
    /** How long an idle chat's agent process lives on once no window shows the chat (0: it stops at once). */
    idleStopMinutes: Type.Integer({ minimum: 0, maximum: 24 * 60 }),
    /** Desktop notifications when a chat that is not in front finishes, fails, or needs the user. */
    notifications: Type.Boolean(),
    /**
     * The desktop app keeps running in the tray (the menu bar on macOS) while schedules exist and no window is open,
     * so they run (main/lifecycle/stay-in-tray.ts); off: the last window closing quits, as without schedules.
     */
    stayInTray: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Whether a tool runs at once or asks the user first. */
export const ToolPolicySchema = Type.Enum(["allow", "ask"]);

/** A host name the sandbox lets shell commands reach, with an optional leading "*." for its subdomains. */
const DomainSchema = Type.String({ pattern: "^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$" });

export const ToolsSettingsSchema = Type.Object(
  {
    /** Per tool name: run at once, or ask first. A tool not listed asks. */
    approval: KeyedRecord("^[A-Za-z0-9_.:-]{1,100}$", ToolPolicySchema, { maxProperties: 500 }),
    /**
     * A question nobody answers while no window shows the chat (or, in an unattended run, at all) is answered "deny"
     * after this long; a parked one also when its run ends first (agent-worker/host/approvals/approval-gate.ts).
     */
    approvalTimeoutMinutes: Type.Integer({ minimum: 1, maximum: 24 * 60 }),
    /** Hosts shell commands may reach through the sandbox; every other network access is blocked. */
    allowedDomains: Type.Array(DomainSchema, { maxItems: 200 }),
    /** Subagent workers running at once across all chats (each parent has at most 4 of them). */
    maxSubagents: Type.Integer({ minimum: 1, maximum: 32 }),
    /**
     * pi's `shellCommandPrefix`: shell lines bash runs before every command, e.g. `shopt -s expand_aliases` (inside
     * the sandbox, as the command). Absent or blank: none.
     */
    shellCommandPrefix: Type.Optional(Type.String({ maxLength: MAX_SHELL_PREFIX_CHARS })),
    /**
     * The permission profile a chat runs under until it picks its own (shared/protocol/permission-profiles.ts).
     * Absent (every file before issue 27): Ask, today's behaviour.
     */
    defaultProfile: Type.Optional(Type.Enum([...PERMISSION_PROFILES])),
  },
  { additionalProperties: false },
);

/** The largest file a checkpoint may keep a copy of, and the store's limit, in MB: the bounds Settings accept. */
export const CHECKPOINT_FILE_MB = { min: 1, max: 1024 } as const;
export const CHECKPOINT_STORAGE_MB = { min: 100, max: 1024 * 1024 } as const;

/**
 * Checkpoints (issue 24): what a chat records of its workspace so its changes can be seen and taken back. Files
 * `.gitignore` ignores are not tracked; a file larger than `maxFileMB` is recorded as changed without a copy. Main
 * holds the whole store (every chat's) under `storageLimitMB` by dropping the oldest checkpoints.
 */
export const CheckpointSettingsSchema = Type.Object(
  {
    /** Whether chats record checkpoints at all. */
    enabled: Type.Boolean(),
    /** A file larger than this (MB) is not stored: the changes view says it changed, without a copy. */
    maxFileMB: Type.Integer({ minimum: CHECKPOINT_FILE_MB.min, maximum: CHECKPOINT_FILE_MB.max }),
    /** The store's limit (MB), across chats: above it the oldest checkpoints are dropped. */
    storageLimitMB: Type.Integer({ minimum: CHECKPOINT_STORAGE_MB.min, maximum: CHECKPOINT_STORAGE_MB.max }),
  },
  { additionalProperties: false },
);

/**
 * An OpenAI-compatible endpoint (Ollama, LM Studio, vLLM...). Its models are addressed as provider `custom:<id>`;
 * its optional key is a secret stored under that same provider name.
 */
export const CustomProviderSchema = Type.Object(
  {
    id: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    baseUrl: Type.String({ pattern: "^https?://[^\\s]+$", maxLength: 2048 }),
    // Bounded: settings go to every worker, and a page must not be able to make them megabytes.
    models: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 }),
    /** Whether the models think (reasoning_effort is sent and reasoning deltas expected). Default false. */
    reasoning: Type.Optional(Type.Boolean()),
    /** Whether the models read images (attached images are sent to them). Default false: text only. */
    images: Type.Optional(Type.Boolean()),
    /** The models' context window. Default DEFAULT_CONTEXT_WINDOW (custom-provider.ts). */
    contextWindow: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    /** Sent as `max_tokens`. Default DEFAULT_MAX_TOKENS: small, because servers such as vLLM reject a request whose
     *  prompt plus max_tokens exceeds the loaded context. */
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  },
  { additionalProperties: false },
);

/**
 * A model id a built-in provider's catalogue lacks, added by the user (typed in the model picker, or picked from the
 * provider's own list by "Refresh models"). Main makes it from the provider's closest catalogue model (API, address,
 * headers, compatibility) with this id; the limits set here replace that model's, as a custom endpoint's do.
 */
export const AddedModelSchema = Type.Object(
  {
    /** A built-in provider's id (pi-ai's; custom endpoints list their own models). */
    provider: Type.String({ pattern: "^[a-z0-9][a-z0-9._-]{0,63}$" }),
    id: Type.String({ minLength: 1, maxLength: 200 }),
    /** Whether the model thinks. Default: as the closest catalogue model. */
    reasoning: Type.Optional(Type.Boolean()),
    /** Whether the model reads images. Default: as the closest catalogue model. */
    images: Type.Optional(Type.Boolean()),
    /** Context window in tokens. Default: the closest catalogue model's. */
    contextWindow: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    /** Most output tokens. Default: the closest catalogue model's. */
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  },
  { additionalProperties: false },
);

/** How many added models settings keep (they go to every worker with the settings' other lists). */
export const MAX_ADDED_MODELS = 500;

export const WindowBoundsSchema = Type.Object(
  {
    x: Type.Integer(),
    y: Type.Integer(),
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

/** An open window, kept so that relaunching reopens it on the same session and place. */
export const WindowRecordSchema = Type.Object(
  {
    sessionId: Type.String({ minLength: 1 }),
    /** Its size and place when neither maximized nor minimized. */
    bounds: Type.Optional(WindowBoundsSchema),
    /** It was maximized: reopens maximized (over `bounds`, which it returns to when restored). */
    maximized: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SettingsSchema = Type.Object(
  {
    version: Type.Literal(SETTINGS_VERSION),
    defaultModel: Type.Optional(ModelRefSchema),
    thinkingLevel: ThinkingLevelSchema,
    /** Instructions for every chat that has none of its own ("": none). */
    defaultSystemPrompt: Type.String({ maxLength: MAX_INSTRUCTIONS_CHARS }),
    steeringMode: QueueModeSchema,
    followUpMode: QueueModeSchema,
    toolExecution: ToolExecutionSchema,
    abort: AbortSettingsSchema,
    background: BackgroundSettingsSchema,
    tools: ToolsSettingsSchema,
    checkpoints: CheckpointSettingsSchema,
    budgets: BudgetSettingsSchema,
    /** Workspace folders chosen lately, newest first (main keeps them; offered when choosing a chat's workspace). */
    recentWorkspaces: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: RECENT_WORKSPACES }),
    /**
     * Project agent files (`.pi/agents/*.md`) the user agreed to run, by a hash of path and content: a changed file
     * asks again. Main keeps them; pages cannot patch them.
     */
    confirmedProjectAgents: Type.Array(Type.String({ pattern: "^[0-9a-f]{64}$" }), { maxItems: 1000 }),
    customProviders: Type.Array(CustomProviderSchema, { maxItems: 50 }),
    /**
     * MCP servers (shared/mcp/server-config.ts), secrets only as references. Main changes them (its McpConfig, with
     * their secrets); pages cannot patch them.
     */
    mcpServers: Type.Array(McpServerConfigSchema, { maxItems: MAX_MCP_SERVERS }),
    theme: ThemeSchema,
    windows: Type.Array(WindowRecordSchema),
    onboarded: Type.Boolean(),
    /** Models the user added to built-in providers (AddedModelSchema), one per provider and id. Absent: none. */
    addedModels: Type.Optional(Type.Array(AddedModelSchema, { maxItems: MAX_ADDED_MODELS })),
    /**
     * Project skills and prompt templates (a workspace's `.pi/skills`, `.claude/skills`, `.agents/skills`,
     * `.pi/prompts`) the user agreed to use, by a hash of path and content: a changed file asks again. Main keeps
     * them; pages cannot patch them. Absent in older files: none agreed.
     */
    confirmedProjectSkills: Type.Optional(Type.Array(Type.String({ pattern: "^[0-9a-f]{64}$" }), { maxItems: 2000 })),
    /**
     * Amazon Bedrock's, Google Vertex AI's and Azure OpenAI's fields beyond a key (shared/providers/cloud-settings.ts):
     * the non-secret ones only, their secrets are in main's secret store. Main sets them (`setCloudProvider`, which
     * checks a credentials file on disk); pages cannot patch them. Absent: none set.
     */
    cloudProviders: Type.Optional(CloudProvidersSettingsSchema),
    /**
     * The desktop app checks spelling as the user types. Off unless turned on: on Windows and Linux Chromium then
     * downloads the language's dictionary from Google's servers (main/app-page/spell-check.ts). Absent: off.
     */
    spellCheck: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/**
 * What a page may change, each part optional. `abort`, `background`, `tools` and `checkpoints` merge field by field (and
 * `tools.approval` tool by tool); `customProviders` replaces the whole
 * list; `defaultModel: null` clears the default. `version`, `windows`, `recentWorkspaces`, `confirmedProjectAgents` and `mcpServers` belong to main and are not patchable.
 */
export const SettingsPatchSchema = Type.Object(
  {
    defaultModel: Type.Optional(Type.Union([ModelRefSchema, Type.Null()])),
    thinkingLevel: Type.Optional(ThinkingLevelSchema),
    defaultSystemPrompt: Type.Optional(Type.String({ maxLength: MAX_INSTRUCTIONS_CHARS })),
    steeringMode: Type.Optional(QueueModeSchema),
    followUpMode: Type.Optional(QueueModeSchema),
    toolExecution: Type.Optional(ToolExecutionSchema),
    abort: Type.Optional(Type.Partial(AbortSettingsSchema)),
    background: Type.Optional(Type.Partial(BackgroundSettingsSchema)),
    tools: Type.Optional(Type.Partial(ToolsSettingsSchema)),
    checkpoints: Type.Optional(Type.Partial(CheckpointSettingsSchema)),
    /** Merges field by field; `run` replaces the run caps whole (a cap left out is removed). */
    budgets: Type.Optional(Type.Partial(BudgetSettingsSchema)),
    customProviders: Type.Optional(Type.Array(CustomProviderSchema)),
    theme: Type.Optional(ThemeSchema),
    onboarded: Type.Optional(Type.Boolean()),
    /** Replaces the whole list, as `customProviders` does. */
    addedModels: Type.Optional(Type.Array(AddedModelSchema, { maxItems: MAX_ADDED_MODELS })),
    spellCheck: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type Settings = Static<typeof SettingsSchema>;
export type SettingsPatch = Static<typeof SettingsPatchSchema>;
export type AbortSettings = Settings["abort"];
export type BackgroundSettings = Settings["background"];
export type ToolsSettings = Settings["tools"];
export type CheckpointSettings = Settings["checkpoints"];
export type BudgetSettings = Settings["budgets"];
export type ToolPolicy = ToolsSettings["approval"][string];
export type CustomProvider = Static<typeof CustomProviderSchema>;
export type AddedModel = Static<typeof AddedModelSchema>;
export type WindowRecord = Static<typeof WindowRecordSchema>;
export type WindowBounds = Static<typeof WindowBoundsSchema>;
export type Theme = Settings["theme"];

export const DEFAULT_SETTINGS: Readonly<Settings> = deepFreeze({
  version: SETTINGS_VERSION,
  thinkingLevel: "off",
  defaultSystemPrompt: "",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  toolExecution: "parallel",
  abort: {
    escAction: "abort",
    clearQueuesOnAbort: false,
    confirmCloseWhileRunning: true,
    requestTimeoutMs: 120_000,
    // pi's defaults (retry.maxRetries 3, a minute's longest wait).
    retryAttempts: 3,
    retryMaxWaitSeconds: 60,
  },
  background: {
    idleStopMinutes: 5,
    notifications: true,
    stayInTray: true,
  },
  tools: {
    // Looking is allowed; changing files and running commands ask, as in pi's and Claude Code's defaults.
    // A subagent's own calls are asked about like these, so starting one needs no question of its own.
    approval: { read: "allow", ls: "allow", find: "allow", grep: "allow", calculate: "allow", wait: "allow", subagent: "allow", write: "ask", edit: "ask", bash: "ask" },
    approvalTimeoutMinutes: 10,
    allowedDomains: [],
    maxSubagents: 8,
    shellCommandPrefix: "",
    defaultProfile: "ask",
  },
  checkpoints: {
    enabled: true,
    maxFileMB: 20,
    storageLimitMB: 2048,
  },
  budgets: {
    run: {},
    monthlyCapUsd: 0,
  },
  recentWorkspaces: [],
  confirmedProjectAgents: [],
  customProviders: [],
  mcpServers: [],
  theme: "system",
  windows: [],
  onboarded: false,
});

export type SettingsValidation = { ok: true; value: Settings } | { ok: false; errors: string[] };

/**
 * Checks `value` against the schema and the rules a schema cannot say (custom provider and MCP server ids are unique). On success
 * returns the same object, typed; never throws.
 */
export function validateSettings(value: unknown): SettingsValidation {
  const errors = schemaErrors(SettingsSchema, value, "settings");
  if (errors.length > 0) return { ok: false, errors };
  const settings = value as Settings;
  errors.push(...settingsRuleErrors(settings));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: settings };
}

/** The rules a schema cannot say, for settings that pass the schema: custom provider and MCP server ids are unique, an MCP server's own rules (server-fields.ts), a model is added to a provider once, and checkpoints' largest file fits their storage limit. */
export function settingsRuleErrors(settings: Settings): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const provider of settings.customProviders) {
    if (seen.has(provider.id)) errors.push(`customProviders: the id "${provider.id}" is used twice`);
    seen.add(provider.id);
  }
  errors.push(...mcpServersRuleErrors(settings.mcpServers));
  const added = new Set<string>();
  for (const model of settings.addedModels ?? []) {
    const key = JSON.stringify([model.provider, model.id]);
    if (added.has(key)) errors.push(`addedModels: ${model.provider}'s model "${model.id}" is added twice`);
    added.add(key);
  }
  const { maxFileMB, storageLimitMB } = settings.checkpoints;
  if (maxFileMB > storageLimitMB) errors.push(`checkpoints: the largest file kept (${maxFileMB} MB) must not be more than the storage limit (${storageLimitMB} MB)`);
  return errors;
}

/**
 * Returns new settings with `patch` applied; `settings` is not modified and the result shares no mutable data with
 * `patch`. Throws an Error whose message lists every problem when the patch is malformed or its result invalid.
 */
export function applySettingsPatch(settings: Settings, patch: SettingsPatch): Settings {
  const patchErrors = schemaErrors(SettingsPatchSchema, patch, "settings");
  if (patchErrors.length > 0) throw new Error(`Invalid settings change: ${patchErrors.join("; ")}`);
  const { defaultModel, abort, background, tools, checkpoints, budgets, ...rest } = structuredClone(patch);
  const next: Settings = {
    ...settings,
    ...withoutUndefined(rest),
    abort: { ...settings.abort, ...withoutUndefined(abort ?? {}) },
    background: { ...settings.background, ...withoutUndefined(background ?? {}) },
    tools: {
      ...settings.tools,
      ...withoutUndefined(tools ?? {}),
      approval: { ...settings.tools.approval, ...(tools?.approval ?? {}) },
    },
    checkpoints: { ...settings.checkpoints, ...withoutUndefined(checkpoints ?? {}) },
    budgets: { ...settings.budgets, ...withoutUndefined(budgets ?? {}) },
  };
  if (defaultModel === null) delete next.defaultModel;
  else if (defaultModel !== undefined) next.defaultModel = defaultModel;
  const result = validateSettings(next);
  if (!result.ok) throw new Error(`Invalid settings change: ${result.errors.join("; ")}`);
  return result.value;
}

/** Thrown by `migrateSettings` when a file cannot be read as settings even after migrating it. */
export class InvalidSettingsError extends Error {
  constructor(readonly errors: string[]) {
    super(`Invalid settings: ${errors.join("; ")}`);
    this.name = "InvalidSettingsError";
  }
}

/**
 * Reads a parsed settings file of any known version (or none) as current settings: runs the migrations from its
 * version up, fills missing fields with defaults, then validates. Throws `InvalidSettingsError` when the result is
 * still invalid, or the file is not an object, or comes from a newer version than this one; `salvageSettings` then
 * recovers what it can.
 */
export function migrateSettings(raw: unknown): Settings {
  const result = validateSettings(upgradeSettings(raw));
  if (!result.ok) throw new InvalidSettingsError(result.errors);
  return result.value;
}

/**
 * Best-effort recovery of an invalid file: defaults, overlaid with every migrated field (and, inside objects and
 * lists, every sub-field or item) that is valid on its own. Always returns valid settings; never throws.
 */
export function salvageSettings(raw: unknown): Settings {
  const migrated = upgradeSettings(raw);
  const candidate = isRecord(migrated) ? migrated : {};
  let kept: Settings = structuredClone(DEFAULT_SETTINGS) as Settings;
  const accept = (next: Record<string, unknown>): boolean => {
    const result = validateSettings(next);
    if (result.ok) kept = result.value;
    return result.ok;
  };
  for (const [key, value] of Object.entries(candidate)) {
    if (key === "version" || accept({ ...kept, [key]: value })) continue;
    const current = field(kept, key);
    if (Array.isArray(value) && Array.isArray(current)) {
      for (const item of value) accept({ ...kept, [key]: [...(field(kept, key) as unknown[]), item] });
    } else if (isRecord(value) && isRecord(current)) {
      for (const [subKey, subValue] of Object.entries(value)) {
        accept({ ...kept, [key]: { ...(field(kept, key) as object), [subKey]: subValue } });
      }
    }
  }
  return kept;
}

/**
 * A parsed settings file of any known version brought to the current layout: the migration steps run and missing
 * fields filled with defaults. The result is unvalidated; non-objects and unknown versions are returned as they are.
 * Never throws.
 */
export function upgradeSettings(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  let data: Record<string, unknown> = raw;
  let version = raw.version === undefined ? 1 : raw.version;
  // An unknown version (from a newer Paddock, or nonsense) is returned as is: validation then names the version.
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > SETTINGS_VERSION) {
    return raw;
  }
  while (version < SETTINGS_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) return raw;
    data = step(data);
    version += 1;
  }
  const defaults = structuredClone(DEFAULT_SETTINGS) as Settings;
  // A missing group takes the defaults; a partial one is completed; anything else is left to fail validation.
  const group = (key: "abort" | "background" | "tools" | "checkpoints" | "budgets") => {
    const value = data[key] ?? defaults[key];
    return isRecord(value) ? { ...defaults[key], ...value } : value;
  };
  return { ...defaults, ...data, abort: group("abort"), background: group("background"), tools: group("tools"), checkpoints: group("checkpoints"), budgets: group("budgets") };
}

function field(settings: Settings, key: string): unknown {
  return (settings as Record<string, unknown>)[key];
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value as object)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
