/**
 * What the preload exposes to the page as `window.paddock` (types and constants shared by preload, main and renderer).
 *
 * A MessagePort cannot cross contextBridge, so `acquireSessionPort` asks main for a new session port and the
 * preload hands it to the page with `window.postMessage(SessionPortMessage, "*", [port])`; the promise resolves
 * after that message was posted.
 */
export interface PaddockBridge {
  /** One AppApi call, validated by main against APP_API_SCHEMAS. */
  call(method: string, args: unknown[]): Promise<unknown>;
  /** Asks main for a fresh port to the session's worker (starting or restarting it as needed). */
  acquireSessionPort(sessionId: string): Promise<void>;
  /** Subscribes to main's menu commands ("open-settings", "new-chat"). */
  onCommand(listener: (command: PageCommand) => void): () => void;
  /** Subscribes to main's events (chats changing, chats wanting attention): `AppEvent`s, as plain data. */
  onEvent(listener: (event: unknown) => void): () => void;
}

/** What main's menus ask the page to do. */
export const PAGE_COMMANDS = ["open-settings", "new-chat"] as const;
export type PageCommand = (typeof PAGE_COMMANDS)[number];

export interface SessionPortMessage {
  type: "paddock:session-port";
  sessionId: string;
  /** Set when the session's worker had died and was restarted: why. */
  restartedReason?: string;
}

/** The window's session at start comes from the page URL: `index.html?session=<id>`. */
export const SESSION_QUERY_PARAM = "session";
