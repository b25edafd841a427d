/**
 * The chat page's side of the changes view, in a plain module Node tests load: what a tool card's result says it
 * changed, which turn a call belongs to, the user messages the "since" chooser offers, and how a revert, rewind or
 * redo reads when it is done.
 */
import type { AgentMessage } from "../../../shared/agent/types";
import type { ChangeCounts } from "../../../shared/changes/summary";
import { toolFileChanges, type ChangesSince, type RevertResult, type RewindScope } from "../../../shared/protocol/changes";
import { contentText } from "../../../shared/agent/content-text";
import type { FilesRestoredMessage } from "../../../shared/agent/files-restored";

/**
 * What a tool call changed, as its result's details carry it ("N files changed, +a −r": the worker adds it to a
 * call that changed files, a subagent call's for its whole task; `toolFileChanges`). Undefined when the call changed
 * nothing or its result says nothing about it.
 */
export function changeCountsOf(details: unknown): ChangeCounts | undefined {
  const changes = toolFileChanges(details);
  if (!changes || !isCount(changes.files) || changes.files === 0) return undefined;
  return { files: changes.files, added: isCount(changes.added) ? changes.added : 0, removed: isCount(changes.removed) ? changes.removed : 0 };
}

function isCount(n: number): boolean {
  return Number.isInteger(n) && n >= 0;
}

/** Whether any tool result among `messages` says it changed files (then the header's button shows a count). */
export function anyChangeCounts(messages: readonly AgentMessage[]): boolean {
  return messages.some((m) => m.role === "toolResult" && changeCountsOf(m.details) !== undefined);
}

/**
 * The turn a tool call was made in, as the session-wide index of the user message that started it; undefined when
 * that message is not loaded (the chat's older messages) or the call is not found.
 */
export function turnOfCall(messages: readonly AgentMessage[], historyStart: number, toolCallId: string): number | undefined {
  let turn: number | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "user") turn = historyStart + i;
    else if (m.role === "assistant" && m.content.some((b) => b.type === "toolCall" && b.id === toolCallId)) return turn;
  }
  return undefined;
}

/** The user messages the "since" chooser offers: each one's session-wide index and its text in a line. */
export function userMessagePoints(messages: readonly AgentMessage[], historyStart: number): { index: number; text: string }[] {
  const points: { index: number; text: string }[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user") points.push({ index: historyStart + i, text: contentText(m.content, " ", () => "") });
  });
  return points;
}

/** The file a call wrote, when it names one (`write`, `edit`): the panel opens on it. */
export function pathOfCall(name: string, args: unknown): string | undefined {
  if (name !== "write" && name !== "edit") return undefined;
  const path = (args as { path?: unknown } | undefined)?.path;
  return typeof path === "string" && path.length > 0 ? path.replace(/^\.\//, "") : undefined;
}

/** What a rewind does, as its menu item and its notice say it. */
export const REWIND_LABELS: Record<RewindScope, { item: string; done: string }> = {
  files: { item: "Rewind files", done: "Files rewound" },
  chat: { item: "Rewind chat", done: "Chat rewound" },
  both: { item: "Rewind both", done: "Files and chat rewound" },
};

/** A done revert, rewind or redo in a line: "Files rewound: 3 files restored; 1 kept as it is."; "Chat rewound." when no file was touched. */
export function doneText(what: string, result: Extract<RevertResult, { done: true }>): string {
  const n = result.reverted.length;
  if (n === 0 && result.kept.length === 0 && result.noCopy.length === 0) return `${what}.`;
  const parts = [`${n} ${n === 1 ? "file" : "files"} restored`];
  if (result.kept.length > 0) parts.push(`${result.kept.length} kept as ${result.kept.length === 1 ? "it is" : "they are"}`);
  if (result.noCopy.length > 0) parts.push(`${result.noCopy.length} without a copy left unchanged`);
  return `${what}: ${parts.join("; ")}.`;
}

/** The "since" point a chooser key names ("chat", "turn", "message:4"); "chat" for a key it does not know. */
export function sinceOfKey(key: string): ChangesSince {
  if (key === "turn") return { kind: "turn" };
  if (key === "base") return { kind: "base" };
  // A recorded span's two checkpoints ("/" is in no checkpoint's id).
  const span = /^range\/([^/]+)\/([^/]+)$/.exec(key);
  if (span) return { kind: "range", from: span[1], to: span[2] };
  const index = /^message:(\d+)$/.exec(key)?.[1];
  return index !== undefined ? { kind: "message", index: Number(index) } : { kind: "chat" };
}

/** A files-restored marker in a line: "Files rewound: src/a.ts, b.txt and 3 more — the agent is told." */
export function filesRestoredText(marker: Pick<FilesRestoredMessage, "action" | "paths">): string {
  const what = marker.action === "rewind" ? "Files rewound" : marker.action === "redo" ? "Changes brought back" : "Changes taken back";
  const named = marker.paths.slice(0, 5);
  const more = marker.paths.length - named.length;
  const files = named.length === 0 ? "no files" : `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
  return `${what}: ${files}. The agent is told in its next request.`;
}
