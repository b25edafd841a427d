/**
 * "An agent is still working: close anyway?" Asked when a window closes while its session's agent runs (and no other
 * window shows that session, which would keep it running), or when the app quits with any agent running; only while
 * the `abort.confirmCloseWhileRunning` setting is on. Knows nothing of the broker: it asks through callbacks.
 */
import { app, dialog, type BrowserWindow } from "electron";

export interface CloseGuardOptions {
  /** Whether the session's agent is in a run right now. */
  isRunning(sessionId: string): boolean;
  /** The session `win` shows, if any. */
  sessionOf(win: BrowserWindow): string | undefined;
  /** The current value of `abort.confirmCloseWhileRunning`, read at each close. */
  shouldConfirm(): boolean;
}

export class CloseGuard {
  readonly #options: CloseGuardOptions;
  readonly #windows = new Set<BrowserWindow>();
  /** Windows whose close the user confirmed: their next close goes through. */
  readonly #approved = new WeakSet<BrowserWindow>();
  /** Windows with a question on screen, so a second click on the close button does not stack a second dialog. */
  readonly #asking = new WeakSet<BrowserWindow>();
  #quitApproved = false;
  #askingQuit = false;

  /** Installs the quit check; create one guard, after app ready. */
  constructor(options: CloseGuardOptions) {
    this.#options = options;
    app.on("before-quit", (event) => {
      if (this.#quitApproved) return;
      const running = this.#runningSessions();
      if (running.length === 0 || !this.#options.shouldConfirm()) return;
      event.preventDefault();
      if (this.#askingQuit) return;
      this.#askingQuit = true;
      const many = running.length > 1;
      void dialog
        .showMessageBox({
          type: "warning",
          message: many ? `${running.length} agents are still working.` : "An agent is still working.",
          detail: `Quitting stops ${many ? "them" : "it"}. Quit anyway?`,
          buttons: ["Quit", "Cancel"],
          defaultId: 1,
          cancelId: 1,
        })
        .then(({ response }) => {
          this.#askingQuit = false;
          if (response !== 0) return;
          // Approved once for the whole quit, so the windows closing next do not each ask again.
          this.#quitApproved = true;
          app.quit();
        });
    });
  }

  /** Asks before `win` closes while its agent runs. Call once per window, when it is created. */
  watch(win: BrowserWindow): void {
    this.#windows.add(win);
    win.on("closed", () => this.#windows.delete(win));
    win.on("close", (event) => {
      if (this.#quitApproved || this.#approved.has(win)) return;
      const sessionId = this.#options.sessionOf(win);
      if (sessionId === undefined || !this.#options.isRunning(sessionId)) return;
      if (this.#shownElsewhere(win, sessionId) || !this.#options.shouldConfirm()) return;
      event.preventDefault();
      if (this.#asking.has(win)) return;
      this.#asking.add(win);
      void dialog
        .showMessageBox(win, {
          type: "warning",
          message: "The agent in this chat is still working.",
          detail: "Closing the window stops it. Close anyway?",
          buttons: ["Close Window", "Cancel"],
          defaultId: 1,
          cancelId: 1,
        })
        .then(({ response }) => {
          this.#asking.delete(win);
          if (response !== 0 || win.isDestroyed()) return;
          this.#approved.add(win);
          win.close();
        });
    });
  }

  #shownElsewhere(win: BrowserWindow, sessionId: string): boolean {
    for (const other of this.#windows) {
      if (other !== win && !other.isDestroyed() && this.#options.sessionOf(other) === sessionId) return true;
    }
    return false;
  }

  #runningSessions(): string[] {
    const sessions = new Set<string>();
    for (const win of this.#windows) {
      const sessionId = win.isDestroyed() ? undefined : this.#options.sessionOf(win);
      if (sessionId !== undefined && this.#options.isRunning(sessionId)) sessions.add(sessionId);
    }
    return [...sessions];
  }
}
