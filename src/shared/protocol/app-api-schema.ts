/**
 * One input schema per AppApi method: main validates every call from a page against these before doing anything
 * (the preload bridge in Electron, the HTTP API of the web host). Typebox's interpreted checks, no eval.
 */
import { Type, type TSchema } from "typebox";
import { SettingsPatchSchema } from "../settings/schema";
import type { AppApi } from "./app-api";
import { SESSION_ID_PATTERN } from "./ids";
import { EndpointProbeRequestSchema } from "./endpoint-probe";
import { RefreshModelsArgsSchema } from "./model-lists";
import { MCP_CONFIG_API_SCHEMAS } from "../mcp/config-api-schema";
import { MCP_SERVER_ID_PATTERN } from "../mcp/server-config";
import { KeyedRecord } from "../keyed-record";
import { SIGN_IN_ID_PATTERN, SignInAnswerSchema } from "./accounts";
import { ATTACHMENT_ID_PATTERN, MAX_ATTACHMENT_NAME_CHARS, MAX_ATTACHMENTS } from "./attachments";
import { DRAFT_WRITER_PATTERN, MAX_DRAFT_TEXT_CHARS } from "./drafts";
import { PERMISSION_PROFILES } from "./permission-profiles";
import { MAX_SCHEDULE_NAME, MAX_SCHEDULE_PROMPT } from "../schedules/schedule";
import { MAX_CRON_CHARS } from "../schedules/cron";

const SessionId = Type.String({ pattern: SESSION_ID_PATTERN.source });
const Folder = Type.String({ minLength: 1, maxLength: 4096 });
const ProviderName = Type.String({ minLength: 1, maxLength: 100 });
const SignInId = Type.String({ pattern: SIGN_IN_ID_PATTERN });
const CloudProviderChangeSchema = Type.Object(
  {
    fields: KeyedRecord("^[A-Za-z]{1,40}$", Type.String({ maxLength: 4096 }), { maxProperties: 10 }),
    secrets: KeyedRecord("^[A-Za-z]{1,40}$", Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()]), { maxProperties: 10 }),
  },
  { additionalProperties: false },
);
const ExportFormat = Type.Union([Type.Literal("markdown"), Type.Literal("json")]);
const AttachmentRefSchema = Type.Object(
  {
    id: Type.String({ pattern: ATTACHMENT_ID_PATTERN }),
    name: Type.String({ maxLength: MAX_ATTACHMENT_NAME_CHARS * 4 }),
    mimeType: Type.String({ maxLength: 100 }),
    size: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
/** A draft as a page saves it; the text's own limit is said by main in words (DRAFT_TOO_LONG), so it is not here. */
const ChatDraftSchema = Type.Object(
  {
    text: Type.String({ maxLength: MAX_DRAFT_TEXT_CHARS * 2 }),
    attachments: Type.Array(AttachmentRefSchema, { maxItems: MAX_ATTACHMENTS }),
  },
  { additionalProperties: false },
);
const ScheduleId = Type.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" });
const Instant = Type.Integer({ minimum: 1 });
const Time = Type.String({ maxLength: 5 });
/** A schedule's shape; its finer rules (a cron expression's fields, a budget's ranges) are main's `scheduleProblem`. */
const ScheduleSchema = Type.Object(
  {
    id: ScheduleId,
    name: Type.String({ maxLength: MAX_SCHEDULE_NAME }),
    prompt: Type.String({ minLength: 1, maxLength: MAX_SCHEDULE_PROMPT }),
    workspace: Type.String({ maxLength: 4096 }),
    profile: Type.Union(PERMISSION_PROFILES.map((p) => Type.Literal(p))),
    budget: Type.Object(
      { costUsd: Type.Optional(Type.Number()), tokens: Type.Optional(Type.Number()), minutes: Type.Optional(Type.Number()), toolCalls: Type.Optional(Type.Number()) },
      { additionalProperties: false },
    ),
    when: Type.Union([
      Type.Object({ kind: Type.Literal("once"), at: Instant }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal("daily"), time: Time }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal("weekdays"), time: Time }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal("every"), hours: Type.Integer({ minimum: 1 }), from: Instant }, { additionalProperties: false }),
      Type.Object({ kind: Type.Literal("cron"), expression: Type.String({ maxLength: MAX_CRON_CHARS }) }, { additionalProperties: false }),
    ]),
    target: Type.Union([Type.Literal("new-chat"), Type.Object({ continue: SessionId }, { additionalProperties: false })]),
    missed: Type.Union([Type.Literal("run-once"), Type.Literal("skip")]),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** The largest chat export `importSession` takes (the browser host's request limit for it follows). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;

export const APP_API_SCHEMAS = {
  listSessions: Type.Tuple([]),
  createSession: Type.Tuple([]),
  renameSession: Type.Tuple([SessionId, Type.String({ minLength: 1, maxLength: 200 })]),
  deleteSession: Type.Tuple([SessionId]),
  restoreSession: Type.Tuple([SessionId]),
  retrySessionWorker: Type.Tuple([SessionId]),
  openSession: Type.Tuple([SessionId, Type.Union([Type.Literal("this-window"), Type.Literal("new-window")])]),
  setWorkspace: Type.Union([
    Type.Tuple([SessionId, Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()])]),
    Type.Tuple([SessionId, Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()]), Type.Boolean()]),
  ]),
  pickWorkspace: Type.Tuple([SessionId]),
  getSettings: Type.Tuple([]),
  updateSettings: Type.Tuple([SettingsPatchSchema]),
  setApiKey: Type.Tuple([Type.String({ minLength: 1, maxLength: 100 }), Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])]),
  providerStatus: Type.Tuple([]),
  listModels: Type.Tuple([]),
  probeEndpoint: Type.Tuple([EndpointProbeRequestSchema]),
  takeNotices: Type.Tuple([]),
  listAgents: Type.Tuple([]),
  openAgentsFolder: Type.Tuple([Type.Union([Type.Literal("paddock"), Type.Literal("pi")])]),
  logsFolder: Type.Tuple([]),
  openLogsFolder: Type.Tuple([]),
  getMonthlySpend: Type.Tuple([]),
  searchMessages: Type.Tuple([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 1, maximum: 100 })]),
  exportSession: Type.Tuple([SessionId, ExportFormat]),
  saveSessionExport: Type.Tuple([SessionId, ExportFormat]),
  importSession: Type.Tuple([Type.String({ minLength: 1, maxLength: MAX_IMPORT_CHARS })]),
  mcpStatus: Type.Tuple([]),
  mcpRestart: Type.Tuple([Type.String({ pattern: MCP_SERVER_ID_PATTERN })]),
  mcpPrompts: Type.Tuple([]),
  mcpResources: Type.Tuple([]),
  mcpReadResource: Type.Tuple([Type.String({ pattern: MCP_SERVER_ID_PATTERN }), Type.String({ minLength: 1, maxLength: 4096 })]),
  mcpGetPrompt: Type.Tuple([
    Type.String({ pattern: MCP_SERVER_ID_PATTERN }),
    Type.String({ minLength: 1, maxLength: 500 }),
    KeyedRecord("^[^\\u0000-\\u001f]{1,200}$", Type.String({ maxLength: 100_000 }), { maxProperties: 50 }),
  ]),
  ...MCP_CONFIG_API_SCHEMAS,
  refreshModels: RefreshModelsArgsSchema,
  piModelsFile: Type.Tuple([]),
  checkpointStorage: Type.Tuple([]),
  clearCheckpoints: Type.Tuple([]),
  listSkills: Type.Tuple([Type.Union([SessionId, Type.Null()])]),
  confirmProjectSkills: Type.Tuple([SessionId]),
  setCloudProvider: Type.Tuple([ProviderName, CloudProviderChangeSchema]),
  startSignIn: Type.Tuple([ProviderName]),
  answerSignIn: Type.Tuple([SignInId, SignInAnswerSchema]),
  cancelSignIn: Type.Tuple([SignInId]),
  signOut: Type.Tuple([ProviderName]),
  worktreeOffer: Type.Tuple([Folder]),
  createWorktreeChat: Type.Union([Type.Tuple([Folder]), Type.Tuple([Folder, Type.Boolean()])]),
  worktreeChanges: Type.Tuple([SessionId]),
  worktreeStatus: Type.Tuple([SessionId]),
  applyWorktree: Type.Tuple([SessionId, Type.Boolean()]),
  keepWorktreeBranch: Type.Tuple([SessionId]),
  discardWorktree: Type.Tuple([SessionId]),
  getDraft: Type.Tuple([SessionId]),
  saveDraft: Type.Union([
    Type.Tuple([SessionId, ChatDraftSchema]),
    Type.Tuple([SessionId, ChatDraftSchema, Type.String({ pattern: DRAFT_WRITER_PATTERN })]),
  ]),
  projectGrants: Type.Tuple([Type.Union([SessionId, Type.Null()])]),
  removeProjectGrant: Type.Tuple([Folder, Type.String({ minLength: 1, maxLength: 1100 })]),
  listSchedules: Type.Tuple([]),
  saveSchedule: Type.Tuple([ScheduleSchema]),
  setScheduleEnabled: Type.Tuple([ScheduleId, Type.Boolean()]),
  deleteSchedule: Type.Tuple([ScheduleId]),
  runScheduleNow: Type.Tuple([ScheduleId]),
} satisfies Record<keyof AppApi, TSchema>;

export type AppMethod = keyof AppApi;

export function isAppMethod(name: unknown): name is AppMethod {
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(APP_API_SCHEMAS, name);
}
