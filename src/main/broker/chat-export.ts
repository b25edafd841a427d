/**
 * A chat as a file (Electron-free): Markdown to read anywhere, or Paddock's JSON export, which `parseChatExport`
 * (chat-import.ts) takes back as a new chat. Both are made from the transcript as its worker would load it
 * (`loadTranscript`), so they hold the chat as it shows: the messages of its current path, in order.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentMessage } from "../../shared/agent/types";
import { attachmentsOf, isAttachmentId } from "../../shared/protocol/attachments";
import type { ChatExport, ChatExportFormat, ModelRef } from "../../shared/protocol/app-api";
import { searchableText } from "../../shared/search/searchable-text";
import { attachmentsDir } from "../../shared-node/session-files/session-folder";

/** What identifies Paddock's JSON export (`format`), and the version of its shape. */
export const EXPORT_FORMAT = "paddock-chat";
export const EXPORT_VERSION = 1;

/** Paddock's JSON export of a chat. */
export interface ChatExportFile {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  title: string;
  model?: ModelRef;
  /** ISO 8601. */
  exportedAt: string;
  messages: AgentMessage[];
  /** The files the messages' attachments refer to, by attachment id (base64); absent when there are none. */
  attachments?: Record<string, string>;
}

export interface ChatContent {
  title: string;
  model?: ModelRef;
  messages: readonly AgentMessage[];
  /** Attachment files by id, for the JSON export (see `readAttachments`). */
  attachments?: Record<string, Buffer>;
}

/** The export of a chat in `format`, named after its title. */
export function exportChat(chat: ChatContent, format: ChatExportFormat, now = new Date()): ChatExport {
  const base = fileBaseName(chat.title);
  if (format === "json") {
    const file: ChatExportFile = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      title: chat.title,
      ...(chat.model ? { model: chat.model } : {}),
      exportedAt: now.toISOString(),
      messages: [...chat.messages],
      ...(chat.attachments && Object.keys(chat.attachments).length > 0
        ? { attachments: Object.fromEntries(Object.entries(chat.attachments).map(([id, bytes]) => [id, bytes.toString("base64")])) }
        : {}),
    };
    return { fileName: `${base}.json`, mimeType: "application/json", text: `${JSON.stringify(file, null, 2)}\n` };
  }
  return { fileName: `${base}.md`, mimeType: "text/markdown", text: chatMarkdown(chat, now) };
}

/**
 * The chat as Markdown: a heading per message ("You", "Assistant"), its text as written (it is Markdown already),
 * tool calls and results as folded `<details>` with their arguments and output in code blocks, summaries of older
 * messages as quotes. Thinking is left out, as the chat folds it away.
 */
function chatMarkdown(chat: ChatContent, now = new Date()): string {
  const out: string[] = [`# ${oneLine(chat.title) || "Chat"}`, ""];
  const about = [`Exported from Paddock on ${now.toISOString().slice(0, 10)}`];
  if (chat.model) about.push(`model ${chat.model.provider}/${chat.model.id}`);
  out.push(`_${about.join(" · ")}_`, "");
  for (const message of chat.messages) {
    const text = searchableText(message);
    switch (message.role) {
      case "user":
        out.push("## You", "", text, "");
        break;
      case "assistant": {
        out.push("## Assistant", "");
        if (text) out.push(text, "");
        for (const part of message.content) {
          if (part.type === "toolCall") out.push(details(`Tool call: ${part.name}`, fenced(JSON.stringify(part.arguments, null, 2), "json")), "");
        }
        if (message.stopReason === "error" && message.errorMessage) out.push(`> **Error:** ${oneLine(message.errorMessage)}`, "");
        break;
      }
      case "toolResult": {
        const output = message.content.map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`)).join("\n");
        out.push(details(`${message.isError ? "Tool error" : "Tool result"}: ${message.toolName}`, fenced(output)), "");
        break;
      }
      default: {
        const summary = (message as { summary?: unknown }).summary;
        if (typeof summary === "string") out.push(`> **Summary of earlier messages**`, ">", ...summary.split("\n").map((line) => `> ${line}`), "");
      }
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

/** A file name from a title: letters, digits, spaces, dots, dashes and underscores, at most 80 characters. */
export function fileBaseName(title: string): string {
  const cleaned = title.replace(/[^\p{L}\p{N} ._-]+/gu, " ").replace(/\s+/g, " ").trim().replace(/^\.+/, "").slice(0, 80).trim();
  return cleaned || "chat";
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function details(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

/** A code block whose fence is longer than any run of backticks in the text. */
function fenced(text: string, language = ""): string {
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The files the messages' attachments refer to, read from the chat's attachment folder
 * (`<sessionDir>/attachments/<id>`), so a JSON export carries them. One that is gone is left out (the message keeps
 * its reference, shown as missing, as in the chat itself).
 */
export async function readAttachments(sessionDir: string, messages: readonly AgentMessage[]): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const message of messages) {
    for (const ref of attachmentsOf(message)) {
      if (files[ref.id] || !isAttachmentId(ref.id)) continue;
      const bytes = await readFile(join(attachmentsDir(sessionDir), ref.id)).catch(() => undefined);
      if (bytes) files[ref.id] = bytes;
    }
  }
  return files;
}
