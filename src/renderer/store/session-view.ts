import type { AgentMessage, ThinkingLevel } from "../../shared/agent/types";
import type { AgentStateData } from "../../shared/agent/state";
import type { ToolRuns } from "../../shared/agent/tool-runs";
import type { ModelRef } from "../../shared/protocol/app-api";
import type { ApprovalAnswer, ApprovalRequest, WorkspaceInfo } from "../../shared/protocol/session-protocol";
import type { AttachmentRef } from "../../shared/protocol/attachments";
import type { ChatOptions } from "../../shared/protocol/chat-options";
import type { HeldMessage } from "../../shared/protocol/held-messages";

/**
 * The page's link to the session's worker. "reconnecting": the link dropped (the worker died and main is starting
 * another, or the network hiccuped) and the client is getting a new one; "offline": the host itself (main, the
 * browser host) does not answer, and the client keeps trying; "closed": given up (the chat could not be opened).
 */
export type ConnectionStatus = "connecting" | "ready" | "reconnecting" | "offline" | "closed";

/** A notice the chat shows once, e.g. after the worker process died and was restarted. */
export interface SessionNotice {
  readonly id: number;
  readonly kind: "worker-restarted" | "error";
  readonly text: string;
  /** A model the chat names that is gone: the page offers the closest one it lists ("Use …"). */
  readonly model?: ModelRef;
}

/**
 * The readonly picture of one session that the UI renders. Produced by the mirror store from the worker's event
 * batches with the same reducer the worker uses; a new object whenever anything changed (so React can compare by
 * identity), the same object otherwise.
 */
export interface SessionView {
  readonly sessionId: string;
  readonly state: Readonly<AgentStateData>;
  /**
   * How many of the oldest transcript messages are not loaded yet: `state.messages[0]` is message number
   * `historyStart` of the session. A long chat opens with its newest messages and loads the rest behind them.
   */
  readonly historyStart: number;
  readonly steering: readonly AgentMessage[];
  readonly followUp: readonly AgentMessage[];
  /** Queued messages a Stop or a failed run left behind: they wait for "Send now" or "Discard". */
  readonly held: readonly HeldMessage[];
  readonly toolRuns: ToolRuns;
  /** Tool calls waiting for the user's yes or no. */
  readonly approvals: readonly ApprovalRequest[];
  /** The chat's workspace as its agent sees it; undefined: it has none. */
  readonly workspace?: WorkspaceInfo;
  /** The chat's own instructions and parameters; undefined or empty: the defaults. */
  readonly chatOptions?: ChatOptions;
  readonly connection: ConnectionStatus;
  readonly notices: readonly SessionNotice[];
}

/** Commands the UI sends to its session's worker. Every call rejects with a readable Error on failure. */
export interface SessionCommands {
  /** `attachments` were stored with `putAttachment` first. */
  prompt(text: string, attachments?: AttachmentRef[]): Promise<void>;
  steer(text: string, attachments?: AttachmentRef[]): Promise<void>;
  followUp(text: string, attachments?: AttachmentRef[]): Promise<void>;
  /** Stores a file (bytes in base64) in the session's folder for a message to carry; see SessionApi. */
  putAttachment(name: string, mimeType: string, data: string): Promise<AttachmentRef>;
  /** A stored attachment's bytes (base64) and type. */
  getAttachment(id: string): Promise<{ mimeType: string; data: string }>;
  setChatOptions(options: ChatOptions): Promise<void>;
  abort(): Promise<void>;
  /** Retry: asks again in place of a failed or interrupted reply. */
  continue(): Promise<void>;
  /** Continue: the model goes on from an interrupted or stopped reply. */
  continueReply(): Promise<void>;
  /** "Compact now": older turns summarised for the model (see SessionApi.compact); rejects while a run is active. */
  compact(): Promise<void>;
  /** Edit and resend a user message (its attachments kept); the old version stays as a branch. See SessionApi. */
  editMessage(index: number, text: string): Promise<void>;
  /** A new version of the last reply; the old one stays as a branch. */
  regenerate(): Promise<void>;
  /** Shows version `version` (0-based) of the messages at `at`. */
  switchBranch(at: number, version: number): Promise<void>;
  /** Deletes a message with the replies that answered it (up to the next user message). */
  deleteMessage(index: number): Promise<void>;
  removeQueued(queue: "steering" | "followUp", index: number): Promise<void>;
  clearQueues(): Promise<void>;
  /** "Send now" for a held message: it joins the running run's queue, or starts a run (resolving when it settles). */
  sendHeld(index: number): Promise<void>;
  discardHeld(index: number): Promise<void>;
  setModel(model: ModelRef): Promise<void>;
  setThinkingLevel(level: ThinkingLevel): Promise<void>;
  answerApproval(toolCallId: string, answer: ApprovalAnswer, reason?: string): Promise<void>;
  dismissNotice(id: number): void;
}
