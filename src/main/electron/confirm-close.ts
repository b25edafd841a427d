/**
 * "Agents are still working: quit anyway?" Closing a window never stops an agent (its worker lives on without a
 * viewer), so only quitting asks: Quit from the menu, or, where the last window closing quits the app (Windows,
 * Linux), closing that window. Asked only while the `abort.confirmCloseWhileRunning` setting is on. Knows nothing of
 * the broker: it asks through callbacks.
 *
 * Create the guard before anything else listens to `before-quit` (the window tracker): listeners run in order, and
 * later ones must see `event.defaultPrevented` when the user cancels.
 */
import { app, dialog, type BrowserWindow } from "electron";

export interface CloseGuardOptions {
  /** How many working agents quitting would stop, when Settings say to ask (0: nothing to ask); read at each close. */
  agentsToConfirm(): number;
  /** Whether closing the last window quits the app now (not on macOS; nor while the app stays in the tray). */
  lastWindowQuits(): boolean;
}

export class CloseGuard {
  readonly #options: CloseGuardOptions;
  readonly #windows = new Set<BrowserWindow>();
  #quitApproved = false;
  #asking = false;

  /** Installs the quit check; create one guard, after app ready. */
  constructor(options: CloseGuardOptions) {
    this.#options = options;
    app.on("before-quit", (event) => {
      if (this.#quitApproved) return;
      if (!this.#needsAsking()) {
        // Goes ahead: a run starting while the windows close must not make the last one ask and cancel the quit.
        this.#quitApproved = true;
        return;
      }
      event.preventDefault();
      void this.#ask(undefined).then((quit) => {
        if (quit) app.quit();
      });
    });
  }

  /** Asks before `win` closes when that would quit the app with agents working. Call once per window. */
  watch(win: BrowserWindow): void {
    this.#windows.add(win);
    win.on("closed", () => this.#windows.delete(win));
    win.on("close", (event) => {
      if (this.#quitApproved || !this.#options.lastWindowQuits() || this.#otherWindows(win) > 0 || !this.#needsAsking()) return;
      event.preventDefault();
      void this.#ask(win).then((quit) => {
        if (quit && !win.isDestroyed()) win.close();
      });
    });
  }

  #needsAsking(): boolean {
    return this.#options.agentsToConfirm() > 0;
  }

  #otherWindows(win: BrowserWindow): number {
    let count = 0;
    for (const other of this.#windows) if (other !== win && !other.isDestroyed()) count++;
    return count;
  }

  /** One question at a time; resolves true when the user chose to quit (approved for the rest of this quit). */
  async #ask(win: BrowserWindow | undefined): Promise<boolean> {
    if (this.#asking) return false;
    this.#asking = true;
    try {
      const busy = this.#options.agentsToConfirm();
      const many = busy > 1;
      const options = {
        type: "warning" as const,
        message: many ? `${busy} agents are still working.` : "An agent is still working.",
        detail: `Quitting Paddock stops ${many ? "them" : "it"}; ${many ? "their" : "its"} replies so far are kept. Quit anyway?`,
        buttons: ["Quit", "Cancel"],
        defaultId: 1,
        cancelId: 1,
      };
      const { response } = win && !win.isDestroyed() ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      // Approved once for the whole quit, so the windows closing next do not each ask again.
      if (response === 0) this.#quitApproved = true;
      return response === 0;
    } finally {
      this.#asking = false;
    }
  }
}
