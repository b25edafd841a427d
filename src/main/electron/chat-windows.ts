/**
 * The chat windows: each shows one session at a time and is a viewer in the broker (viewer id = its webContents
 * id) of that session and of any other its page connects to (a subagent's transcript shown inside the chat).
 * Opening, binding a window to a session, handing it session ports, and letting go of sessions when the window
 * closes or moves on (which never stops a session's agent). Sessions themselves are the broker's business.
 */
import { BrowserWindow, MessageChannelMain, type BaseWindow, type MessagePortMain, type WebContents } from "electron";
import type { AppEvent } from "../../shared/protocol/app-api";
import { COMMAND_CHANNEL, EVENT_CHANNEL, SESSION_PORT_CHANNEL, type PageCommand, type SessionPortMessage } from "../../shared/protocol/desktop-bridge";
import type { WindowBounds } from "../../shared/settings/schema";
import type { SessionBroker } from "../broker/session-broker";
import { LOAD_TIMEOUT_MS, PageLoadWatch, RELOAD_URL, type LoadAction } from "../app-page/load-failure";
import type { CloseGuard } from "./confirm-close";
import { hardenWindow, secureWebPreferences } from "./security";
import type { WindowStateTracker } from "./window-state";

export interface ChatWindowsOptions {
  preloadPath: string;
  /** Loads the app page into `win`, bound to `sessionId` when given (`index.html?session=<id>`). */
  loadPage(win: BrowserWindow, sessionId: string | undefined): Promise<void>;
  broker: SessionBroker<MessagePortMain>;
  tracker: WindowStateTracker;
  closeGuard: CloseGuard;
  /** Whether the session exists and is not deleted: windows and ports are only ever made for such sessions. */
  sessionExists(sessionId: string): boolean;
  /** Shows the user a problem that is not tied to a call (e.g. a transcript loaded with damage). */
  warn(text: string): void;
}

interface ChatWindow {
  win: BrowserWindow;
  viewerId: string;
  /** The session the window shows; undefined until its page picks one. */
  sessionId?: string;
  /** Sessions this window is a broker viewer of: `sessionId`, subagents shown inside it, and briefly a chat it left. */
  attached: Set<string>;
  /** Per session, the number of the window's latest `connect` to it: an earlier one still under way hands out no port. */
  latestConnect: Map<string, number>;
}

const DEFAULT_SIZE = { width: 1100, height: 760 };
/** A page that crashes again this soon after a reload is left alone (with a warning) instead of looping. */
const CRASH_RELOAD_MIN_INTERVAL_MS = 10_000;

export class ChatWindows {
  readonly #options: ChatWindowsOptions;
  readonly #byWindowId = new Map<number, ChatWindow>();
  readonly #byContentsId = new Map<number, ChatWindow>();
  #connects = 0;

  constructor(options: ChatWindowsOptions) {
    this.#options = options;
  }

  /**
   * Opens a window on `sessionId` (or, without one, on whatever session the page chooses) at `bounds`, maximized if
   * it was (its `bounds` are then where it returns when restored). Opens none
   * once a quit is going ahead (a dock click, a notification or a second launch during the cleanup): that window
   * would replace the saved window list and connect to a broker that is shutting down.
   */
  open(sessionId?: string, bounds?: WindowBounds, maximized = false): BrowserWindow | undefined {
    if (this.#options.tracker.quitting) return undefined;
    const win = new BrowserWindow({
      ...(bounds ?? DEFAULT_SIZE),
      minWidth: 480,
      minHeight: 400,
      show: false,
      title: "Paddock",
      webPreferences: secureWebPreferences(this.#options.preloadPath),
    });
    hardenWindow(win);
    this.#options.closeGuard.watch(win);
    const chat: ChatWindow = { win, viewerId: `window-${win.webContents.id}`, attached: new Set(), latestConnect: new Map() };
    const windowId = win.id;
    const contentsId = win.webContents.id;
    this.#byWindowId.set(windowId, chat);
    this.#byContentsId.set(contentsId, chat);
    // Shown once painted; a page that fails to load, or has not loaded in time, shows with an error page instead of
    // leaving an invisible window that keeps the app alive (app-page/load-failure.ts decides).
    const watch = new PageLoadWatch();
    let loadTimer: NodeJS.Timeout | undefined;
    const act = (action: LoadAction) => {
      if (action.kind === "none" || win.isDestroyed()) return;
      if (action.kind === "show-error") {
        clearTimeout(loadTimer);
        win.webContents.loadURL(action.page).catch(() => undefined); // a failure of its own is did-fail-load's
      }
      if (!win.isVisible()) {
        if (maximized) win.maximize(); // maximize() shows it too
        else win.show();
      }
    };
    const armLoadTimer = () => {
      clearTimeout(loadTimer);
      loadTimer = setTimeout(() => act(watch.timedOut()), LOAD_TIMEOUT_MS);
    };
    /** Loads the app's page again on the chat the window shows (not webContents.reload(): the URL names the chat it opened on). */
    const reloadPage = (failureText: string) => {
      if (win.isDestroyed()) return;
      watch.reloading();
      armLoadTimer();
      const current = chat.sessionId !== undefined && this.#options.sessionExists(chat.sessionId) ? chat.sessionId : undefined;
      this.#options.loadPage(win, current).catch((error: unknown) => {
        if (!watch.showingError) this.#options.warn(`${failureText}: ${(error as Error).message}`);
      });
    };
    win.once("ready-to-show", () => {
      clearTimeout(loadTimer);
      act(watch.readyToShow());
    });
    win.webContents.on("did-finish-load", () => watch.finished());
    win.webContents.on("did-fail-load", (_event, code, description, url, isMainFrame) => {
      act(watch.failed({ code, description, url, isMainFrame }));
    });
    // The error page's Reload (hardenWindow's will-navigate handler has already stopped the navigation itself).
    win.webContents.on("will-navigate", (event) => {
      if (event.url === RELOAD_URL && watch.showingError) reloadPage("A window could not load its page");
    });
    let lastReload = 0;
    win.webContents.on("render-process-gone", (_event, details) => {
      if (details.reason === "clean-exit" || win.isDestroyed()) return;
      // The window's session is unharmed (its worker runs on, and the window stays its viewer); a new page
      // reconnects to it.
      const now = Date.now();
      if (now - lastReload < CRASH_RELOAD_MIN_INTERVAL_MS) {
        this.#options.warn(`A window's page crashed twice in a row (${details.reason}); close it and open the chat again.`);
        return;
      }
      lastReload = now;
      // A task later: navigating from inside this event re-enters Chromium's process-death notification, which
      // some Electron versions answer by crashing main (electron/electron#51900).
      setTimeout(() => reloadPage("A window could not reload its page after a crash"), 0);
    });
    win.on("closed", () => {
      clearTimeout(loadTimer);
      this.#byWindowId.delete(windowId);
      this.#byContentsId.delete(contentsId);
      for (const sessionId of chat.attached) this.#options.broker.detach(sessionId, chat.viewerId);
      chat.attached.clear();
    });
    const shown = sessionId !== undefined && this.#options.sessionExists(sessionId) ? sessionId : undefined;
    if (shown !== undefined) this.show(win, shown);
    armLoadTimer();
    this.#options.loadPage(win, shown).catch((error: unknown) => {
      if (!watch.showingError) this.#options.warn(`A window could not load its page: ${(error as Error).message}`);
    });
    return win;
  }

  /** The window whose page is `contents`, if it is one of ours. */
  fromContents(contents: WebContents): BrowserWindow | undefined {
    return this.#byContentsId.get(contents.id)?.win;
  }

  /** `window` if it is one of our chat windows (menu callbacks receive any BaseWindow, or none). */
  chatWindow(window: BaseWindow | undefined): BrowserWindow | undefined {
    return window ? this.#byWindowId.get(window.id)?.win : undefined;
  }

  /**
   * Records that `win` now shows `sessionId` (restored on relaunch) and lets go of every other session it viewed:
   * the chat it showed before and the subagents shown inside that chat (whose agents work on; an idle one stops
   * after the grace period if no other window views it).
   */
  show(win: BrowserWindow, sessionId: string): void {
    const chat = this.#byWindowId.get(win.id);
    if (!chat || chat.sessionId === sessionId) return;
    const previous = chat.sessionId;
    chat.sessionId = sessionId;
    if (previous === undefined) this.#options.tracker.track(win, sessionId);
    else this.#options.tracker.rebind(win, sessionId);
    for (const viewed of [...chat.attached]) {
      if (viewed === sessionId) continue;
      chat.attached.delete(viewed);
      chat.latestConnect.delete(viewed);
      this.#options.broker.detach(viewed, chat.viewerId);
    }
  }

  /**
   * Gives `win`'s page a new port to `sessionId`'s worker (starting it if needed), posted with the request's
   * `nonce` so that only the request that asked takes it. A window that shows no session yet (its page picked
   * one itself) is bound to this one; otherwise what it shows changes only through `show`, so a subagent's
   * transcript opened inside a chat never takes the chat's place. Rejects, and sends no port, when the session
   * does not exist, when the window closed or let go of the session while the worker was starting, or when a
   * later `connect` of the same window to the same session came meanwhile (a quick A → B → A: this attach may
   * have found A's stopping worker, and the page's current request is the later one).
   */
  async connect(win: BrowserWindow, sessionId: string, nonce: string): Promise<void> {
    const chat = this.#byWindowId.get(win.id);
    if (!chat) throw new Error("Not a Paddock window");
    if (!this.#options.sessionExists(sessionId)) throw new Error("No such chat");
    if (chat.sessionId === undefined) this.show(win, sessionId);
    const generation = ++this.#connects;
    chat.latestConnect.set(sessionId, generation);
    chat.attached.add(sessionId);
    const attachment = await this.#options.broker.attach(sessionId, chat.viewerId);
    // Closing or switching meanwhile already detached this viewer; a port now would reach a stopping worker. The
    // broker may have counted the viewer only after that detach (its attach waited for a stopping worker): undo it.
    if (win.isDestroyed() || !chat.attached.has(sessionId)) {
      this.#options.broker.detach(sessionId, chat.viewerId);
      throw new Error("The window moved on to another chat");
    }
    if (chat.latestConnect.get(sessionId) !== generation) throw new Error("A newer connection to this chat replaced this one");
    if (attachment.endpoint.kind !== "port") throw new Error("The agent worker cannot take ports");
    if (!attachment.worker.alive) throw new Error("The chat's agent process is restarting; try again");
    if (attachment.problems.length > 0) {
      this.#options.warn(`While opening a chat: ${attachment.problems.join("; ")}`);
    }
    const { port1, port2 } = new MessageChannelMain();
    attachment.endpoint.handOff(port1);
    const message: SessionPortMessage = { type: SESSION_PORT_CHANNEL, sessionId, nonce };
    if (attachment.restartedReason !== undefined) message.restartedReason = attachment.restartedReason;
    win.webContents.postMessage(SESSION_PORT_CHANNEL, message, [port2]);
  }

  /** Sends a menu command to `win`'s page. */
  command(win: BrowserWindow, command: PageCommand): void {
    if (!win.isDestroyed()) win.webContents.send(COMMAND_CHANNEL, command);
  }

  /** Pushes one of main's events to every window's page. */
  broadcast(event: AppEvent): void {
    for (const { win } of this.#byWindowId.values()) {
      if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
    }
  }

  /** Whether the focused window (if it is one of ours) shows `sessionId`. */
  isInFront(sessionId: string): boolean {
    const focused = BrowserWindow.getFocusedWindow();
    return focused !== null && this.#byWindowId.get(focused.id)?.sessionId === sessionId;
  }

  /** Brings the chat to the front: the window showing it, or a new one. */
  reveal(sessionId: string): void {
    const chat = [...this.#byWindowId.values()].find((c) => c.sessionId === sessionId && !c.win.isDestroyed());
    if (!chat) {
      if (this.#options.sessionExists(sessionId)) this.open(sessionId);
      return;
    }
    if (chat.win.isMinimized()) chat.win.restore();
    chat.win.show();
    chat.win.focus();
  }
}
