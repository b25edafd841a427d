import type { BudgetMeter } from "../../shared/protocol/budget-meter";
import type { AgentMessage } from "../../shared/agent/types";
import type { AgentStateData } from "../../shared/agent/state";
import type { ToolRuns } from "../../shared/agent/tool-runs";
import type { ModelRef } from "../../shared/protocol/app-api";
import type { ApprovalRequest, NoticeKind, PageSessionMethod, SessionApi, SessionMethod, WorkspaceInfo } from "../../shared/protocol/session-protocol";
import type { ChatOptions } from "../../shared/protocol/chat-options";
import type { HeldMessage } from "../../shared/protocol/held-messages";
import type { RetryWait } from "../../shared/protocol/retry-wait";

/**
 * The page's link to the session's worker. "reconnecting": the link dropped (the worker died and main is starting
 * another, or the network hiccuped) and the client is getting a new one; "offline": the host itself (main, the
 * browser host) does not answer, and the client keeps trying; "closed": given up (the chat could not be opened).
 */
/** `failed`: main stopped starting the chat's agent process, which kept crashing (`SessionView.failure` says why). */
export type ConnectionStatus = "connecting" | "ready" | "reconnecting" | "offline" | "closed" | "failed";

/** A notice the chat shows once, e.g. after the worker process died and was restarted. */
export interface SessionNotice {
  readonly id: number;
  readonly kind: NoticeKind;
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
  /** The run waits to ask the model again after a rate limit, a server error or a dropped connection. */
  readonly retry?: RetryWait;
  /** The chat's budget meter: its caps and spend; undefined: no caps. */
  readonly budget?: BudgetMeter;
  readonly connection: ConnectionStatus;
  /** With connection "failed": main's words (WORKER_KEEPS_CRASHING, the process's last stderr lines). */
  readonly failure?: string;
  readonly notices: readonly SessionNotice[];
}

/**
 * The session methods a page does not send as commands: the client's own reads (its snapshot, history pages) and
 * `reset` (tests, settings sync: through `SessionClient.call`). Marked `{ page: false }` in SESSION_COMMANDS.
 */
export type NonCommandMethod = Exclude<SessionMethod, PageSessionMethod>;

/**
 * Commands the UI sends to its session's worker: SESSION_COMMANDS' page commands (declared there, once, with their
 * argument schemas), and `dismissNotice` and `retryWorker`, which stay in the page. Every call rejects with a readable Error on failure.
 */
export type SessionCommands = Pick<SessionApi, PageSessionMethod> & {
  dismissNotice(id: number): void;
  /** With connection "failed": asks main to start the chat's agent process again, and connects (page-side too). */
  retryWorker?(): Promise<void>;
};
