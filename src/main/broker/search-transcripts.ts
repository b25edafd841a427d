/**
 * Main reads what workers journal, for the search index: a transcript file (see shared-node/session-files/transcript-store.ts)
 * is append-only, so after the first read only the bytes added since are read. Appended `message` records are new
 * messages at the end; everything that could rearrange the transcript (a drop, a reset, records this reader does
 * not know, such as branches) sends it back to `loadTranscript`, the one place that replays a transcript, so the
 * messages here are always the transcript's own, numbered as the chat numbers them.
 */
import { open, stat } from "node:fs/promises";
import type { AgentMessage } from "../../shared/agent/types";
import { isInterruptedReply } from "../../shared/agent/unfinished-reply";
import { loadTranscript } from "../../shared-node/session-files/transcript-store";
import { TRANSCRIPT_FORMAT } from "../../shared-node/session-files/transcript-format";
import { isRecord } from "../../shared/is-record";

/** Where reading stopped: the byte after the last record taken, and how many messages the transcript had there. */
export interface TranscriptCursor {
  offset: number;
  messages: number;
  /**
   * The next read replays the whole file: the last replay may have raced a write, or ended on a reply still
   * streaming (which `loadTranscript` shows as interrupted, and whose own message then takes its place).
   */
  replay?: boolean;
}

export type TranscriptChange =
  /** Messages were added at the end, from number `cursor.messages` of the old cursor on. */
  | { kind: "appended"; messages: AgentMessage[]; cursor: TranscriptCursor }
  /** The transcript as a whole (the first read, or after a change only a replay can follow). */
  | { kind: "replayed"; messages: AgentMessage[]; cursor: TranscriptCursor };

/** Records that leave the message list alone. */
const QUIET_RECORDS = new Set(["queues", "meta", "grant"]);

/**
 * What changed in `file` since `cursor` (undefined: never read). A missing file is an empty transcript. Rejects only
 * when the file exists but cannot be read.
 */
export async function readTranscriptChanges(file: string, cursor: TranscriptCursor | undefined): Promise<TranscriptChange> {
  const size = await fileSize(file);
  if (!cursor || cursor.replay || size < cursor.offset) return replay(file, size);
  if (size === cursor.offset) return { kind: "appended", messages: [], cursor };
  const bytes = await readRange(file, cursor.offset, size);
  const messages: AgentMessage[] = [];
  /** The end of the last whole line taken, relative to `cursor.offset`. */
  let taken = 0;
  /** Where the checkpoints of a reply not yet ended start: reading resumes there next time. */
  let partialFrom: number | undefined;
  // Lines are cut at newline bytes, which UTF-8 never uses inside a character.
  for (let start = 0, end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) {
    taken = end + 1;
    const line = bytes.toString("utf8", start, end);
    if (line.trim() === "") continue;
    const record = parse(line);
    // A record in another format than today's is the loader's to read (or to refuse, when it is newer).
    if (record?.v !== undefined && record.v !== TRANSCRIPT_FORMAT) return replay(file, size);
    if (record?.t === "message" && isMessage(record.message)) {
      // A reply's own message supersedes its checkpoints; a message of any other role after them means the reply was
      // interrupted, which only a replay numbers right.
      if (partialFrom !== undefined && record.message.role !== "assistant") return replay(file, size);
      partialFrom = undefined;
      messages.push(record.message);
    } else if (record?.t === "partial") {
      partialFrom ??= start;
    } else if (record === undefined || typeof record.t !== "string" || !QUIET_RECORDS.has(record.t)) {
      return replay(file, size);
    }
  }
  // A last line without its newline is still being written (or torn): it is read again next time.
  return { kind: "appended", messages, cursor: { offset: cursor.offset + (partialFrom ?? taken), messages: cursor.messages + messages.length } };
}

async function replay(file: string, size: number): Promise<TranscriptChange> {
  const loaded = await loadTranscript(file);
  const after = await fileSize(file);
  const raced = after !== size;
  const last = loaded.messages[loaded.messages.length - 1];
  const cursor: TranscriptCursor = { offset: size, messages: loaded.messages.length, ...(raced || isInterruptedReply(last) ? { replay: true } : {}) };
  return { kind: "replayed", messages: loaded.messages, cursor };
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

async function readRange(file: string, from: number, to: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(to - from);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, from + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}

function parse(line: string): { t?: unknown; v?: unknown; message?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isMessage(value: unknown): value is AgentMessage {
  return isRecord(value) && typeof value.role === "string";
}
