/**
 * One Paddock per user: a second launch hands over to the running app, which brings its most recently focused
 * window forward (or opens one, if it has none, as on macOS after the last window closed).
 */
import { app, BrowserWindow } from "electron";

export interface SingleInstanceOptions {
  /** Called in the running app when a second launch finds no window to focus. */
  openWindow(): void;
}

/**
 * Takes the single-instance lock. Returns false when another instance holds it: this process has then already been
 * told to quit, and the caller must create nothing (no windows, no workers). Call before app ready.
 */
export function claimSingleInstance(options: SingleInstanceOptions): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  let lastFocused: BrowserWindow | undefined;
  app.on("browser-window-focus", (_event, win) => {
    lastFocused = win;
  });
  app.on("second-instance", () => {
    const win = lastFocused && !lastFocused.isDestroyed() ? lastFocused : BrowserWindow.getAllWindows().at(-1);
    if (!win) {
      if (app.isReady()) options.openWindow();
      return;
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  return true;
}
