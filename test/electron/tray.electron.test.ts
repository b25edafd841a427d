/**
 * The real app in Electron: staying in the tray (the menu bar on macOS) for schedules once the last window closes
 * (main/lifecycle/stay-in-tray.ts decides, unit-tested; electron/tray.ts shows the icon). Until the schedules engine
 * lands, `PADDOCK_TEST_SCHEDULES=1` stands in for "schedules exist" (read in electron/index.ts). Skips loudly where
 * the Electron binary is missing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { _electron, type ElectronApplication } from "playwright-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { findElectronBinary, skipMessage } from "../../scripts/electron-binary.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const mainEntry = join(repoRoot, "out/main/index.js");
const binary = findElectronBinary();
const missing = "missing" in binary ? binary.missing : undefined;
if (missing !== undefined) console.warn(skipMessage(missing));

describe.skipIf(missing !== undefined)("Paddock in Electron: the tray while schedules exist and no window is open", () => {
  const profiles: string[] = [];
  let running: ElectronApplication | undefined;

  afterEach(async () => {
    const child = running?.process();
    if (child && child.exitCode === null && child.signalCode === null) {
      await running!.evaluate(({ app }) => app.exit(0)).catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    running = undefined;
  });

  afterAll(() => {
    for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
  });

  function newProfile(stayInTray: boolean): string {
    const dir = mkdtempSync(join(tmpdir(), "paddock-electron-tray-"));
    profiles.push(dir);
    const settings: Settings = {
      ...structuredClone(DEFAULT_SETTINGS as Settings),
      onboarded: true,
      background: { ...DEFAULT_SETTINGS.background, stayInTray },
    };
    writeFileSync(join(dir, "settings.json"), JSON.stringify(settings, null, 2));
    return dir;
  }

  async function launch(dir: string, schedules: boolean): Promise<ElectronApplication> {
    if ("missing" in binary) throw new Error("unreachable: the suite is skipped without a binary");
    running = await _electron.launch({
      executablePath: binary.path,
      args: [...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), mainEntry],
      env: { ...process.env, PADDOCK_USER_DATA: dir, ...(schedules ? { PADDOCK_TEST_SCHEDULES: "1" } : {}) } as Record<string, string>,
      timeout: 30_000,
    });
    await (await running.firstWindow()).getByTestId("composer").waitFor({ timeout: 30_000 });
    return running;
  }

  const exited = (electronApp: ElectronApplication) => {
    const child = electronApp.process();
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => child.once("exit", () => resolve(true)));
  };
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
