/**
 * Remembers which windows are open, on which session and where, in `settings.windows`, so a relaunch reopens them.
 * Moves and resizes are saved after a pause (a drag fires dozens of events); opening and closing at once.
 */
import { app, screen, type BrowserWindow, type Rectangle } from "electron";
import type { Settings, WindowBounds, WindowRecord } from "../../shared/settings/schema";

/** The slice of the settings store this module needs. */
export interface WindowRecordStore {
  get(): Settings;
  setWindows(windows: WindowRecord[]): unknown;
}

export interface WindowStateOptions {
  /** How long bounds must stay still before they are saved; default 500 ms. */
  debounceMs?: number;
}

export class WindowStateTracker {
  readonly #store: WindowRecordStore;
  readonly #debounceMs: number;
  /** Open windows in opening order, so a relaunch recreates them in the same stacking. */
  readonly #open = new Map<BrowserWindow, WindowRecord>();
  #timer: NodeJS.Timeout | undefined;
  /**
   * Set once a quit goes ahead: windows then close one by one and their records must stay on disk for the relaunch.
   * A quit the close guard cancels never sets it (the guard listens first and prevents the event; see
   * confirm-close.ts), and quitting ends in `app.exit`, which fires no second `before-quit`.
   */
  #quitting = false;

  /** Create after the close guard, so a quit it cancels is seen as prevented here. */
  constructor(store: WindowRecordStore, options: WindowStateOptions = {}) {
    this.#store = store;
    this.#debounceMs = options.debounceMs ?? 500;
    app.on("before-quit", (event) => {
      if (event.defaultPrevented || this.#quitting) return;
      this.#quitting = true;
      this.flush();
    });
  }

  /**
   * The windows to reopen at launch, as last saved. Bounds that no longer fall on any display (a monitor was
   * unplugged) are dropped, so the window opens at the default place instead of off screen. Call after app ready.
   */
  restorable(): WindowRecord[] {
    const displays = screen.getAllDisplays().map((d) => d.workArea);
    return this.#store.get().windows.map(({ sessionId, bounds }) =>
      bounds && displays.some((area) => overlaps(area, bounds)) ? { sessionId, bounds } : { sessionId },
    );
  }

  /** Whether a quit is going ahead (windows closing now keep their records). */
  get quitting(): boolean {
    return this.#quitting;
  }

  /** Starts tracking `win`, which shows `sessionId`; its record goes away when the user closes it. */
  track(win: BrowserWindow, sessionId: string): void {
    this.#open.set(win, { sessionId, bounds: boundsOf(win) });
    const changed = () => {
      const record = this.#open.get(win);
      if (!record || win.isDestroyed()) return;
      record.bounds = boundsOf(win);
      this.#scheduleSave();
    };
    win.on("resize", changed);
    win.on("move", changed);
    win.on("closed", () => {
      this.#open.delete(win);
      if (!this.#quitting) this.flush();
    });
    if (!this.#quitting) this.flush();
  }

  /** The window now shows another session. */
  rebind(win: BrowserWindow, sessionId: string): void {
    const record = this.#open.get(win);
    if (!record) return;
    record.sessionId = sessionId;
    if (!this.#quitting) this.flush();
  }

  /** Saves the open windows now, including bounds still waiting for the debounce. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#store.setWindows([...this.#open.values()].map((r) => structuredClone(r)));
  }

  #scheduleSave(): void {
    clearTimeout(this.#timer);
    // Bounds in `#open` are always current and the quit's own save has them; a late timer must not save the
    // shrinking set of windows that a quit leaves behind.
    this.#timer = setTimeout(() => {
      if (!this.#quitting) this.flush();
    }, this.#debounceMs);
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

/** Whether at least a grabbable strip (100 x 50 px) of `bounds` lies within `area`. */
function overlaps(area: Rectangle, bounds: WindowBounds): boolean {
  const width = Math.min(area.x + area.width, bounds.x + bounds.width) - Math.max(area.x, bounds.x);
  const height = Math.min(area.y + area.height, bounds.y + bounds.height) - Math.max(area.y, bounds.y);
  return width >= 100 && height >= 50;
}
