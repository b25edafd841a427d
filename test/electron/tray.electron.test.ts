/**
 * The real app in Electron: staying in the tray (the menu bar on macOS) for schedules once the last window closes
 * (main/lifecycle/stay-in-tray.ts decides, unit-tested; electron/tray.ts shows the icon). Until the schedules engine
 * lands, `PADDOCK_TEST_SCHEDULES=1` stands in for "schedules exist" (read in electron/index.ts). Skips loudly where
 * the Electron binary is missing.
 */
import type { ElectronApplication } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { appsPerTest, exited as ended, missing, ready } from "./electron-app";

describe.skipIf(missing !== undefined)("Paddock in Electron: the tray while schedules exist and no window is open", () => {
  // An app with no window may not take Playwright's close: it exits at once, or is killed.
  const apps = appsPerTest("paddock-electron-tray-", async (electronApp) => {
    const child = electronApp?.process();
    if (child && child.exitCode === null && child.signalCode === null) {
      await electronApp!.evaluate(({ app }) => app.exit(0)).catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  const newProfile = (stayInTray: boolean): string =>
    apps.profile({ ...structuredClone(DEFAULT_SETTINGS as Settings), onboarded: true, background: { ...DEFAULT_SETTINGS.background, stayInTray } });

  async function launch(dir: string, schedules: boolean): Promise<ElectronApplication> {
    const electronApp = await apps.launch(dir, schedules ? { env: { PADDOCK_TEST_SCHEDULES: "1" } } : {});
    await ready(electronApp);
    return electronApp;
  }

  const exited = (electronApp: ElectronApplication) => ended(electronApp).then(() => true);
  const closeAllWindows = (electronApp: ElectronApplication) =>
    electronApp.evaluate(({ BrowserWindow }) => {
      for (const win of BrowserWindow.getAllWindows()) win.close();
    });
  const within = <T,>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms))]);

  it("with schedules and the setting on, the last window closing leaves the app running with no window; a new window opens", async () => {
    const electronApp = await launch(newProfile(true), true);
    const gone = exited(electronApp);
    await closeAllWindows(electronApp);
    expect(await within(gone, 3_000)).toBe("still running");
    expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(0);
    // Still serving: asked to (activate: the Dock's click; the tray's "Open Paddock" does the same), it opens a window.
    const opened = electronApp.waitForEvent("window", { timeout: 30_000 });
    await electronApp.evaluate(({ app }) => app.emit("activate"));
    await (await opened).getByTestId("composer").waitFor({ timeout: 30_000 });
  }, 120_000);

  it.skipIf(process.platform === "darwin")("with the setting off, the last window closing quits, schedules or not", async () => {
    const electronApp = await launch(newProfile(false), true);
    const gone = exited(electronApp);
    await closeAllWindows(electronApp);
    expect(await within(gone, 15_000)).toBe(true);
  }, 120_000);

  it.skipIf(process.platform === "darwin")("with no schedules, the last window closing quits as before", async () => {
    const electronApp = await launch(newProfile(true), false);
    const gone = exited(electronApp);
    await closeAllWindows(electronApp);
    expect(await within(gone, 15_000)).toBe(true);
  }, 120_000);
});
