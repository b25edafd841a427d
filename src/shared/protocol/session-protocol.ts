/**
 * The session channel: page (or test client) <-> one session's agent worker.
 *
 * One transport carries two things: Comlink RPC for commands (`SessionApi`), and a one-way stream of numbered event
 * batches. Everything on it is plain JSON-compatible data, so the same protocol runs over an Electron MessagePort,
 * Node child-process IPC or a WebSocket. The worker validates every inbound message against `SESSION_METHOD_SCHEMAS`.
 */
import type { SandboxCause } from "../security/sandbox-help";
import type { BudgetMeter } from "./budget-meter";
import { Type, type Static, type TSchema } from "typebox";
import type { AgentMessage, QueueMode, ThinkingLevel, ToolExecutionMode } from "../agent/types";
import type { AgentStateData } from "../agent/state";
import type { ToolRuns } from "../agent/tool-runs";
import type { ModelRef } from "./app-api";
import { BudgetCapsSchema, ThinkingLevelSchema } from "../settings/schema";
import type { WireEvent } from "./wire-events";
import { MAX_FILE_QUERY_CHARS, type WorkspaceFileMatches } from "./workspace-files";
import { ATTACHMENT_ID_PATTERN, MAX_ATTACHMENT_BASE64_CHARS, MAX_ATTACHMENT_NAME_CHARS, MAX_ATTACHMENTS, MAX_IMAGE_BYTES, type AttachmentRef } from "./attachments";
import { MAX_INSTRUCTIONS_CHARS, MAX_OUTPUT_TOKENS, MAX_TEMPERATURE, MIN_TEMPERATURE, type ChatOptions } from "./chat-options";
import type { HeldMessage } from "./held-messages";
import type { RetryWait } from "./retry-wait";
import { CHANGES_ARGS, type ChangeSet, type ChangesSince, type CheckpointId, type ConflictAnswer, type FileDiff, type RevertResult, type RewindScope } from "./changes";
import { MAX_MCP_SERVERS, MCP_SERVER_ID_PATTERN } from "../mcp/server-limits";
import { PERMISSION_PROFILES } from "./permission-profiles";
import type { AgentBriefing } from "./agent-briefing";
import { RunContractSchema, type RunContract } from "./run-contract";


/** AgentStateData as it travels: the Set becomes a sorted array. */
export type WireAgentState = Omit<AgentStateData, "pendingToolCalls"> & { pendingToolCalls: string[] };

export interface SessionSnapshot {
  sessionId: string;
  /** The last batch sequence number this snapshot includes; batches with seq <= this are already in it. */
  seq: number;
  /**
   * How many of the oldest transcript messages this snapshot leaves out (0 or absent: none). When positive,
   * `state.messages` holds the messages from this index on; the rest come from `getHistory`.
   */
  historyStart?: number;
  state: WireAgentState;
  steering: AgentMessage[];
  followUp: AgentMessage[];
  /** Queued messages held after a Stop or a failed run (absent: none); see held-messages.ts. */
  held?: HeldMessage[];
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  toolExecution: ToolExecutionMode;
  toolRuns: ToolRuns;
  approvals: ApprovalRequest[];
  workspace?: WorkspaceInfo;
  /** The chat's own instructions and parameters (absent or empty: the defaults). */
  chatOptions?: ChatOptions;
  /**
   * Why the chat has no model although one was chosen for it (a model the catalogue no longer lists, an endpoint
   * removed), in main's words naming what to pick; absent once a model is set. A page shows it when it connects.
   */
  modelProblem?: string;
  /** With `modelProblem`: the model the chat names, which a page offers to replace with the closest one it lists. */
  unresolvedModel?: ModelRef;
  /** The run waits to ask the model again after a failure waiting may cure (retry-wait.ts); absent: it does not. */
  retry?: RetryWait;
  /** The chat's budget meter; absent: no caps (budget-meter.ts). */
  budget?: BudgetMeter;
}

/** A run's own terms, passed with `prompt` (declared once: run-contract.ts). */
export type { RunContract } from "./run-contract";

/** A tool call waiting for the user's yes or no (see approval-gate.ts in the worker). */
export interface ApprovalRequest {
  /** The tool call's id: one question per call. */
  toolCallId: string;
  /**
   * Asked while nobody watched the run (no window on the chat, or an unattended run): the run went on without it, and
   * it is denied when the run ends (or the timeout passes) without an answer.
   */
  parked?: boolean;
  toolName: string;
  /** What the call would do, in a line: the command, the path. */
  summary: string;
  /** For a file change, the unified diff it would make. */
  diff?: string;
  /**
   * What "allow for this chat" would allow from now on, as its button shows it: every call of the tool, or for `bash`
   * this exact command (a few read-only programs with any arguments: `ls …`). Absent when only this one call can be
   * allowed (a compound shell command, a shell outside any sandbox, a change of a file the sandbox protects).
   */
  scope?: string;
  /**
   * What "allow for this project" would allow from now on in every chat of the workspace's folder, as its button
   * shows it (the tool, the exact command, the host). Absent: not offered (no workspace, or only once).
   */
  project?: string;
  /**
   * A sandboxed command wants a host no rule allows (`summary` names the program and the host): its connection waits
   * for the answer. Allowed once (for this command's run), for the project, or denied; never "for this chat".
   */
  network?: true;
  /** When the question was asked (ms since epoch). */
  askedAt: number;
  /**
   * A subagent's call, asked in this chat: which agent, its session, and this chat's `subagent` tool call that runs
   * it (the question shows in that call's card). `toolCallId` is then this chat's key for the question, not the
   * subagent's own id.
   */
  from?: { agent: string; sessionId: string; parentToolCallId: string };
}

/** The user's answer to an ApprovalRequest. */
export type ApprovalAnswer = "once" | "chat" | "project" | "deny";

/** The chat's workspace as its agent sees it: the folder, and the project context files put in its instructions. */
export interface WorkspaceInfo {
  folder: string;
  /** Paths of the context files (AGENTS.md, CLAUDE.md) found in the folder and its parents, read into the prompt. */
  contextFiles: string[];
  /** Context files found but not read, one line each naming the file and why (a link out of its folder, a FIFO). */
  contextSkipped?: string[];
  /** Shell commands run in an OS sandbox; when false, why not (then every command asks first). */
  sandboxed: boolean;
  sandboxProblem?: string;
  /** Why there is no sandbox, for the panel's help (shared/security/sandbox-help.ts); absent: only `sandboxProblem`'s words. */
  sandboxCause?: SandboxCause;
  /** Still finding out whether a sandbox can run here (about half a second after the worker starts). */
  sandboxChecking?: boolean;
  /** The folder could not be opened (deleted, moved, unreadable): the chat has no file or shell tools until it can. */
  problem?: string;
  /** Why the chat records no checkpoints of this folder (its changes cannot be reviewed or taken back); absent: it does. */
  checkpointsOff?: string;
}

/**
 * What the mirror receives besides state events. State events (`WireEvent`) keep one- and two-letter tags (`a`, `u`,
 * `me`, `s`) because they ride on every streamed delta; these come seldom, so their tags say what they are.
 */
export type SessionStreamItem =
  | WireEvent
  /** The queues changed (enqueue, drain, removal, clear, held, sent or discarded); `held` absent: none held. */
  | { k: "queues"; steering: AgentMessage[]; followUp: AgentMessage[]; held?: HeldMessage[] }
  /** The questions waiting for the user now (all of them). */
  | { k: "approvals"; pending: ApprovalRequest[] }
  /** The chat's workspace changed (or its context files); undefined: none. */
  | { k: "workspace"; workspace?: WorkspaceInfo }
  /** The chat's own instructions and parameters changed (all of them). */
  | { k: "options"; options: ChatOptions }
  /** The run began waiting to retry (`wait`), or stopped waiting (absent): see retry-wait.ts. */
  | { k: "retry"; wait?: RetryWait }
  /** The chat's budget meter (budget-meter.ts): its caps and spend now; absent: no caps. */
  | { k: "budget"; meter?: BudgetMeter }
  /** Something the user should be told, e.g. the worker was restarted after a crash. */
  | { k: "notice"; kind: NoticeKind; text: string; /** A model that is gone, which the notice is about. */ model?: ModelRef };

/**
 * What a chat's notice is, which decides how it shows: `error`, something failed (a transcript write, a summary);
 * `warning`, nothing failed but the user should know (80 % of a budget used, a run stopped at its budget, tools left
 * out, the workspace's checkpoints off); `worker-restarted`, the agent's process restarted after it ended (a warning).
 */
export type NoticeKind = "worker-restarted" | "warning" | "error";

/**
 * Numbered per connection's worker: 1, 2, 3... A connection always ends with its worker process, and a new
 * connection starts from a snapshot, so the numbers need no process tag. Kept lean: one rides on every few
 * characters of streamed text.
 */
export interface EventBatch {
  seq: number;
  items: SessionStreamItem[];
  /** Digest of the worker's state after this batch, when the session was started with integrity checks on. */
  digest?: string;
}

/**
 * An event batch on the wire. Most batches while text streams are one append to one block; those travel as
 * `{ch:"ev", seq, a:[block, text]}`, half the envelope of the general `items` form, so batches can leave more often
 * (lower latency) for the same bytes per character.
 */
export type EventFrame = { ch: "ev"; seq: number; digest?: string } & ({ items: SessionStreamItem[] } | { a: [number, string] });

/** The frame for a batch: the compact append form when the batch is a single append. */
export function toEventFrame(batch: EventBatch): EventFrame {
  const only = batch.items.length === 1 ? batch.items[0] : undefined;
  const frame: EventFrame = only?.k === "a" ? { ch: "ev", seq: batch.seq, a: [only.i, only.a] } : { ch: "ev", seq: batch.seq, items: batch.items };
  if (batch.digest !== undefined) frame.digest = batch.digest;
  return frame;
}

/** The batch a frame carries; undefined when the frame is not a well-formed event frame. */
export function fromEventFrame(frame: EventFrame): EventBatch | undefined {
  if (!Number.isInteger(frame.seq)) return undefined;
  let items: SessionStreamItem[];
  if ("a" in frame) {
    const [i, a] = Array.isArray(frame.a) ? frame.a : [];
    if (!Number.isInteger(i) || typeof a !== "string") return undefined;
    items = [{ k: "a", i: i as number, a }];
  } else if (Array.isArray(frame.items)) items = frame.items;
  else return undefined;
  return frame.digest === undefined ? { seq: frame.seq, items } : { seq: frame.seq, items, digest: frame.digest };
}

/** Frames on the session transport. */
export type SessionFrame =
  | { ch: "rpc"; m: unknown }
  | EventFrame
  /** A protocol error that could not be answered as an RPC reply (no id). */
  | { ch: "err"; message: string };

/** Most of a saved output `toolOutput` returns (its start); the rest stays in the file, whose path it gives. */
export const TOOL_OUTPUT_MAX_BYTES = 4 * 1024 * 1024;

/** A call's saved output (see the `toolOutput` command). */
export interface ToolOutputFile {
  path: string;
  text: string;
  /** The file's size in bytes; more than `text` holds when it was cut to TOOL_OUTPUT_MAX_BYTES. */
  size: number;
  cut: boolean;
}

/** Whose a subagent's session is: the chat whose `subagent` call started it, and the agent it is. */
export interface SubagentOrigin {
  parentSessionId: string;
  agent: string;
}

/** Most messages one `getHistory` call returns. */
export const MAX_HISTORY_PAGE = 5_000;

/** Largest text a single command may carry (a long paste is fine; a 50 MB string is not). */
export const MAX_TEXT_CHARS = 1_000_000;
/** Largest inbound frame, estimated in characters; larger frames are rejected before any work is done. */
export const MAX_FRAME_CHARS = 16 * 1024 * 1024;

const Text = Type.String({ maxLength: MAX_TEXT_CHARS });
const AttachmentRefSchema = Type.Object(
  {
    id: Type.String({ pattern: ATTACHMENT_ID_PATTERN }),
    name: Type.String({ minLength: 1, maxLength: MAX_ATTACHMENT_NAME_CHARS }),
    mimeType: Type.String({ maxLength: 100 }),
    size: Type.Integer({ minimum: 0, maximum: MAX_IMAGE_BYTES }),
  },
  { additionalProperties: false },
);
const Attachments = Type.Array(AttachmentRefSchema, { maxItems: MAX_ATTACHMENTS });
const ChatOptionsSchema = Type.Object(
  {
    systemPrompt: Type.Optional(Type.String({ maxLength: MAX_INSTRUCTIONS_CHARS })),
    temperature: Type.Optional(Type.Number({ minimum: MIN_TEMPERATURE, maximum: MAX_TEMPERATURE })),
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_OUTPUT_TOKENS })),
    mcpServers: Type.Optional(Type.Array(Type.String({ pattern: MCP_SERVER_ID_PATTERN }), { maxItems: MAX_MCP_SERVERS })),
    profile: Type.Optional(Type.Enum([...PERMISSION_PROFILES])),
    budget: Type.Optional(Type.Object({ chat: Type.Optional(BudgetCapsSchema), run: Type.Optional(BudgetCapsSchema) }, { additionalProperties: false })),
    plan: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
const ModelRefSchema = Type.Object(
  { provider: Type.String({ minLength: 1, maxLength: 200 }), id: Type.String({ minLength: 1, maxLength: 300 }) },
  { additionalProperties: false },
);

const NoArgs = Type.Tuple([]);
/** A message's position in the transcript. */
const MessageIndex = Type.Integer({ minimum: 0, maximum: 100_000_000 });
/** A position in a queue, or among the held messages. */
const QueueIndex = Type.Integer({ minimum: 0, maximum: 100_000 });
const ToolCallId = Type.String({ minLength: 1, maxLength: 200 });
const Answer = Type.Union([Type.Literal("once"), Type.Literal("chat"), Type.Literal("project"), Type.Literal("deny")]);
/** A message: its text, and the attachments stored for it with `putAttachment` (none: the text alone). */
const TextMessage = Type.Union([Type.Tuple([Text]), Type.Tuple([Text, Attachments])]);
/** A prompt: a message, and the contract of the run it starts. */
const PromptMessage = Type.Union([Type.Tuple([Text]), Type.Tuple([Text, Attachments]), Type.Tuple([Text, Attachments, RunContractSchema])]);

/** A command's handler in the worker, and its call in a client. */
type SessionHandler = (...args: never[]) => Promise<unknown>;

/**
 * One session command: the schema of the argument lists the worker admits, whether a page sends it, and (a type only)
 * its signature. The schema must admit no call the signature does not take; a type check below the table proves it.
 */
export interface SessionCommand<S extends TSchema = TSchema, F extends SessionHandler = SessionHandler, P extends boolean = boolean> {
  readonly args: S;
  /** A command the page sends (`SessionCommands`); false: the client's own reads and `reset` (tests, settings sync). */
  readonly page: P;
  /** Never set: the signature, for the types that follow from the table. */
  readonly signature?: F;
}

/** Declares a command with signature `F`: `command<F>()(argsSchema)`, or `command<F>({ page: false })(…)`. */
function command<F extends SessionHandler>(): <S extends TSchema>(args: S) => SessionCommand<S, F, true>;
function command<F extends SessionHandler>(use: { page: false }): <S extends TSchema>(args: S) => SessionCommand<S, F, false>;
function command(use?: { page: false }): (args: TSchema) => SessionCommand {
  return (args) => ({ args, page: use?.page ?? true });
}

/**
 * The commands a session's worker serves, each declared once: its doc (the contract), its signature, and the schema
 * of the argument lists the worker admits (the only methods it will run). Every method rejects with a readable Error
 * on bad input or state. `SessionApi`, `SESSION_METHOD_SCHEMAS`, the page's `SessionCommands` and its client's
 * pass-throughs, the worker's handlers (`sessionApiWith`) and the e2e fake session all follow from this table.
 */
export const SESSION_COMMANDS = {
  /**
   * Answers a waiting tool call: run it once, allow it (its tool, or its exact command) for the rest of the chat or
   * for the project (every chat in the workspace's folder, kept by main), or deny it, with an optional reason the model is given. Rejects when nothing with that id waits (any more).
   */
  answerApproval: command<(toolCallId: string, answer: ApprovalAnswer, reason?: string) => Promise<void>>()(
    Type.Union([Type.Tuple([ToolCallId, Answer]), Type.Tuple([ToolCallId, Answer, Type.String({ maxLength: 4000 })])]),
  ),
  /**
   * Starts a run with a user message; resolves once the message is accepted: in the chat and journaled (a crash after
   * that cannot lose it), the events up to it sent to this mirror first. The run goes on; the mirror reports its end
   * (`isStreaming` false again). Rejects, with the reason, when it is not accepted: no model, a run active, images to
   * a model that does not read them. `attachments` were stored with `putAttachment` first (a frame carries one large
   * file at most). `run`: the run's own contract (run-contract.ts: a message sent in Plan, an unattended run), for
   * that run only.
   */
  prompt: command<(text: string, attachments?: AttachmentRef[], run?: RunContract) => Promise<void>>()(PromptMessage),
  /** Retry: drops a failed (or interrupted) last reply and asks the model again; else pi's continue(). */
  continue: command<() => Promise<void>>()(NoArgs),
  /**
   * Continue: keeps the interrupted or stopped last reply and asks the model to go on from it, with a visible user
   * message (`CONTINUE_PROMPT`); the model sees the reply's text as said. Rejects while a run is active or when the
   * last message is no such reply.
   */
  continueReply: command<() => Promise<void>>()(NoArgs),
  /**
   * Queues a user message for the running agent, given after the current turn's tool calls, before the next model
   * call (pi's steer). Resolves when the queues are journaled; without attachments the message is queued at once, so
   * quick successive calls keep their order.
   */
  steer: command<(text: string, attachments?: AttachmentRef[]) => Promise<void>>()(TextMessage),
  /** Queues a user message for when the agent would otherwise stop (pi's followUp); resolves when it is journaled. */
  followUp: command<(text: string, attachments?: AttachmentRef[]) => Promise<void>>()(TextMessage),
  /**
   * Stores a file in the session's folder for a message to carry: `data` is its bytes in base64; `mimeType` one of
   * the image types for an image, anything else for a text file (which must be UTF-8). Checks the kind by the bytes
   * and the limits (attachments.ts); the same bytes give the same ref's id. Rejects with the reason otherwise.
   */
  putAttachment: command<(name: string, mimeType: string, data: string) => Promise<AttachmentRef>>()(Type.Tuple([
    Type.String({ minLength: 1, maxLength: 4096 }),
    Type.String({ maxLength: 200 }),
    Type.String({ maxLength: MAX_ATTACHMENT_BASE64_CHARS }),
  ])),
  /**
   * The composer's `@` menu: the workspace's files and folders best matching `query` (fuzzy, best first; at most
   * MAX_FILE_MATCHES), from a listing that leaves out ignored files, `.git` and private folders. Rejects when the chat
   * has no usable workspace.
   */
  listWorkspaceFiles: command<(query: string) => Promise<WorkspaceFileMatches>>()(Type.Tuple([Type.String({ maxLength: MAX_FILE_QUERY_CHARS })])),
  /**
   * Attaches a workspace file or folder (`path` relative to the workspace) for a message, as `putAttachment` stores
   * an upload: the worker reads it (a text file whole, an image, a folder as its listing), confined to the workspace
   * as its tools are, within the attachment limits. Rejects, saying why, for a path leading out of the workspace, a
   * binary file, one too large, or a chat without a workspace.
   */
  attachWorkspaceFile: command<(path: string) => Promise<AttachmentRef>>()(Type.Tuple([Type.String({ minLength: 1, maxLength: 4096 })])),
  /** A stored attachment's bytes (base64) and type, for showing it. Rejects when the session has no such file. */
  getAttachment: command<(id: string) => Promise<{ mimeType: string; data: string }>>()(
    Type.Tuple([Type.String({ pattern: ATTACHMENT_ID_PATTERN })]),
  ),
  /**
   * The whole output a call saved (bash's full output file, which its result's `details.fullOutputPath` names), for
   * "Open full output": its text, the first TOOL_OUTPUT_MAX_BYTES of it at most, and its size. Only a file in this
   * chat's own saved-output folder is read. Rejects, saying why, when the call saved none or the file is gone.
   */
  toolOutput: command<(toolCallId: string) => Promise<ToolOutputFile>>()(Type.Tuple([ToolCallId])),
  /** A subagent's session: whose it is (its parent chat and agent), for its own window's banner; null for a user's chat. */
  subagentOrigin: command<() => Promise<SubagentOrigin | null>>()(NoArgs),
  /**
   * Replaces the chat's own instructions and parameters (absent fields: the defaults), journaled and told to every
   * mirror; they apply from the next model request.
   */
  setChatOptions: command<(options: ChatOptions) => Promise<void>>()(Type.Tuple([ChatOptionsSchema])),
  /**
   * Stop: ends the active run, and a "Compact now" in progress. What the run leaves queued is held when it settles
   * (held-queue.ts), or cleared at once when the settings say so (`clearQueuesOnAbort`).
   */
  abort: command<() => Promise<void>>()(NoArgs),
  /** Empties the chat (messages, queues, held messages, title, what "allow for this chat" allowed), journaled. */
  reset: command<() => Promise<void>>({ page: false })(NoArgs),
  /**
   * "Compact now": the older turns are summarised by the chat's model and from then on the model gets the summary
   * and the newest messages (the transcript keeps every message; a `compaction` marker joins it). Rejects while a
   * run is active (it is not queued: automatic compaction already happens inside runs), when there is nothing to
   * compact, when summarising fails, or when Stop (`abort`) ends it.
   */
  compact: command<() => Promise<void>>()(NoArgs),
  /**
   * Edit and resend: the user message at `index` (on the active path) gets `text`, its attachments kept, as a new
   * version; the messages from it on stay as the earlier version (a branch: see shared/agent/branches.ts), and the
   * model answers. Resolves once the new version is accepted (journaled), as `prompt` does, while the model answers.
   * Rejects while a run is active, when the message is not the user's, or when the new message would be empty.
   */
  editMessage: command<(index: number, text: string) => Promise<void>>()(Type.Tuple([MessageIndex, Text])),
  /** Regenerate: the last reply gets a new version (the old one kept as a branch). Rejects while a run is active. */
  regenerate: command<() => Promise<void>>()(NoArgs),
  /**
   * Shows version `version` (0-based) of the messages at `at`: one small state event to the mirrors. Rejects while a
   * run is active, or when there is no such version.
   */
  switchBranch: command<(at: number, version: number) => Promise<void>>()(
    Type.Tuple([MessageIndex, Type.Integer({ minimum: 0, maximum: 100_000 })]),
  ),
  /**
   * Deletes the message at `index` with what answered it: the messages after it up to the next user message.
   * Rejects while a run is active, for a compaction marker, and for messages before the newest marker.
   */
  deleteMessage: command<(index: number) => Promise<void>>()(Type.Tuple([MessageIndex])),
  /** Drops every queued and held message; resolves when the queues are journaled. */
  clearQueues: command<() => Promise<void>>()(NoArgs),
  /** Drops the message at `index` of a queue; resolves when the queues are journaled. Rejects when there is none. */
  removeQueued: command<(queue: "steering" | "followUp", index: number) => Promise<void>>()(
    Type.Tuple([Type.Union([Type.Literal("steering"), Type.Literal("followUp")]), QueueIndex]),
  ),
  /**
   * "Send now" for the held message at `index`: while a run is active it rejoins its queue; otherwise it starts a
   * run, and this resolves once the message is accepted (journaled), as `prompt` does. Rejects when there is no such
   * message, or no model.
   */
  sendHeld: command<(index: number) => Promise<void>>()(Type.Tuple([QueueIndex])),
  /** "Discard" for the held message at `index`. Rejects when there is none. */
  discardHeld: command<(index: number) => Promise<void>>()(Type.Tuple([QueueIndex])),
  /** Switches the chat's model, journaled; main resolves the ref, and refuses one it cannot with the reason. */
  setModel: command<(model: ModelRef) => Promise<void>>()(Type.Tuple([ModelRefSchema])),
  /** The thinking level the chat's model is asked for, from its next request. */
  setThinkingLevel: command<(level: ThinkingLevel) => Promise<void>>()(Type.Tuple([ThinkingLevelSchema])),
  /**
   * Flushes pending events, then returns the state they lead to. With `tailMessages`, the snapshot carries at most
   * that many of the newest transcript messages (see `SessionSnapshot.historyStart`), so a long chat opens fast.
   */
  getSnapshot: command<(tailMessages?: number) => Promise<SessionSnapshot>>({ page: false })(
    Type.Union([Type.Tuple([]), Type.Tuple([Type.Integer({ minimum: 1, maximum: 1_000_000 })])]),
  ),
  /**
   * Flushes pending events, then returns transcript messages [start, end) (clamped to the transcript), on the active
   * path. Messages before the newest run only change by a reset, a whole-transcript replacement, or a branch, switch
   * or delete at an index before them, and all reach the mirror as events ahead of this reply (a mirror resyncs on
   * one that reaches before its loaded messages), so a page fetched for an older index is right or superseded.
   */
  getHistory: command<(start: number, end: number) => Promise<AgentMessage[]>>({ page: false })(
    Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 0 })]),
  ),
  /** The changes view (changes.ts): the files changed since a point, up to now. */
  listChanges: command<(since: ChangesSince) => Promise<ChangeSet>>()(CHANGES_ARGS.listChanges),
  /** One file's change between two checkpoints of a change set, with each hunk's authors. */
  fileDiff: command<(from: CheckpointId, to: CheckpointId, path: string) => Promise<FileDiff>>()(CHANGES_ARGS.fileDiff),
  /**
   * Takes back every change between the two checkpoints (a turn's, or since any point). Asked without an answer while
   * a file it would write changed outside the chat, it writes nothing and lists the conflicts (see `RevertResult`).
   */
  revertTurn: command<(from: CheckpointId, to: CheckpointId, answer?: ConflictAnswer) => Promise<RevertResult>>()(CHANGES_ARGS.revertTurn),
  /** Takes back one file's change, with the same conflict rule. */
  revertFile: command<(from: CheckpointId, to: CheckpointId, path: string, answer?: ConflictAnswer) => Promise<RevertResult>>()(
    CHANGES_ARGS.revertFile,
  ),
  /** Takes back one hunk of a file's change, named by its header as the file diff showed it; same conflict rule. */
  revertHunk: command<(from: CheckpointId, to: CheckpointId, path: string, header: string, answer?: ConflictAnswer) => Promise<RevertResult>>()(
    CHANGES_ARGS.revertHunk,
  ),
  /**
   * From a user message (transcript index): its files, the chat, or both, back to the state before it was sent (the
   * chat's later messages kept as a version, as an edit does); same conflict rule. The model is told, in its next
   * request, that files were restored.
   */
  rewind: command<(messageIndex: number, scope: RewindScope, answer?: ConflictAnswer) => Promise<RevertResult>>()(CHANGES_ARGS.rewind),
  /** Brings back what a revert or rewind took away; same conflict rule. */
  redo: command<(actionId: string, answer?: ConflictAnswer) => Promise<RevertResult>>()(CHANGES_ARGS.redo),
  /** "What the agent was told": the system prompt the next request carries, and the parts it is made of. */
  agentBriefing: command<() => Promise<AgentBriefing>>()(NoArgs),
};

type SessionCommandTable = typeof SESSION_COMMANDS;

/** The commands a session's worker serves, as callers and handlers see them (each documented in SESSION_COMMANDS). */
export type SessionApi = { [K in keyof SessionCommandTable]: NonNullable<SessionCommandTable[K]["signature"]> };

export type SessionMethod = keyof SessionApi;

/** The changes view's commands (issue 24: review, revert, rewind). */
export type ChangesMethod = "listChanges" | "fileDiff" | "revertTurn" | "revertFile" | "revertHunk" | "rewind" | "redo";
export type ChangesApi = Pick<SessionApi, ChangesMethod>;

/** The commands a page sends (`SessionCommands`): all but the client's own reads and `reset`. */
export type PageSessionMethod = { [K in SessionMethod]: SessionCommandTable[K]["page"] extends true ? K : never }[SessionMethod];

/** Every session method, in the table's order. */
export const SESSION_METHODS = Object.keys(SESSION_COMMANDS) as SessionMethod[];

/** The methods a page sends as commands (see `PageSessionMethod`). */
export const PAGE_SESSION_METHODS: readonly PageSessionMethod[] = SESSION_METHODS.filter(
  (method): method is PageSessionMethod => SESSION_COMMANDS[method].page,
);

/** Argument-list schemas, one per method: the only methods the worker will run. */
export const SESSION_METHOD_SCHEMAS = Object.fromEntries(SESSION_METHODS.map((method) => [method, SESSION_COMMANDS[method].args])) as {
  readonly [K in SessionMethod]: SessionCommandTable[K]["args"];
};

export function isSessionMethod(name: unknown): name is SessionMethod {
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(SESSION_COMMANDS, name);
}

/**
 * The worker's `SessionApi` from its handlers, one per command (a missing or unknown one fails to compile, as
 * `appApiWith` does for the AppApi): exactly the table's methods are served, each the handler given.
 */
export function sessionApiWith(handlers: SessionApi): SessionApi {
  const api: Partial<Record<SessionMethod, unknown>> = {};
  for (const method of SESSION_METHODS) {
    const handler: unknown = handlers[method];
    if (typeof handler !== "function") throw new Error(`The session command ${method} has no handler`);
    api[method] = handler;
  }
  return api as SessionApi;
}

/** The methods whose schema admits a call their TypeScript signature does not take (must be none). */
type Unsound = {
  [K in SessionMethod]: Static<SessionCommandTable[K]["args"]> extends Parameters<SessionApi[K]> ? never : K;
}[SessionMethod];
const everyAdmittedCallIsTyped: [Unsound] extends [never] ? true : Unsound = true;
void everyAdmittedCallIsTyped;
