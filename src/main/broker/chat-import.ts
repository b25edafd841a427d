/**
 * Paddock's JSON chat export read back (Electron-free): `parseChatExport` checks a file against the export's
 * schema, message by message (and its attachment files against their ids), and says in words what is wrong with one
 * that does not pass; nothing of a refused file is used. `writeImportedChat` makes the new chat from a checked export.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { Type, type TSchema } from "typebox";
import { ATTACHMENT_ID_PATTERN, isAttachmentId } from "../../shared/protocol/attachments";
import { ANY_KEY, KeyedRecord } from "../../shared/keyed-record";
import type { AgentMessage } from "../../shared/agent/types";
import type { ModelRef } from "../../shared/protocol/app-api";
import { schemaErrors } from "../../shared/schema-errors";
import { TranscriptWriter } from "../../shared-node/session-files/transcript-store";
import { attachmentsDir } from "../../shared-node/session-files/session-folder";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./chat-export";

const Num = Type.Number();
const Text = Type.Object({ type: Type.Literal("text"), text: Type.String() });
const Image = Type.Object({ type: Type.Literal("image"), data: Type.String(), mimeType: Type.String({ maxLength: 100 }) });
const Thinking = Type.Object({ type: Type.Literal("thinking"), thinking: Type.String() });
const ToolCall = Type.Object({ type: Type.Literal("toolCall"), id: Type.String(), name: Type.String(), arguments: KeyedRecord(ANY_KEY, Type.Unknown()) });
// pi-ai 1.6.0 added `cacheWrite1h` (the part of cacheWrite kept for an hour), `reasoning` (the part of output spent
// thinking) and `cost.totalFromProvider` (the total is what the provider billed, not the catalogue's estimate).
const Usage = Type.Object({
  input: Num,
  output: Num,
  cacheRead: Num,
  cacheWrite: Num,
  cacheWrite1h: Type.Optional(Num),
  reasoning: Type.Optional(Num),
  totalTokens: Num,
  cost: Type.Object({ input: Num, output: Num, cacheRead: Num, cacheWrite: Num, total: Num, totalFromProvider: Type.Optional(Type.Boolean()) }),
});
// "pending" and "deferred" (pi-ai 1.6.0) load as finished replies (settledReply in shared/agent/unfinished-reply.ts).
const StopReason = Type.Union(["stop", "length", "toolUse", "error", "aborted", "pending", "deferred"].map((r) => Type.Literal(r)));

/** One schema per role pi-ai knows; other fields (a newer Paddock's) are allowed and kept. */
const MESSAGE_SCHEMAS: Record<string, TSchema> = {
  // pi-ai 1.6.0's system messages: instructions at a point of the transcript.
  system: Type.Object({ role: Type.Literal("system"), content: Type.Union([Type.String(), Type.Array(Text)]), timestamp: Num }),
  user: Type.Object({ role: Type.Literal("user"), content: Type.Union([Type.String(), Type.Array(Type.Union([Text, Image]))]), timestamp: Num }),
  assistant: Type.Object({
    role: Type.Literal("assistant"),
    content: Type.Array(Type.Union([Text, Thinking, ToolCall])),
    api: Type.String(),
    provider: Type.String(),
    model: Type.String(),
    usage: Usage,
    stopReason: StopReason,
    errorMessage: Type.Optional(Type.String()),
    timestamp: Num,
  }),
  toolResult: Type.Object({
    role: Type.Literal("toolResult"),
    toolCallId: Type.String(),
    toolName: Type.String(),
    content: Type.Array(Type.Union([Text, Image])),
    isError: Type.Boolean(),
    timestamp: Num,
  }),
};
/** Paddock's own kinds of message (a compaction marker, say): named like an identifier, with a time. */
const OtherMessage = Type.Object({ role: Type.String({ pattern: "^[A-Za-z][A-Za-z0-9_-]{0,39}$" }), timestamp: Num });

const ExportHeader = Type.Object({
  format: Type.Literal(EXPORT_FORMAT),
  version: Type.Literal(EXPORT_VERSION),
  title: Type.String({ maxLength: 200 }),
  model: Type.Optional(Type.Object({ provider: Type.String({ minLength: 1, maxLength: 200 }), id: Type.String({ minLength: 1, maxLength: 200 }) })),
  exportedAt: Type.Optional(Type.String()),
  messages: Type.Array(Type.Object({ role: Type.String() }), { maxItems: 1_000_000 }),
  /** Files by attachment id: every key must be an id (`<sha256>.<ext>`), for each one becomes a file name. */
  attachments: Type.Optional(KeyedRecord(ATTACHMENT_ID_PATTERN, Type.String({ pattern: "^[A-Za-z0-9+/]*={0,2}$" }))),
});

/** A checked export: what a new chat is made of. */
export interface ImportedChat {
  title: string;
  model?: ModelRef;
  messages: AgentMessage[];
  /** Attachment files by id, each checked against its id (the SHA-256 of its bytes). */
  attachments: Record<string, Buffer>;
}

/** How many problems a refusal names (the first ones). */
const MAX_PROBLEMS = 3;

/** The chat in an export's text, or a readable Error saying why it is not a Paddock chat export. */
export function parseChatExport(text: string): ImportedChat {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`This file is not JSON, so not a Paddock chat export (${(error as Error).message}).`, { cause: error });
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof value !== "object" || value === null || format !== EXPORT_FORMAT) {
    throw new Error(`This file is not a Paddock chat export (export a chat as JSON from Paddock's chat menu to get one).`);
  }
  const problems = schemaErrors(ExportHeader, value, "export");
  const file = value as { title: string; model?: ModelRef; messages: AgentMessage[] };
  if (problems.length === 0) {
    file.messages.forEach((message, i) => {
      if (problems.length >= MAX_PROBLEMS) return;
      // schemaErrors names the root only for the message itself; nested fields are named from it.
      const where = `messages[${i}]`;
      const found = schemaErrors(MESSAGE_SCHEMAS[message.role] ?? OtherMessage, message, where);
      problems.push(...found.map((line) => (line.startsWith(where) ? line : `${where}.${line}`)));
    });
  }
  const attachments: Record<string, Buffer> = {};
  for (const [id, base64] of Object.entries((value as { attachments?: Record<string, string> }).attachments ?? {})) {
    if (problems.length > 0) break;
    // The schema refused every other key; said again here, where the key becomes a file name.
    if (!isAttachmentId(id)) {
      problems.push(`attachments: ${JSON.stringify(String(id).slice(0, 100))} is not an attachment's name`);
      continue;
    }
    const bytes = Buffer.from(base64, "base64");
    // An attachment's id is the hash of its bytes, then its extension: a file whose bytes do not hash to it is not
    // what it says.
    if (id !== `${createHash("sha256").update(bytes).digest("hex")}${id.slice(64)}`) problems.push(`attachments.${id}: its bytes do not match its id`);
    else attachments[id] = bytes;
  }
  if (problems.length > 0) {
    throw new Error(`This chat export cannot be imported: ${problems.slice(0, MAX_PROBLEMS).join("; ")}.`);
  }
  return { title: file.title.trim() || "Imported chat", ...(file.model ? { model: { provider: file.model.provider, id: file.model.id } } : {}), messages: file.messages, attachments };
}

/**
 * Writes a new chat: its attachment files into `<sessionDir>/attachments/`, then its transcript (title and model,
 * then the messages), flushed to disk. Throws, writing no file outside that folder, for an attachment whose id is
 * not a plain file name in it (parseChatExport lets none through; this holds even if one came another way).
 */
export async function writeImportedChat(file: string, sessionDir: string, chat: ImportedChat): Promise<void> {
  const folder = attachmentsDir(sessionDir);
  const targets = Object.entries(chat.attachments).map(([id, bytes]) => ({ path: join(folder, id), bytes, id }));
  for (const { path, id } of targets) {
    if (!isAttachmentId(id) || relative(folder, path) !== id) throw new Error(`This chat export cannot be imported: ${JSON.stringify(id.slice(0, 100))} is not an attachment's name.`);
  }
  if (targets.length > 0) {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // "wx": a new chat's folder is empty, so an existing file (or a link planted there) is never written through.
    for (const { path, bytes } of targets) await writeFile(path, bytes, { mode: 0o600, flag: "wx" });
  }
  const writer = await TranscriptWriter.open(file);
  try {
    await writer.append({ t: "meta", title: chat.title, ...(chat.model ? { model: chat.model } : {}) }, ...chat.messages.map((message) => ({ t: "message" as const, message })));
  } finally {
    await writer.close();
  }
}
