/**
 * One argument-list schema per MainControlApi method: main checks every call a worker makes on the control channel
 * (its "w2c" lane) against these before anything runs (main/broker/worker-handle.ts), as a session's worker checks
 * the session channel (SESSION_METHOD_SCHEMAS). A worker runs tools and model output, so what it says is checked, not
 * trusted: a malformed call (wrong types, extra fields, an unknown method) is refused in words and changes nothing.
 * Typebox's interpreted checks, no eval. The type check at the bottom keeps every call a correct worker makes passing.
 */
import { Type, type Static, type TSchema } from "typebox";
import { ANY_KEY, KeyedRecord } from "../keyed-record";
import { ModelRefSchema, ThinkingLevelSchema } from "../settings/schema";
import type { MainControlApi } from "./control-protocol";
import { PERMISSION_PROFILES } from "./permission-profiles";

/** Largest control message from a worker, estimated in characters (a subagent's task, a tool's arguments). */
export const MAX_CONTROL_FRAME_CHARS = 16 * 1024 * 1024;

const Name = Type.String({ maxLength: 1000 });
const Cwd = Type.String({ maxLength: 4096 });
const Id = Type.String({ minLength: 1, maxLength: 200 });
/**
 * A usage total: summed from the transcript's messages, where a message from an older or odd provider may lack a
 * field, which makes the sum NaN (which typebox's numbers refuse). Such a status went through before this gate and
 * drives the child's activity, so its totals are only required to be present, not to be good numbers.
 */
const Count = Type.Unsafe<number>(Type.Unknown());

const SandboxVerdictSchema = Type.Union([
  Type.Object({ available: Type.Literal(true), kind: Type.Union([Type.Literal("bubblewrap"), Type.Literal("seatbelt")]) }, { additionalProperties: false }),
  // Any length here: a long reason (a probe's errors joined) costs the verdict, not the status (session-broker.ts).
  Type.Object({ available: Type.Literal(false), reason: Type.String(), cause: Type.Optional(SandboxCauseSchema()) }, { additionalProperties: false }),
]);

/** shared/security/sandbox-help.ts's `SandboxCause`: why there is no sandbox, for the workspace panel's help. */
function SandboxCauseSchema() {
  const kind = <K extends string>(k: K, fields: Record<string, TSchema> = {}) => Type.Object({ kind: Type.Literal(k), ...fields }, { additionalProperties: false });
  const program = Type.Union([Type.Literal("bubblewrap"), Type.Literal("socat"), Type.Literal("ripgrep")]);
  return Type.Union([
    kind("turned-off"),
    kind("windows"),
    kind("unsupported-os", { os: Type.String({ maxLength: 40 }) }),
    kind("missing", { programs: Type.Array(program, { maxItems: 3 }) }),
    kind("user-namespaces", { appArmor: Type.Boolean() }),
    kind("root-without-setfcap"),
    kind("other"),
  ]);
}
const SubagentUsageSchema = Type.Object(
  { input: Count, output: Count, cacheRead: Count, cacheWrite: Count, cost: Count, turns: Count, toolCalls: Type.Optional(Count) },
  { additionalProperties: false },
);
const WorkerStatusSchema = Type.Object(
  {
    sessionId: Id,
    running: Type.Boolean(),
    waiting: Type.Optional(Type.Boolean()),
    lastRun: Type.Optional(Type.Union([Type.Literal("done"), Type.Literal("failed"), Type.Literal("aborted")])),
    title: Type.Optional(Type.String()),
    messageCount: Type.Integer({ minimum: 0 }),
    updated: Type.Number(),
    model: Type.Optional(ModelRefSchema),
    sandbox: Type.Optional(SandboxVerdictSchema),
    subagent: Type.Optional(Type.Object({ usage: SubagentUsageSchema, latest: Type.Optional(Type.String()) }, { additionalProperties: false })),
    spend: Type.Optional(Type.Object({ id: Id, cost: Type.Number({ minimum: 0 }), unpricedTokens: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const AgentScopeSchema = Type.Union([Type.Literal("user"), Type.Literal("project"), Type.Literal("both")]);
const SubagentRequestSchema = Type.Object(
  {
    requestId: Id,
    toolCallId: Id,
    agent: Name,
    task: Type.String(),
    cwd: Type.Optional(Cwd),
    scope: AgentScopeSchema,
    parentModel: Type.Optional(ModelRefSchema),
    index: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    upcoming: Type.Optional(Type.Integer({ minimum: 0 })),
    parentThinkingLevel: Type.Optional(ThinkingLevelSchema),
    isolation: Type.Optional(Type.Literal("worktree")),
    parentProfile: Type.Optional(Type.Enum([...PERMISSION_PROFILES])),
    parentPlan: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
const SubagentApprovalQuestionSchema = Type.Object(
  {
    toolCallId: Id,
    toolName: Name,
    args: Type.Optional(Type.Unknown()),
    summary: Type.String(),
    diff: Type.Optional(Type.String()),
    protection: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const TaskWorktreeRequestSchema = Type.Object(
  {
    action: Type.Union([Type.Literal("describe"), Type.Literal("apply"), Type.Literal("keep"), Type.Literal("discard")]),
    sessionId: Id,
    merge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const WorkerMcpCallSchema = Type.Object(
  { callId: Id, serverId: Name, tool: Name, arguments: KeyedRecord(ANY_KEY, Type.Unknown()) },
  { additionalProperties: false },
);

export const MAIN_CONTROL_SCHEMAS = {
  getApiKey: Type.Tuple([Name]),
  resolveModel: Type.Tuple([ModelRefSchema]),
  report: Type.Tuple([WorkerStatusSchema]),
  listAgents: Type.Union([Type.Tuple([AgentScopeSchema]), Type.Tuple([AgentScopeSchema, Cwd])]),
  confirmProjectAgents: Type.Union([Type.Tuple([Type.Array(Name, { maxItems: 1000 })]), Type.Tuple([Type.Array(Name, { maxItems: 1000 }), Cwd])]),
  runSubagent: Type.Tuple([SubagentRequestSchema]),
  stopSubagent: Type.Tuple([Id]),
  askParent: Type.Tuple([SubagentApprovalQuestionSchema]),
  addProjectGrant: Type.Tuple([Type.String({ minLength: 1, maxLength: 1100 })]),
  taskWorktree: Type.Tuple([TaskWorktreeRequestSchema]),
  mcpTools: Type.Tuple([]),
  mcpCall: Type.Tuple([WorkerMcpCallSchema]),
  mcpCancel: Type.Tuple([Id]),
  listSkills: Type.Tuple([]),
  getProviderConfig: Type.Tuple([Name, Name]),
} satisfies Record<keyof MainControlApi, TSchema>;

/** The methods whose schema refuses some call the TypeScript interface allows (must be none). */
type Refused = {
  [K in keyof MainControlApi]: Parameters<MainControlApi[K]> extends Static<(typeof MAIN_CONTROL_SCHEMAS)[K]> ? never : K;
}[keyof MainControlApi];
const everyTypedCallPasses: [Refused] extends [never] ? true : Refused = true;
void everyTypedCallPasses;
