/**
 * Electron's side of the window list a relaunch reopens (main/windows/window-records.ts decides what is kept): feeds
 * it each tracked window's opening, moves, resizes, maximizing and closing, and the quit.
 */
import { app, screen, type BrowserWindow } from "electron";
import type { WindowBounds, WindowRecord } from "../../shared/settings/schema";
import { WindowRecords, type WindowRecordStore } from "../windows/window-records";

export type { WindowRecordStore };

export interface WindowStateOptions {
  /** How long bounds must stay still before they are saved; default 500 ms. */
  debounceMs?: number;
}

export class WindowStateTracker {
  readonly #records: WindowRecords<BrowserWindow>;

  /**
   * Create after the close guard, so a quit it cancels is seen as prevented here. Quitting ends in `app.exit`, which
   * fires no second `before-quit`.
   */
  constructor(store: WindowRecordStore, options: WindowStateOptions = {}) {
    // Elsewhere than macOS the last window's close quits the app (index.ts's window-all-closed): its record stays.
    this.#records = new WindowRecords(store, { ...options, lastCloseQuits: process.platform !== "darwin" });
    app.on("before-quit", (event) => {
      if (!event.defaultPrevented) this.#records.quit();
    });
  }

  /** The windows to reopen at launch, as last saved (see WindowRecords.restorable). Call after app ready. */
  restorable(): WindowRecord[] {
    return this.#records.restorable(screen.getAllDisplays().map((d) => d.workArea));
  }

  /** Whether a quit is going ahead (windows closing now keep their records). */
  get quitting(): boolean {
    return this.#records.quitting;
  }

  /** Starts tracking `win`, which shows `sessionId`; its record goes away when the user closes it. */
  track(win: BrowserWindow, sessionId: string): void {
    this.#records.opened(win, sessionId, boundsOf(win), win.isMaximized());
    const changed = () => {
      if (!win.isDestroyed()) this.#records.changed(win, boundsOf(win), win.isMaximized());
    };
    win.on("resize", changed);
    win.on("move", changed);
    win.on("maximize", changed);
    win.on("unmaximize", changed);
    win.on("closed", () => this.#records.closed(win));
  }

  /** The window now shows another session. */
  rebind(win: BrowserWindow, sessionId: string): void {
    this.#records.rebind(win, sessionId);
  }

  /** Saves the open windows now, including bounds still waiting for the debounce. */
  flush(): void {
    this.#records.flush();
  }
}

/** The window's size and place when neither maximized nor minimized, in whole pixels as the schema wants. */
function boundsOf(win: BrowserWindow): WindowBounds {
  const { x, y, width, height } = win.getNormalBounds();
  return {
    x: Math.round(x),
    y: Math.round(y),
    width: Math.max(1, Math.round(width)),
    height: Math.max(1, Math.round(height)),
  };
}
