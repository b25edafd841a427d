import type { AppApi } from "../../shared/protocol/app-api";
import type { SessionCommands, SessionView } from "../store/session-view";
import type { PageCommand } from "../../preload/api";

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

/** Everything the App needs from its host (Electron preload, the web host, or a test fixture). */
export interface AppServices {
  app: AppApi;
  /** Opens (or reuses) the live view of a session. */
  openSession(sessionId: string): SessionHandle;
  /** The session this window shows at start (from the URL), if any. */
  initialSessionId?: string;
  /** Commands from the host's native menus (Electron); returns the unsubscribe function. */
  onCommand?(listener: (command: AppCommand) => void): () => void;
}

/** What a native menu (or its accelerator) asks the focused window to do. */
export type AppCommand = PageCommand;
