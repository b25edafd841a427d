import type { AppApi, AppEvent } from "../../shared/protocol/app-api";
import type { SessionCommands, SessionView } from "../store/session-view";
import type { PageCommand } from "../../shared/protocol/desktop-bridge";

/** A live view of one session, as the App consumes it (subscribe/getView fit `useSyncExternalStore`). */
export interface SessionHandle {
  /** Calls `fn` after every change of `getView()`; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void;
  /** The current view: the same object until something changes. */
  getView(): SessionView;
  commands: SessionCommands;
  /** Releases the connection; the App never uses the handle afterwards. */
  close(): void;
}

/** Whether the page can reach its host (main, or the browser host process). */
export type HostStatus = "connected" | "reconnecting";

/** System notifications the page shows itself (the browser host: main there cannot reach the desktop). */
export interface PageNotifications {
  permission(): NotificationPermission | "unsupported";
  /** Asks the user (call from a click: browsers ignore requests without a user gesture). */
  requestPermission(): Promise<NotificationPermission | "unsupported">;
  /**
   * Shows a system notification when the user allowed them; `onClick` runs when it is clicked. Returns false (and
   * shows nothing) otherwise: the page then tells the user in the page itself.
   */
  show(note: { title: string; body: string; tag: string }, onClick: () => void): boolean;
}

/** Everything the App needs from its host (Electron preload, the web host, or a test fixture). */
export interface AppServices {
  app: AppApi;
  /** Opens (or reuses) the live view of a session. */
  openSession(sessionId: string): SessionHandle;
  /** The session this window shows at start (from the URL), if any. */
  initialSessionId?: string;
  /** Commands from the host's native menus (Electron); returns the unsubscribe function. */
  onCommand?(listener: (command: PageCommand) => void): () => void;
  /** Main's pushes: chats changing, chats wanting attention. Returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
  /**
   * Where the host can go away while the page stays (the browser host): reachability as it changes. Events missed
   * while away are not replayed: on "connected" the page reloads what it shows. Returns the unsubscribe function.
   */
  onHostStatus?(listener: (status: HostStatus) => void): () => void;
  /** Present where the page shows system notifications itself; absent where main shows them (Electron). */
  notifications?: PageNotifications;
  /** Main can show the system's folder dialog (`pickWorkspace`): the desktop app. Elsewhere the page asks for a path. */
  folderDialog?: boolean;
  /** Main can show the system's save dialog (`saveSessionExport`): the desktop app. Elsewhere the page downloads files. */
  saveDialog?: boolean;
  /** Main runs the page's spell checker (the desktop app), and Settings offers to turn it on. Elsewhere the browser's own applies. */
  spellChecker?: boolean;
}

