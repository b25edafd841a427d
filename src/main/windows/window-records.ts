/**
 * Which windows are open, on which session, where and whether maximized, kept in `settings.windows` so a relaunch
 * reopens them: the decisions, Electron-free (main/electron/window-state.ts feeds it a window's events). Moves and
 * resizes are saved after a pause (a drag fires dozens of events); opening and closing at once.
 *
 * Closing a window forgets it, except two ways of quitting: a quit going ahead (its windows close one by one, and
 * all must stay on record), and, where closing the last window quits the app (Windows, Linux), the last window's
 * own close: that is how people quit there, so its record stays for the relaunch.
 */
import type { Settings, WindowBounds, WindowRecord } from "../../shared/settings/schema";

/** The slice of the settings store this module needs. */
export interface WindowRecordStore {
  get(): Settings;
  setWindows(windows: WindowRecord[]): unknown;
}

export interface WindowRecordsOptions {
  /** How long bounds must stay still before they are saved; default 500 ms. */
  debounceMs?: number;
  /** Closing the last window quits the app (Windows, Linux; not macOS, where the app stays in the Dock). */
  lastCloseQuits: boolean;
}

/** A display's work area, as the screen reports it. */
export interface WorkArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class WindowRecords<W> {
  readonly #store: WindowRecordStore;
  readonly #debounceMs: number;
  readonly #lastCloseQuits: boolean;
  /** Open windows in opening order, so a relaunch recreates them in the same stacking. */
  readonly #open = new Map<W, WindowRecord>();
  /** The last window, closed where that quits the app: saved with the quit unless another window opens first. */
  #last: WindowRecord | undefined;
  #timer: NodeJS.Timeout | undefined;
  #quitting = false;

  constructor(store: WindowRecordStore, options: WindowRecordsOptions) {
    this.#store = store;
    this.#debounceMs = options.debounceMs ?? 500;
    this.#lastCloseQuits = options.lastCloseQuits;
  }

  /**
   * The windows to reopen at launch, as last saved. Bounds that no longer fall on any display (a monitor was
   * unplugged) are dropped, so the window opens at the default place instead of off screen (maximized still holds).
   */
  restorable(displays: readonly WorkArea[]): WindowRecord[] {
    return this.#store.get().windows.map(({ sessionId, bounds, maximized }) => ({
      sessionId,
      ...(bounds && displays.some((area) => overlaps(area, bounds)) ? { bounds } : {}),
      ...(maximized ? { maximized } : {}),
    }));
  }

  /** Whether a quit is going ahead (windows closing now keep their records). */
  get quitting(): boolean {
    return this.#quitting;
  }

  /** A quit goes ahead (one the close guard cancelled never gets here): every window now open stays on record. */
  quit(): void {
    if (this.#quitting) return;
    this.#quitting = true;
    this.flush();
  }

  /** `win` opened on `sessionId`. */
  opened(win: W, sessionId: string, bounds: WindowBounds, maximized: boolean): void {
    this.#last = undefined;
    this.#open.set(win, { sessionId, bounds, ...(maximized ? { maximized } : {}) });
    if (!this.#quitting) this.flush();
  }

  /** `win` moved, was resized, maximized or restored: saved after the pause. */
  changed(win: W, bounds: WindowBounds, maximized: boolean): void {
    const record = this.#open.get(win);
    if (!record) return;
    record.bounds = bounds;
    if (maximized) record.maximized = true;
    else delete record.maximized;
    clearTimeout(this.#timer);
    // Bounds in `#open` are always current and the quit's own save has them; a late timer must not save the
    // shrinking set of windows that a quit leaves behind.
    this.#timer = setTimeout(() => {
      if (!this.#quitting) this.flush();
    }, this.#debounceMs);
  }

  /** The window now shows another session. */
  rebind(win: W, sessionId: string): void {
    const record = this.#open.get(win);
    if (!record) return;
    record.sessionId = sessionId;
    if (!this.#quitting) this.flush();
  }

  /** The user closed `win`: forgotten, unless a quit is going ahead or it was the last and closing it quits. */
  closed(win: W): void {
    const record = this.#open.get(win);
    this.#open.delete(win);
    if (this.#quitting) return;
    // The last window, where closing it quits: kept (with what the pause had not saved yet), and the quit keeps it.
    if (record && this.#open.size === 0 && this.#lastCloseQuits) this.#last = record;
    this.flush();
  }

  /** Saves the open windows now (the last one closed, when that quits the app), bounds waiting for the pause too. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const records = [...this.#open.values()];
    if (records.length === 0 && this.#last) records.push(this.#last);
    this.#store.setWindows(records.map((r) => structuredClone(r)));
  }
}

/** Whether at least a grabbable strip (100 x 50 px) of `bounds` lies within `area`. */
function overlaps(area: WorkArea, bounds: WindowBounds): boolean {
  const width = Math.min(area.x + area.width, bounds.x + bounds.width) - Math.max(area.x, bounds.x);
  const height = Math.min(area.y + area.height, bounds.y + bounds.height) - Math.max(area.y, bounds.y);
  return width >= 100 && height >= 50;
}
