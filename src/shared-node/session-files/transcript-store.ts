/**
 * One append-only JSONL file per session (where: session-folder.ts). Its live session's worker appends to it while it
 * runs; chat import writes a new session's file through the same writer before any worker opens it. Records are
 * journal entries replayed in order by `loadTranscript`, in the format transcript-format.ts numbers and upgrades.
 * Appends are flushed to disk before they resolve, so whatever the worker acknowledged survives a crash; a crash
 * mid-write leaves at most a torn last line, which the loader skips.
 * Checkpoints of a streaming reply are the exception (see `appendCheckpoint`).
 */
import { mkdir, open, readFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../shared/agent/types";
import { isGrant } from "./grant-format";
import { interruptedReply, settledReply } from "../../shared/agent/unfinished-reply";
import { applyPatches, type Patch } from "../../shared/protocol/message-patch";
import { chatOptionsProblem, type ChatOptions } from "../../shared/protocol/chat-options";
import { parseCompactionRecord, type CompactionRecord } from "./compaction-record";
import { applyBranchRecord, parseBranchRecord, type BranchRecord } from "./branch-records";
import { parseWorkspaceCheckpointRecord, type WorkspaceCheckpoint, type WorkspaceCheckpointRecord } from "./workspace-checkpoint-record";
import { prunePath, type BranchPoint } from "../../shared/agent/branches";
import { isHeldMessage, type HeldMessage } from "../../shared/protocol/held-messages";
import { isRecord } from "../../shared/is-record";
import { declaredFormat, stamped, TRANSCRIPT_FORMAT, TranscriptFormatError, TranscriptUpgrade } from "./transcript-format";

export type TranscriptRecord =
  /** A message joined the transcript. An assistant message also ends the checkpoints of its reply, if any. */
  | { t: "message"; message: AgentMessage }
  /**
   * A checkpoint of the assistant reply streaming now (see reply-checkpoints.ts): the first of a reply carries the
   * reply so far, later ones only what streamed since, as message patches (streamed text as `{p, a}` appends), so
   * a reply costs O(its length) on disk. The reply's `message` record supersedes them. When the file ends, or a
   * message of another role follows (a restarted worker went on), the reply was interrupted: the loader gives it
   * back as an error reply marked so (`interruptedReply`). Patch records count on from the whole one (`n`: 1, 2,
   * ...); after a gap (a checkpoint whose write failed) the loader keeps the reply as it was before the gap, until a
   * whole record starts it again, so a lost write can never leave a hole in the middle of a reply.
   */
  | { t: "partial"; message: AssistantMessage }
  | { t: "partial"; n: number; p: Patch[] }
  /**
   * The whole steering and follow-up queues as they are now, and the messages held after a Stop or a failed run
   * (`held`, absent when none: see held-queue.ts); the last such record wins.
   */
  | { t: "queues"; steering: AgentMessage[]; followUp: AgentMessage[]; held?: HeldMessage[] }
  /** The caller replaced the whole transcript (older files; the worker now writes `drop`). */
  | { t: "replace"; messages: AgentMessage[] }
  /** The newest `count` messages left the transcript (Retry drops the failed reply; an interrupted one counts). */
  | { t: "drop"; count: number }
  /** Clears messages, checkpoints, queues and tool grants (as Agent.reset does); title and model stay. */
  | { t: "reset" }
  /** The user allowed a tool (`tool:<name>`), or shell commands starting a way (`bash:<prefix>`), for this chat. */
  | { t: "grant"; grant: string }
  /** Older messages were summarised: the marker (shared/agent/compaction.ts) joins the messages; see compaction-record.ts. */
  | CompactionRecord
  /** Edit, Regenerate, a switch between versions, Delete: see branch-records.ts. */
  | BranchRecord
  /** The chat recorded its workspace's state (workspace-checkpoint-record.ts); kept through `reset`. */
  | WorkspaceCheckpointRecord
  /**
   * Session metadata; fields present override, fields absent keep their value. `chatOptions` is the chat's whole
   * set of instructions and parameters (setChatOptions), replacing the last one.
   */
  | { t: "meta"; title?: string; model?: { provider: string; id: string }; chatOptions?: ChatOptions };

export interface TranscriptProblem {
  /** 1-based line number in the file. */
  line: number;
  kind: "torn-last-line" | "corrupt-line";
  detail: string;
}

export interface LoadedTranscript {
  /** The active path. */
  messages: AgentMessage[];
  /** The other versions (shared/agent/branches.ts); absent when there are none. */
  branches?: BranchPoint[];
  steering: AgentMessage[];
  followUp: AgentMessage[];
  /** Queued messages held after a Stop or a failed run; absent when none. */
  held?: HeldMessage[];
  title?: string;
  model?: { provider: string; id: string };
  /** The chat's own instructions and parameters, when it has any. */
  chatOptions?: ChatOptions;
  /** What the user allowed for this chat (see grant-format.ts). */
  grants: string[];
  /** The chat's recorded states of its workspace, oldest first (workspace-checkpoint-record.ts); absent when none. */
  workspaceCheckpoints?: WorkspaceCheckpoint[];
  problems: TranscriptProblem[];
}

/**
 * Replays a transcript file, upgrading records of older formats on the way (transcript-format.ts). A missing file is
 * an empty transcript. Never throws on bad content: a line that does not parse or is not a valid record is skipped
 * and reported, as "torn-last-line" when it is the final line and has no trailing newline (a crash mid-write), else
 * "corrupt-line". A complete final record lacking only its newline is kept: the data is whole. Rejects when the file
 * exists but cannot be read, and with a TranscriptFormatError when a record declares a format newer than this
 * version's (a newer Paddock wrote it: nothing of it is replayed, and the file is not touched).
 */
export async function loadTranscript(file: string): Promise<LoadedTranscript> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { messages: [], steering: [], followUp: [], grants: [], problems: [] };
    throw error;
  }
  const result: LoadedTranscript = { messages: [], steering: [], followUp: [], grants: [], problems: [] };
  const replay: Replay = { loaded: result };
  const upgrade = new TranscriptUpgrade();
  /** The format of the records read now: 1 until a record declares one. */
  let format = 1;
  const lines = text.split("\n");
  // After a final newline, split() yields one empty string; without one, the last element is an unterminated line.
  const lastTerminated = text.endsWith("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    const torn = i === lines.length - 1 && !lastTerminated;
    const value = parseLine(line);
    const declared = typeof value === "string" ? undefined : declaredFormat(value);
    if (typeof declared === "number" && declared > TRANSCRIPT_FORMAT) throw new TranscriptFormatError(declared, i + 1);
    if (typeof declared === "number") format = declared;
    const parsed = typeof value === "string" ? value : typeof declared === "string" ? declared : parseRecord(upgrade.upgrade(value, format));
    const problem = typeof parsed === "string" ? parsed : apply(replay, parsed);
    if (problem !== undefined) result.problems.push({ line: i + 1, kind: torn ? "torn-last-line" : "corrupt-line", detail: problem });
  }
  endInterruptedReply(replay);
  return result;
}

/** The transcript being replayed, plus the checkpointed reply not yet superseded by its final message. */
interface Replay {
  loaded: LoadedTranscript;
  partial?: AssistantMessage;
  /** The number of the last checkpoint applied to `partial` (the whole one is 0); undefined after a gap. */
  partialSeq?: number;
}

/** A checkpointed reply that was never finished joins the transcript as an interrupted reply. */
function endInterruptedReply(replay: Replay): void {
  if (replay.partial) replay.loaded.messages.push(interruptedReply(replay.partial));
  replay.partial = undefined;
}

/** Applies one record; returns a description when it cannot be applied (and changes nothing). */
function apply(replay: Replay, record: TranscriptRecord): string | undefined {
  const state = replay.loaded;
  switch (record.t) {
    case "message":
      // The reply's own final message supersedes its checkpoints; any other message means the reply never ended.
      if (record.message.role === "assistant") replay.partial = undefined;
      else endInterruptedReply(replay);
      // A reply stored as "pending" or "deferred" (pi-ai 1.6.0's unfinished stop reasons) loads as a finished one.
      state.messages.push(settledReply(record.message));
      break;
    case "partial":
      if ("message" in record) {
        replay.partial = record.message;
        replay.partialSeq = 0;
      } else if (!replay.partial) return "partial record with patches but no checkpointed reply to apply them to";
      else if (replay.partialSeq === undefined || record.n !== replay.partialSeq + 1) {
        replay.partialSeq = undefined; // a checkpoint is missing: what follows it cannot be trusted
        return `partial record ${record.n} follows a missing checkpoint; the reply is kept as it was before`;
      } else {
        replay.partial = applyPatches(replay.partial, record.p);
        replay.partialSeq = record.n;
      }
      break;
    case "queues":
      state.steering = record.steering;
      state.followUp = record.followUp;
      if (record.held) state.held = record.held;
      else delete state.held;
      break;
    case "replace":
      replay.partial = undefined;
      state.messages = record.messages;
      state.branches = undefined;
      break;
    case "drop":
      // An unfinished reply was the newest message as the worker saw it (it loaded it as an interrupted one).
      endInterruptedReply(replay);
      state.messages = state.messages.slice(0, Math.max(0, state.messages.length - record.count));
      state.branches = prunePath(state).branches;
      break;
    case "branch":
    case "switch":
    case "delete":
      // As for drop: an unfinished reply was the newest message the worker had when it branched.
      endInterruptedReply(replay);
      return applyBranchRecord(state, record);
    case "reset":
      replay.partial = undefined;
      state.messages = [];
      state.branches = undefined;
      state.steering = [];
      state.followUp = [];
      delete state.held;
      state.grants = [];
      break;
    case "grant":
      if (!state.grants.includes(record.grant)) state.grants.push(record.grant);
      break;
    case "compaction": {
      endInterruptedReply(replay);
      const { t: _t, ...marker } = record;
      if (marker.firstKeptIndex >= state.messages.length) return `compaction record keeps messages from ${marker.firstKeptIndex}, past the ${state.messages.length} before it`;
      state.messages.push({ role: "compaction", ...marker });
      break;
    }
    case "workspace-checkpoint": {
      const { t: _t, ...checkpoint } = record;
      (state.workspaceCheckpoints ??= []).push(checkpoint);
      break;
    }
    case "meta":
      if (record.title !== undefined) state.title = record.title;
      if (record.model !== undefined) state.model = record.model;
      if (record.chatOptions !== undefined) state.chatOptions = record.chatOptions;
      break;
  }
  return undefined;
}

/** The JSON object on this line, or a description of what is wrong with it. */
function parseLine(line: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  return isRecord(value) ? value : "not a JSON object";
}

/** The record (in today's format) in `value`, only its known fields, or a description of what is wrong with it. */
function parseRecord(value: Record<string, unknown>): TranscriptRecord | string {
  switch (value.t) {
    case "message":
      return isMessage(value.message) ? { t: "message", message: value.message } : "message record without a valid message";
    case "partial":
      if (value.message !== undefined) {
        return isAssistantMessage(value.message) ? { t: "partial", message: value.message } : "partial record without a valid assistant message";
      }
      return Number.isInteger(value.n) && (value.n as number) > 0 && isPatchList(value.p)
        ? { t: "partial", n: value.n as number, p: value.p }
        : "partial record without a message, or patches with their number";
    case "queues":
      if (!isMessageList(value.steering) || !isMessageList(value.followUp)) return "queues record without valid steering and followUp lists";
      if (value.held === undefined) return { t: "queues", steering: value.steering, followUp: value.followUp };
      return Array.isArray(value.held) && value.held.every(isHeldMessage)
        ? { t: "queues", steering: value.steering, followUp: value.followUp, held: value.held }
        : "queues record with an invalid held list";
    case "replace":
      return isMessageList(value.messages) ? { t: "replace", messages: value.messages } : "replace record without a valid message list";
    case "drop":
      return Number.isInteger(value.count) && (value.count as number) > 0 ? { t: "drop", count: value.count as number } : "drop record without a positive count";
    case "reset":
      return { t: "reset" };
    case "grant":
      return isGrant(value.grant) ? { t: "grant", grant: value.grant } : "grant record without a valid grant";
    case "compaction":
      return parseCompactionRecord(value);
    case "branch":
    case "switch":
    case "delete":
      return parseBranchRecord(value);
    case "workspace-checkpoint":
      return parseWorkspaceCheckpointRecord(value);
    case "meta": {
      if (value.title !== undefined && typeof value.title !== "string") return "meta record with a non-string title";
      if (value.model !== undefined && !isModelRef(value.model)) return "meta record with an invalid model";
      const optionsProblem = value.chatOptions === undefined ? undefined : chatOptionsProblem(value.chatOptions);
      if (optionsProblem) return `meta record with invalid chat options (${optionsProblem})`;
      const meta: TranscriptRecord = { t: "meta" };
      if (value.title !== undefined) meta.title = value.title;
      if (value.model !== undefined) meta.model = { provider: value.model.provider, id: value.model.id };
      if (value.chatOptions !== undefined) meta.chatOptions = value.chatOptions as ChatOptions;
      return meta;
    }
    default:
      return `unknown record type ${JSON.stringify(value.t)}`;
  }
}

function isMessage(value: unknown): value is AgentMessage {
  return isRecord(value) && typeof value.role === "string";
}

function isAssistantMessage(value: unknown): value is AssistantMessage {
  return isMessage(value) && value.role === "assistant" && Array.isArray((value as { content?: unknown }).content);
}

function isPatchList(value: unknown): value is Patch[] {
  return (
    Array.isArray(value) &&
    value.every(
      (patch) =>
        isRecord(patch) &&
        Array.isArray(patch.p) &&
        patch.p.length > 0 &&
        patch.p.every((key: unknown) => typeof key === "string" || (Number.isInteger(key) && (key as number) >= 0)) &&
        (typeof patch.a === "string" || "v" in patch || patch.d === 1),
    )
  );
}

function isMessageList(value: unknown): value is AgentMessage[] {
  return Array.isArray(value) && value.every(isMessage);
}

function isModelRef(value: unknown): value is { provider: string; id: string } {
  return isRecord(value) && typeof value.provider === "string" && typeof value.id === "string";
}

/**
 * Appends records to one transcript file. Appends are serialized in call order; each resolves only after its
 * records are on disk (fdatasync; checkpoints only written). A failed append rejects without blocking later ones, and the next append starts
 * on a fresh line so a partial write cannot glue onto the following record. The first record written after opening
 * carries the format (`v`, transcript-format.ts), so records appended to a file an older version began say which
 * format they are in.
 */
export class TranscriptWriter {
  private tail: Promise<void> = Promise.resolve();
  private closing?: Promise<void>;
  /** Whether a record carrying the format was handed to a write that has not failed. */
  private formatWritten = false;

  private constructor(
    private readonly handle: FileHandle,
    /** Whether the file may end mid-line (torn by a crash or a failed write). */
    private needsNewline: boolean,
  ) {}

  /**
   * Opens `file` for appending, creating it (0600) and its folders (0700): a transcript is its user's alone. If the
   * file ends mid-line, the next write starts on a new line.
   */
  static async open(file: string): Promise<TranscriptWriter> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(file, "a+", 0o600);
    try {
      const { size } = await handle.stat();
      let needsNewline = false;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        needsNewline = last[0] !== 0x0a;
      }
      return new TranscriptWriter(handle, needsNewline);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Appends the records as one write and flushes them to disk (fdatasync) before resolving; writes are
   * serialized. Rejects, writing nothing, if a record cannot be serialized; rejects after close().
   */
  append(...records: TranscriptRecord[]): Promise<void> {
    return this.enqueue(records, true);
  }

  /**
   * Appends like `append` but resolves without fdatasync: checkpoints of a streaming reply come twice a second,
   * and what they guard against is a process dying (a killed worker, a crashed app), which does not lose writes
   * already in the page cache. A power cut may lose them, but then only the unfinished reply; the next synced
   * append (the reply's final message, at the latest) flushes them too.
   */
  appendCheckpoint(record: TranscriptRecord): Promise<void> {
    return this.enqueue([record], false);
  }

  private enqueue(records: TranscriptRecord[], sync: boolean): Promise<void> {
    if (this.closing) return Promise.reject(new Error("TranscriptWriter is closed"));
    let data: string;
    const stamps = !this.formatWritten && records.length > 0;
    try {
      data = records.map((record, i) => JSON.stringify(stamps && i === 0 ? stamped(record) : record) + "\n").join("");
    } catch (error) {
      return Promise.reject(error);
    }
    if (data === "") return this.tail;
    if (stamps) this.formatWritten = true;
    const done = this.tail.then(() => this.write(data, sync));
    this.tail = done.catch(() => {
      // The record carrying the format may not be on disk: the next write carries it again.
      if (stamps) this.formatWritten = false;
    });
    return done;
  }

  /** Waits for pending appends, then closes the file. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.tail.then(() => this.handle.close());
    return this.closing;
  }

  private async write(data: string, sync: boolean): Promise<void> {
    const buffer = Buffer.from(this.needsNewline ? "\n" + data : data, "utf8");
    this.needsNewline = true; // until the whole buffer is known to be written
    let offset = 0;
    while (offset < buffer.length) {
      // In append mode the position is ignored: every write lands at the end of the file.
      const { bytesWritten } = await this.handle.write(buffer, offset, buffer.length - offset);
      offset += bytesWritten;
    }
    this.needsNewline = false;
    if (sync) await this.handle.datasync();
  }
}
