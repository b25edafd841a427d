/**
 * The real app in Electron, driven by Playwright's `_electron`: how it ends when the system ends it (a SIGTERM, or
 * powerMonitor's `shutdown`: no question, out within a few seconds, the window list kept), a window whose page does
 * not load (the error page, and its Reload), and the session's setup (permissions judged by the asking frame, spell
 * checking off until Settings turn it on, the Window menu per system). Main's decisions are unit-tested
 * (test/unit/main/lifecycle/, test/unit/main/app-page/); this checks Electron's side. Skips loudly where the Electron
 * binary is missing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ElectronApplication, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { closedPort } from "../../testkit/closed-port";
import { appsPerTest, exited, missing, ready, testServerSettings } from "./electron-app";

/** `step1 step2 ... stepN`, streamed slowly by the test model: a reply still going whatever the steps below take. */
const slowPrompt = (label: string, count: number, tokensPerSecond: number) =>
  `${label} ${turnDirective({ text: Array.from({ length: count }, (_, i) => `step${i + 1}`).join(" "), chunkChars: 6, tokensPerSecond })}`;

describe.skipIf(missing !== undefined)("Paddock in Electron: the system ending it, pages that do not load, the session's setup", () => {
  let server: OpenAITestServer;
  /** The test's app is ended after it if the test did not. */
  const apps = appsPerTest("paddock-electron-lifecycle-");

  beforeAll(async () => {
    server = await startOpenAIServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  /** A fresh profile on the test server that asks before quitting while agents work (the question under test). */
  const newProfile = (): string => apps.profile(testServerSettings(server.baseUrl, { abort: { ...DEFAULT_SETTINGS.abort, confirmCloseWhileRunning: true } }));

  const launch = (dir: string): Promise<ElectronApplication> => apps.launch(dir);

  /** Main's quit question answers Cancel, always, and counts how often it was asked. */
  async function questionsCancelled(electronApp: ElectronApplication): Promise<void> {
    await electronApp.evaluate(({ dialog }) => {
      (globalThis as any).__asked = 0;
      (dialog as any).showMessageBox = () => {
        (globalThis as any).__asked += 1;
        return Promise.resolve({ response: 1, checkboxChecked: false });
      };
    });
  }

  const lastAssistant = (page: Page) => page.getByTestId("message-assistant").last();
  const lastText = (page: Page) => lastAssistant(page).innerText().catch(() => "");
  const footer = (page: Page) => lastAssistant(page).locator(".message-footer").textContent().catch(() => "");
  const savedWindowsOnDisk = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, "settings.json"), "utf8")) as Settings).windows.map((w) => w.sessionId);
  const bridgeCall = <T,>(page: Page, method: string, args: unknown[]) =>
    page.evaluate(([m, a]) => (globalThis as any).paddock.call(m, a), [method, args] as const) as Promise<T>;

  /** A chat mid-reply, with main's quit question answering Cancel. */
  async function working(): Promise<{ dir: string; electronApp: ElectronApplication; page: Page; sessionId: string }> {
    const dir = newProfile();
    const electronApp = await launch(dir);
    const page = await ready(electronApp);
    await questionsCancelled(electronApp);
    await send(page, slowPrompt("Count while the system ends.", 600, 30));
    await page.getByTestId("stop-button").waitFor();
    await expect.poll(() => lastText(page)).toContain("step3 ");
    // Checkpoints reach the disk within half a second of a change: "step3" is on disk before the system ends the app.
    await page.waitForTimeout(1_500);
    const settings = await bridgeCall<Settings>(page, "getSettings", []);
    return { dir, electronApp, page, sessionId: settings.windows[0].sessionId };
  }

  /** The relaunched app shows the chat again, its reply cut short where the system ended the app. */
  async function relaunchedCutShort(dir: string, sessionId: string): Promise<void> {
    const page = await ready(await launch(dir));
    expect(new URL(page.url()).searchParams.get("session")).toBe(sessionId);
    await expect.poll(() => footer(page), { timeout: 20_000 }).toMatch(/Stopped|Interrupted/);
    const text = await lastText(page);
    expect(text).toContain("step3 ");
    expect(text).not.toContain("step600");
  }

  it.skipIf(process.platform === "win32")("a SIGTERM (Linux's session manager at logout) quits mid-reply without asking, and keeps the window list", async () => {
    const { dir, electronApp, sessionId } = await working();
    const started = Date.now();
    const gone = exited(electronApp);
    // Before, Electron turned SIGTERM into a quit like the menu's: the question came, answered Cancel, and the app stayed.
    electronApp.process().kill("SIGTERM");
    await gone;
    // 1 s for the cleanup, plus Chromium's own exit on a loaded machine; the user's quit may take 6 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(savedWindowsOnDisk(dir)).toEqual([sessionId]);
    await relaunchedCutShort(dir, sessionId);
  }, 150_000);

  it("powerMonitor's shutdown (a restart, a shutdown or a logout) quits mid-reply without asking, and keeps the window list", async () => {
    const { dir, electronApp, sessionId } = await working();
    const started = Date.now();
    const gone = exited(electronApp);
    await electronApp.evaluate(({ powerMonitor }) => {
      // As Electron emits it, with the event its typings leave out.
      setTimeout(() => (powerMonitor as any).emit("shutdown", { preventDefault() {} }), 0);
    });
    await gone;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(savedWindowsOnDisk(dir)).toEqual([sessionId]);
    await relaunchedCutShort(dir, sessionId);
  }, 150_000);

  it("a page that fails to load is replaced by the error page, whose Reload brings the chat back", async () => {
    const electronApp = await launch(newProfile());
    const page = await ready(electronApp);
    await expect.poll(async () => (await bridgeCall<Settings>(page, "getSettings", [])).windows.length).toBe(1);
    const sessionId = (await bridgeCall<Settings>(page, "getSettings", [])).windows[0].sessionId;
    const port = await closedPort();
    await electronApp.evaluate(({ BrowserWindow }, url) => {
      // Nobody listens there: the load fails at once (ERR_CONNECTION_REFUSED).
      void BrowserWindow.getAllWindows()[0].webContents.loadURL(url).catch(() => undefined);
    }, `http://127.0.0.1:${port}/`);
    await expect.poll(() => page.getByTestId("load-failure").innerText().catch(() => ""), { timeout: 20_000 }).toContain("ERR_CONNECTION_REFUSED");
    expect(page.url()).toMatch(/^data:text\/html/);
    expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0].isVisible())).toBe(true);
    // The error page has no bridge to main.
    expect(await page.evaluate(() => typeof (globalThis as any).paddock?.call)).not.toBe("function");

    await page.getByRole("link", { name: "Reload" }).click();
    await page.getByTestId("composer").waitFor({ timeout: 30_000 });
    // The app's page again, on the chat the window showed.
    expect(page.url()).toMatch(/^app:\/\/paddock\/index\.html/);
    expect(new URL(page.url()).searchParams.get("session")).toBe(sessionId);
  }, 120_000);

  it("grants the app's page writing the clipboard and denies it notifications (the handlers now judge the asking frame's URL and origin)", async () => {
    const page = await ready(await launch(newProfile()));
    const states = await page.evaluate(async () => {
      const permissions = (globalThis as any).navigator.permissions;
      return {
        clipboardWrite: (await permissions.query({ name: "clipboard-write" })).state as string,
        notifications: (await permissions.query({ name: "notifications" })).state as string,
      };
    });
    expect(states).toEqual({ clipboardWrite: "granted", notifications: "denied" });
  }, 90_000);

  it("checks spelling only once Settings turn it on", async () => {
    const electronApp = await launch(newProfile());
    const page = await ready(electronApp);
    const enabled = () => electronApp.evaluate(({ session }) => session.defaultSession.isSpellCheckerEnabled());
    expect(await enabled()).toBe(false);
    await bridgeCall(page, "updateSettings", [{ spellCheck: true }]);
    await expect.poll(enabled).toBe(true);
    await bridgeCall(page, "updateSettings", [{ spellCheck: false }]);
    await expect.poll(enabled).toBe(false);
  }, 90_000);

  it("has Zoom in the Window menu on macOS only", async () => {
    const electronApp = await launch(newProfile());
    await ready(electronApp);
    const roles = await electronApp.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()?.items.find((item) => item.role?.toLowerCase() === "window")?.submenu?.items.map((item) => item.role?.toLowerCase() ?? item.type) ?? [],
    );
    expect(roles).toContain("minimize");
    expect(roles.includes("zoom")).toBe(process.platform === "darwin");
  }, 90_000);
});

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByTestId("composer");
  await composer.fill(text);
  await composer.press("Enter");
}
