/**
 * The system ending the app (restart, shutdown, logout), fed to main/lifecycle/quit-sequence.ts, which decides: no
 * question, a short cleanup, main's state saved. Call once, after app ready (powerMonitor needs it).
 */
import { app, powerMonitor } from "electron";
import type { QuitSequence } from "../lifecycle/quit-sequence";

export function watchSystemEnd(sequence: QuitSequence): void {
  // macOS: the machine powers off or restarts, or the user logs out (the quit request follows). Linux: logind says
  // the machine shuts down. Electron passes an event its typings leave out: preventing it makes Electron ask the
  // system to wait (Linux: logind's delay lock) while the quit that follows runs, within a second.
  powerMonitor.on("shutdown", (...args: unknown[]) => {
    (args[0] as { preventDefault?: () => void } | undefined)?.preventDefault?.();
    sequence.systemEnds("shutdown");
  });
  // Linux's session manager ends a session's programs with SIGTERM (as does `kill`). Electron answers it with a quit
  // like the menu's, which would ask about working agents; installed after ready, Node's handler replaces that one.
  if (process.platform !== "win32") process.on("SIGTERM", () => sequence.systemEnds("terminate"));
  // Windows tells each top-level window; every one of ours hears it, the sequence saves once for all.
  app.on("browser-window-created", (_event, win) => {
    win.on("query-session-end", () => void sequence.sessionMayEnd());
    win.on("session-end", () => void sequence.sessionEnds());
  });
}
