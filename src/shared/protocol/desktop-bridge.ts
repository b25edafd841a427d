/**
 * The desktop app's bridge between page and main, in one place: what the preload exposes to the page as
 * `window.paddock`, the IPC channels behind it, and the messages that travel on them. Main, the preload and the
 * renderer all import it from here, and none of them imports another. No imports, so the sandboxed preload bundles
 * nothing else with it.
 *
 * Session ports: a MessagePort cannot cross contextBridge, so `acquireSessionPort` asks main for a new port to a
 * session's worker, main posts it to the preload with a `SessionPortMessage`, and the preload hands it to the page
 * with `window.postMessage(message, "*", [port])`. Each request carries a nonce the page chose and main echoes, so
 * every pending request takes its own port and nothing else: not another request's, not one a superseded request
 * was still owed.
 */

/** What the preload exposes to the page as `window.paddock`. */
export interface PaddockBridge {
  /** One AppApi call, validated by main against APP_API_SCHEMAS. Errors carry main's message as the web host's do. */
  call(method: string, args: unknown[]): Promise<unknown>;
  /**
   * Asks main for a fresh port to the session's worker (starting or restarting it as needed). Resolves once the
   * port was posted to the page as a `SessionPortMessage` carrying `nonce` (see `isPortRequestNonce`).
   */
  acquireSessionPort(sessionId: string, nonce: string): Promise<void>;
  /** Subscribes to main's menu commands (`PAGE_COMMANDS`). */
  onCommand(listener: (command: PageCommand) => void): () => void;
  /** Subscribes to main's events (chats changing, chats wanting attention): `AppEvent`s, as plain data. */
  onEvent(listener: (event: unknown) => void): () => void;
}

/** invoke(method, args): one AppApi call, validated in main. */
export const CALL_CHANNEL = "paddock:call";
/** invoke(sessionId, nonce): asks for a session port; main then posts the port on the same channel name. */
export const SESSION_PORT_CHANNEL = "paddock:session-port";
/** main -> page: a menu command (one of `PAGE_COMMANDS`). */
export const COMMAND_CHANNEL = "paddock:command";
/** main -> page: one AppEvent (chats changing, chats wanting attention), the same for every window. */
export const EVENT_CHANNEL = "paddock:event";

/** What main's menus ask the page to do. */
export const PAGE_COMMANDS = ["open-settings", "new-chat", "focus-composer", "show-shortcuts"] as const;
export type PageCommand = (typeof PAGE_COMMANDS)[number];

/** A new session port, as main posts it to the preload and the preload re-posts it to the page. */
export interface SessionPortMessage {
  type: typeof SESSION_PORT_CHANNEL;
  sessionId: string;
  /** The nonce of the `acquireSessionPort` call this port answers. */
  nonce: string;
  /** Set when the session's worker had died and was restarted: why. */
  restartedReason?: string;
}

const NONCE = /^[A-Za-z0-9_-]{8,64}$/;

/** Whether `value` can be a port request's nonce: 8 to 64 characters of `[A-Za-z0-9_-]` (a UUID fits). */
export function isPortRequestNonce(value: unknown): value is string {
  return typeof value === "string" && NONCE.test(value);
}

/** The window's session at start comes from the page URL: `index.html?session=<id>`. */
export const SESSION_QUERY_PARAM = "session";

const REMOTE_PREFIX = /^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/;

/**
 * The message main threw, without the wrapping `ipcRenderer.invoke` adds ("Error invoking remote method
 * '<channel>': Error: …"), so a page shows the same words in the desktop app as in the browser host. Any other
 * message comes back unchanged.
 */
export function remoteErrorMessage(message: string): string {
  return message.replace(REMOTE_PREFIX, "");
}
