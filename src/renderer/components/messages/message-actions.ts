import type { AgentMessage } from "../../../shared/agent/types";
import type { BranchPoint } from "../../../shared/agent/branches";
import type { RewindScope } from "../../../shared/protocol/changes";

/**
 * What a message row may do to the chat, and when: ChatView provides it (message-actions-context.ts), each row's
 * action bar reads it. Kept apart from the rows' props so a run starting or a branch switching re-renders only the
 * bars in view, not every row. (No React here: Node tests load this file.)
 */
export interface MessageActionsValue {
  /** Why nothing that changes the transcript is offered now (a run is active, the link is down); else undefined. */
  blocked?: string;
  /** The versions of the active path (session-wide indexes). */
  branches?: readonly BranchPoint[];
  /** Session-wide index of the last message: its row offers Regenerate (and Continue when that applies). */
  lastIndex: number;
  /** The last reply was stopped or interrupted with something said: Continue is offered on it. */
  canContinue: boolean;
  editMessage(index: number, text: string): Promise<void>;
  regenerate(): Promise<void>;
  continueReply(): Promise<void>;
  switchBranch(at: number, version: number): Promise<void>;
  deleteMessage(index: number): Promise<void>;
  /** Rewinds from a user message: its files, the chat or both (the changes view's, which shows its outcome); absent: not offered. */
  rewind?(index: number, scope: RewindScope): void;
  /** Shows a failed action's reason (the chat's error banner). */
  onError(error: unknown): void;
}

/**
 * A message as Markdown, for Copy: a user message's text as written; a reply's text blocks (its Markdown) in order,
 * with tool calls as a line naming them, thinking left out (it is not what the model said).
 */
export function messageMarkdown(message: AgentMessage): string {
  if (message.role === "user") {
    return typeof message.content === "string" ? message.content : message.content.map((b) => (b.type === "text" ? b.text : "")).filter(Boolean).join("\n\n");
  }
  if (message.role === "assistant") {
    const parts: string[] = [];
    for (const block of message.content) {
      if (block.type === "text" && block.text) parts.push(block.text);
      else if (block.type === "toolCall") parts.push(`\`${block.name}(${JSON.stringify(block.arguments)})\``);
    }
    return parts.join("\n\n");
  }
  return "";
}
