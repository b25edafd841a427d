/**
 * Whether the app stays alive when its last window closes (issue 27 §4: schedules run while no window is open), and
 * whether the tray (the menu bar's icon on macOS) shows. Electron-free; `electron/tray.ts` shows the icon and
 * `electron/index.ts` acts on the decision.
 *
 * - Windows, Linux: the last window closing quits, as before, unless the `background.stayInTray` setting is on and
 *   schedules exist: then the app stays, in the tray ("Open Paddock", "Quit").
 * - macOS: the app stays in the Dock with no window as every Mac app does (agents work on); with the setting on and
 *   schedules it also shows in the menu bar, so it can be found, and quit, without the Dock.
 * - While a window is open the tray does not show: the window is where the app is.
 */

export interface StayAliveInputs {
  platform: NodeJS.Platform;
  /** Settings' `background.stayInTray`, read at each decision. */
  stayInTray: boolean;
  /** Whether any schedule exists (the schedules engine's answer; false until one is given). Must not throw. */
  hasSchedules(): boolean;
}

/**
 * What the app does with no window open (the last one just closed, or the setting or the schedules changed while
 * none is): quits, stays in the tray, or stays without one (macOS's Dock).
 */
export function withNoWindow(inputs: StayAliveInputs): "quit" | "tray" | "stay" {
  if (keepsTray(inputs)) return "tray";
  return inputs.platform === "darwin" ? "stay" : "quit";
}

/** Whether closing the last window now quits the app. */
export function lastWindowQuits(inputs: StayAliveInputs): boolean {
  if (inputs.platform === "darwin") return false;
  return !keepsTray(inputs);
}

/** Whether the tray shows, with `windows` windows open. */
export function showsTray(inputs: StayAliveInputs, windows: number): boolean {
  return windows === 0 && keepsTray(inputs);
}

function keepsTray(inputs: StayAliveInputs): boolean {
  if (!inputs.stayInTray) return false;
  try {
    return inputs.hasSchedules();
  } catch {
    return false; // an engine that cannot tell keeps nothing alive: the app ends as it would without schedules
  }
}

/** The tray's menu, in order: its words and what each does (the adapter builds Electron's Menu from it). */
export function trayMenuItems(actions: { open(): void; quit(): void }): { label: string; click(): void }[] {
  return [
    { label: "Open Paddock", click: () => actions.open() },
    { label: "Quit", click: () => actions.quit() },
  ];
}

/** The tray icon's tooltip. */
export const TRAY_TOOLTIP = "Paddock: schedules run while no window is open";

/** Until the schedules engine lands, nothing is scheduled. */
export const NO_SCHEDULES = (): boolean => false;
