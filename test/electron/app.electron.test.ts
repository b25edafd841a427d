/**
 * The real app in Electron, driven by Playwright's `_electron`: launch, the hardened window and its bridge, two
 * windows chatting at once, Stop, and settings, windows and transcripts surviving a relaunch; then the life cycle:
 * quitting (confirmed or cancelled) keeps the window list, a closed window or a crashed page never stops its chat's
 * run, and a killed main leaves no worker behind. The model is the loopback OpenAI-compatible test server,
 * configured as a custom provider in a settings file written into a temporary profile (PADDOCK_USER_DATA). Skips
 * loudly where the Electron binary is missing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ElectronApplication, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { appsPerTest, exited, launchApp, missing, ready, testServerSettings } from "./electron-app";

/** A user message whose reply the test server scripts (see src/web-host/openai-test-server.ts). */
const turn = turnDirective;

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByTestId("composer");
  await composer.fill(text);
  await composer.press("Enter");
}

/** Creates a chat from `page` and opens it in a new window; returns that window (page up) and the chat's id. */
async function openInNewWindow(electronApp: ElectronApplication, page: Page): Promise<{ window: Page; sessionId: string }> {
  const opened = electronApp.waitForEvent("window");
  const sessionId = await page.evaluate(async () => {
    const bridge = (globalThis as any).paddock;
    const created = await bridge.call("createSession", []);
    await bridge.call("openSession", [created.id, "new-window"]);
    return created.id as string;
  });
  const window = await opened;
  await window.waitForURL(/[?&]session=/);
  await window.getByTestId("composer").waitFor({ timeout: 30_000 });
  return { window, sessionId };
}

/** The sessions of the windows main has saved for the next launch, sorted. */

describe.skipIf(missing !== undefined)("Paddock in Electron", () => {
  let server: OpenAITestServer;
  let userData: string;
  let app: ElectronApplication | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startOpenAIServer();
    userData = mkdtempSync(join(tmpdir(), "paddock-electron-"));
    const settings = testServerSettings(server.baseUrl, {
      // Windows here close while a run may still be going; the question on quitting has its own test below.
      abort: { ...DEFAULT_SETTINGS.abort, confirmCloseWhileRunning: false },
    });
    writeFileSync(join(userData, "settings.json"), JSON.stringify(settings, null, 2));
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await server?.close();
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  const launch = () => launchApp(userData, { pageErrors });

  /** The session a window shows, as main records it. */
  async function sessionsOfWindows(electronApp: ElectronApplication): Promise<string[]> {
    const settings = await bridgeCall<Settings>(await electronApp.firstWindow(), "getSettings", []);
    return settings.windows.map((w) => w.sessionId);
  }

  function bridgeCall<T>(page: Page, method: string, args: unknown[]): Promise<T> {
    return page.evaluate(
      ([m, a]) => (globalThis as any).paddock.call(m, a),
      [method, args] as const,
    ) as Promise<T>;
  }

  it("opens a hardened window whose page sees only the bridge", async () => {
    app = await launch();
    const page = await app.firstWindow();
    await page.getByTestId("composer").waitFor();

    const seen = await page.evaluate(() => ({
      bridge: Object.keys((globalThis as any).paddock).sort(),
      require: typeof (globalThis as any).require,
      process: typeof (globalThis as any).process,
    }));
    // Exactly the bridge, and no Node: contextBridge only works with context isolation, and neither `require` nor
    // `process` leaks into a sandboxed page.
    expect(seen).toEqual({ bridge: ["acquireSessionPort", "call", "onCommand", "onEvent"], require: "undefined", process: "undefined" });

    // Main validates every call against its schema.
    const refused = await page.evaluate(() =>
      (globalThis as any).paddock.call("renameSession", [42]).then(
        () => "accepted",
        (error: Error) => error.message,
      ),
    );
    expect(refused).toContain("invalid arguments");
    // main's own words, as the browser host shows them: not Electron's "Error invoking remote method …" wrapping.
    expect(refused).toMatch(/^renameSession: invalid arguments/);

    // The page comes from the app:// scheme, not file://, with the strict policy as a response header.
    expect(page.url()).toMatch(/^app:\/\/paddock\/index\.html/);
    const served = await page.evaluate(async () => {
      const answer = async (path: string) => {
        const response = await fetch(new URL(path, (globalThis as any).location.href));
        return { status: response.status, csp: response.headers.get("content-security-policy") };
      };
      return { page: await answer("/index.html"), outside: await answer("/../main/index.js"), missing: await answer("/nothing.js") };
    });
    expect(served.page.status).toBe(200);
    expect(served.page.csp).toContain("script-src 'self';");
    expect(served.page.csp).toContain("frame-ancestors 'none'");
    expect(served.page.csp).not.toContain("unsafe-eval");
    // Nothing beside the renderer's files is served (main's bundle sits next to them on disk).
    expect(served.outside.status).toBe(404);
    expect(served.missing.status).toBe(404);

    // No new windows from the page (a non-web URL is not even handed to the system browser).
    await page.evaluate(() => {
      (globalThis as any).open("about:blank");
    });
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  it("chats in two windows at once, and Stop ends a run", async () => {
    const first = await app!.firstWindow();
    // Window 1's reply stops mid-stream and hangs: its run stays open until it is stopped.
    await send(first, turn({ text: "alpha-one alpha-two alpha-three", chunkChars: 6, hangAfterChunks: 2 }));
    await first.getByTestId("stop-button").waitFor();
    await expect.poll(() => first.getByTestId("message-assistant").last().innerText()).toContain("alpha-one");

    const { window: second, sessionId: secondSession } = await openInNewWindow(app!, first);
    expect(new URL(second.url()).searchParams.get("session")).toBe(secondSession);
    await send(second, turn({ text: "beta reply complete" }));
    await expect.poll(() => second.getByTestId("message-assistant").last().innerText()).toContain("beta reply complete");
    await second.getByTestId("send-button").waitFor();

    // Window 2's whole run happened while window 1's was still going.
    expect(await first.getByTestId("stop-button").isVisible()).toBe(true);

    await first.getByTestId("stop-button").click();
    await first.getByTestId("send-button").waitFor();
    expect(await first.getByTestId("stop-button").count()).toBe(0);
    // What had streamed before Stop is kept.
    expect(await first.getByTestId("message-assistant").last().innerText()).toContain("alpha-one");
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(pageErrors).toEqual([]);
  });

  it("sidebar search results typed before a reply lands gain it: main's search-index event crosses the IPC bridge", async () => {
    const first = await app!.firstWindow();
    await first.getByTestId("session-search").fill("gannet");
    await expect.poll(() => first.getByTestId("message-results").innerText()).toContain("No messages match.");
    await send(first, `Name a diving bird ${turn({ text: "The northern gannet dives from thirty metres." })}`);
    await expect.poll(() => first.getByTestId("message-assistant").last().innerText()).toContain("northern gannet");
    // Nobody typed again: the page asked anew when main's index told it so.
    await expect.poll(() => first.getByTestId("message-results").innerText(), { timeout: 15_000 }).toContain("The northern gannet dives from thirty metres.");
    await first.getByTestId("session-search").fill("");
    expect(pageErrors).toEqual([]);
  });

  it("keeps settings, windows and transcripts across a relaunch", async () => {
    const page = await app!.firstWindow();
    await bridgeCall(page, "updateSettings", [{ theme: "dark", abort: { clearQueuesOnAbort: true } }]);
    const shownBefore = await sessionsOfWindows(app!);
    expect(shownBefore).toHaveLength(2);
    await app!.close();
    app = undefined;

    const onDisk = JSON.parse(readFileSync(join(userData, "settings.json"), "utf8")) as Settings;
    expect(onDisk.theme).toBe("dark");
    expect(onDisk.abort.clearQueuesOnAbort).toBe(true);
    expect(onDisk.windows.map((w) => w.sessionId).sort()).toEqual([...shownBefore].sort());

    app = await launch();
    const relaunched = app;
    await expect.poll(() => relaunched.windows().length).toBe(2);
    for (const window of relaunched.windows()) await window.getByTestId("composer").waitFor();
    const reopened = relaunched.windows().map((w) => new URL(w.url()).searchParams.get("session"));
    expect(reopened.sort()).toEqual([...shownBefore].sort());

    const settings = await bridgeCall<Settings>(relaunched.windows()[0], "getSettings", []);
    expect(settings.theme).toBe("dark");
    expect(settings.abort.clearQueuesOnAbort).toBe(true);

    // The second window's chat comes back with its transcript.
    const chatPage = relaunched.windows().find((w) => w.url().includes(shownBefore[1]));
    expect(chatPage).toBeDefined();
    await expect
      .poll(() => chatPage!.getByTestId("message-assistant").last().innerText().catch(() => ""))
      .toContain("beta reply complete");
    expect(pageErrors).toEqual([]);
  });
});

/** `step1 step2 ... stepN`: a reply whose end is recognisable ("stepN") and whose progress can be watched. */
const steps = (count: number) => Array.from({ length: count }, (_, i) => `step${i + 1}`).join(" ");

/**
 * A prompt the test model answers slowly with `steps(count)` (about 8 characters a step, 4 a token). `label` makes
 * the prompt, and so the model requests it causes, recognisable.
 */
const slowPrompt = (label: string, count: number, tokensPerSecond: number) =>
  `${label} ${turn({ text: steps(count), chunkChars: 6, tokensPerSecond })}`;

describe.skipIf(missing !== undefined)("Paddock in Electron: quitting, closing windows, crashes", () => {
  let server: OpenAITestServer;
  /** The test's app is ended after it if the test did not. */
  const apps = appsPerTest("paddock-electron-life-");

  beforeAll(async () => {
    server = await startOpenAIServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  /** A fresh profile using the test server, with the quit confirmation off unless asked for. */
  const newProfile = (confirmCloseWhileRunning = false): string =>
    apps.profile(testServerSettings(server.baseUrl, { abort: { ...DEFAULT_SETTINGS.abort, confirmCloseWhileRunning } }));

  const launchOn = (dir: string, pageErrors: string[]): Promise<ElectronApplication> => apps.launch(dir, { pageErrors });

  async function savedWindows(page: Page): Promise<string[]> {
    const settings = (await page.evaluate(() => (globalThis as any).paddock.call("getSettings", []))) as Settings;
    return settings.windows.map((w) => w.sessionId).sort();
  }

  function savedWindowsOnDisk(dir: string): string[] {
    const settings = JSON.parse(readFileSync(join(dir, "settings.json"), "utf8")) as Settings;
    return settings.windows.map((w) => w.sessionId).sort();
  }

  /** Closes the window whose page was opened on `sessionId`, as the user would (its close button). */
  async function closeWindowOn(electronApp: ElectronApplication, sessionId: string): Promise<void> {
    await electronApp.evaluate(({ BrowserWindow }, id) => {
      const win = BrowserWindow.getAllWindows().find(
        (w) => new URL(w.webContents.getURL()).searchParams.get("session") === id,
      );
      if (!win) throw new Error(`no window opened on ${id}`);
      win.close();
    }, sessionId);
  }

  const lastAssistant = (page: Page) => page.getByTestId("message-assistant").last();
  const lastText = (page: Page) => lastAssistant(page).innerText().catch(() => "");
  const footer = (page: Page) => lastAssistant(page).locator(".message-footer").textContent().catch(() => "");
  const sidebarItem = (page: Page, id: string) => page.locator(`[data-testid=session-item][data-session-id="${id}"]`);
  /** How many model requests carried `label` (a run that was restarted or retried would make more). */
  const requestsFor = (label: string) => server.requests.filter((r) => JSON.stringify(r.body?.messages ?? "").includes(label)).length;

  it("quitting keeps the window list: both windows come back on their chats, quit after quit", async () => {
    const dir = newProfile();
    const errors: string[] = [];
    let electronApp = await launchOn(dir, errors);
    const first = await ready(electronApp);
    await send(first, turn({ text: "first chat reply" }));
    await expect.poll(() => lastText(first)).toContain("first chat reply");
    const { window: second, sessionId: secondId } = await openInNewWindow(electronApp, first);
    await send(second, turn({ text: "second chat reply" }));
    await expect.poll(() => lastText(second)).toContain("second chat reply");
    await expect.poll(() => savedWindows(first)).toHaveLength(2);
    const shown = await savedWindows(first);
    expect(shown).toContain(secondId);

    // The menu's Quit (app.quit), not Playwright's close: the whole quit, cleanup and exit included.
    // Bounded: the cleanup takes about 5 s at worst, and with nothing running much less.
    await quitApp(electronApp);
    expect(savedWindowsOnDisk(dir)).toEqual(shown);

    electronApp = await launchOn(dir, errors);
    const relaunched = electronApp;
    await expect.poll(() => relaunched.windows().length, { timeout: 30_000 }).toBe(2);
    for (const window of relaunched.windows()) await window.getByTestId("composer").waitFor({ timeout: 30_000 });
    expect(relaunched.windows().map((w) => new URL(w.url()).searchParams.get("session")).sort()).toEqual(shown);
    const secondAgain = relaunched.windows().find((w) => w.url().includes(secondId))!;
    await expect.poll(() => lastText(secondAgain)).toContain("second chat reply");

    // And again, through Playwright's close this time: no quit may wipe the list, not even one after a restore.
    await relaunched.close();
    expect(savedWindowsOnDisk(dir)).toEqual(shown);
    expect(errors).toEqual([]);
  }, 150_000);

  it("quitting mid-reply asks: Cancel changes nothing, Quit stops the run (journaled as stopped) and keeps the windows", async () => {
    const dir = newProfile(true);
    const errors: string[] = [];
    let electronApp = await launchOn(dir, errors);
    const page = await ready(electronApp);
    // The question in main answers Cancel first, then Quit (and Quit after that, so a failed test still ends its
    // app); what it was asked is kept for the test.
    await electronApp.evaluate(({ dialog }) => {
      const state = { answers: [1, 0], asked: [] as string[] };
      (globalThis as any).__paddockDialog = state;
      (dialog as any).showMessageBox = (...args: any[]) => {
        const options = args[args.length - 1] as { message?: string };
        state.asked.push(String(options?.message));
        return Promise.resolve({ response: state.answers.shift() ?? 0, checkboxChecked: false });
      };
    });
    const asked = () => electronApp.evaluate(() => [...((globalThis as any).__paddockDialog.asked as string[])]);

    // About 40 s of streaming: it is still going whatever the steps below take.
    await send(page, slowPrompt("Count through the quit.", 600, 30));
    await page.getByTestId("stop-button").waitFor();
    await expect.poll(() => lastText(page)).toContain("step3 ");
    const [sessionId] = await savedWindows(page);

    // Cancel: the app stays, with its window, and the run goes on.
    await electronApp.evaluate(({ app }) => app.quit());
    await expect.poll(asked).toEqual(["An agent is still working."]);
    expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    const sofar = (await lastText(page)).length;
    await expect.poll(async () => (await lastText(page)).length).toBeGreaterThan(sofar);
    expect(await page.getByTestId("stop-button").isVisible()).toBe(true);
    expect(await savedWindows(page)).toEqual([sessionId]);

    // The cancelled quit left the window list live: a window opened and closed now is saved, then forgotten.
    const { sessionId: otherId } = await openInNewWindow(electronApp, page);
    await expect.poll(() => savedWindows(page)).toEqual([sessionId, otherId].sort());
    await closeWindowOn(electronApp, otherId); // another window is open: closing this one quits nothing, asks nothing
    await expect.poll(() => savedWindows(page)).toEqual([sessionId]);
    expect(await asked()).toHaveLength(1);

    // Quit: the run is stopped and journaled, the window list stays, the app exits within its bound.
    await quitApp(electronApp);
    expect(savedWindowsOnDisk(dir)).toEqual([sessionId]);
    expect(errors).toEqual([]);

    electronApp = await launchOn(dir, errors);
    const relaunched = await ready(electronApp);
    expect(new URL(relaunched.url()).searchParams.get("session")).toBe(sessionId);
    await expect.poll(() => footer(relaunched), { timeout: 20_000 }).toContain("Stopped");
    const text = await lastText(relaunched);
    expect(text).toContain("step3 ");
    expect(text).not.toContain("step600");
    expect(await relaunched.getByTestId("stop-button").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 180_000);

  it("closing a chat's window while its agent works does not stop it: reopened from the sidebar, the reply completes", async () => {
    const dir = newProfile();
    const errors: string[] = [];
    const electronApp = await launchOn(dir, errors);
    const first = await ready(electronApp);
    // A second window, so closing the working one quits nothing on any platform.
    const { window: second, sessionId } = await openInNewWindow(electronApp, first);
    const label = "Count while your window closes.";
    // About 10 s of streaming.
    await send(second, slowPrompt(label, 300, 60));
    await expect.poll(() => lastText(second)).toContain("step3 ");

    await closeWindowOn(electronApp, sessionId);
    await expect.poll(() => electronApp.windows().length).toBe(1);
    // Main still reports it working, to every window.
    await expect.poll(() => sidebarItem(first, sessionId).getAttribute("data-state")).toBe("running");
    await first.waitForTimeout(1_000);

    await sidebarItem(first, sessionId).locator("button.session-open").click();
    // The page picks the reply up where it is (it streamed on meanwhile) and watches it finish.
    await expect.poll(() => lastText(first), { timeout: 40_000 }).toContain("step300");
    await first.getByTestId("send-button").waitFor();
    expect(await footer(first)).not.toMatch(/Stopped|Interrupted/);
    expect(await first.getByTestId("message-assistant").count()).toBe(1);
    // One model request: the run was never stopped, restarted or retried.
    expect(requestsFor(label)).toBe(1);
    expect(errors).toEqual([]);
  }, 150_000);

  it("a crashed page reloads on the chat its window shows and reconnects to the run, which goes on", async () => {
    const dir = newProfile();
    const electronApp = await launchOn(dir, []);
    const first = await ready(electronApp);
    await expect.poll(() => savedWindows(first)).toHaveLength(1);
    const [openedOn] = await savedWindows(first);
    // A window whose page URL names chat A ...
    const opened = electronApp.waitForEvent("window");
    await first.evaluate((id) => (globalThis as any).paddock.call("openSession", [id, "new-window"]), openedOn);
    const window = await opened;
    await window.getByTestId("composer").waitFor({ timeout: 30_000 });
    await electronApp.evaluate(({ BrowserWindow }) => {
      BrowserWindow.getAllWindows().find((w) => !new URL(w.webContents.getURL()).searchParams.has("session"))?.close();
    });
    await expect.poll(() => electronApp.windows().length).toBe(1);
    // ... that moved on to chat B in the page: a plain reload would bring A back.
    await window.getByTestId("new-chat").click();
    await expect.poll(async () => (await savedWindows(window)).filter((id) => id !== openedOn)).toHaveLength(1);
    const [shownId] = await savedWindows(window);
    expect(shownId).not.toBe(openedOn);

    const label = "Count through a crash.";
    // About 20 s of streaming: still going when the new page is up.
    await send(window, slowPrompt(label, 500, 50));
    await expect.poll(() => lastText(window)).toContain("step5 ");

    await electronApp.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0].webContents;
      const seen = ((globalThis as any).__paddockGone = [] as string[]);
      contents.once("render-process-gone", (_event, details) => seen.push(details.reason));
      contents.forcefullyCrashRenderer();
    });
    // Read through main: Playwright's page object does not outlive its renderer.
    const probe = () =>
      electronApp.evaluate(async ({ BrowserWindow }) => {
        const contents = BrowserWindow.getAllWindows()[0].webContents;
        const script = `(() => {
          const replies = document.querySelectorAll('[data-testid="message-assistant"]');
          const last = replies[replies.length - 1];
          return {
            replies: replies.length,
            text: last ? last.innerText : "",
            footer: last?.querySelector(".message-footer")?.textContent ?? "",
            running: document.querySelector('[data-testid="stop-button"]') !== null,
          };
        })()`;
        const page = await Promise.race([
          contents.isCrashed() ? Promise.resolve(null) : contents.executeJavaScript(script).catch(() => null),
          new Promise((resolve) => setTimeout(() => resolve(null), 2_000)),
        ]);
        return {
          gone: [...((globalThis as any).__paddockGone as string[])],
          session: new URL(contents.getURL()).searchParams.get("session"),
          page: page as { replies: number; text: string; footer: string; running: boolean } | null,
        };
      });
    await expect.poll(async () => (await probe()).gone, { timeout: 10_000 }).toHaveLength(1);
    // The new page shows the run still going, on the chat the window showed.
    await expect.poll(async () => (await probe()).page?.running ?? false, { timeout: 20_000 }).toBe(true);
    expect((await probe()).session).toBe(shownId);
    await expect.poll(async () => (await probe()).page?.text ?? "", { timeout: 40_000 }).toContain("step500");
    await expect.poll(async () => (await probe()).page?.running ?? true).toBe(false);
    const after = (await probe()).page!;
    expect(after.replies).toBe(1);
    expect(after.footer).not.toMatch(/Stopped|Interrupted/);
    expect(requestsFor(label)).toBe(1);
    expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  }, 150_000);

  it("main killed with SIGKILL leaves no agent worker behind; the relaunched app shows the reply as interrupted", async () => {
    const dir = newProfile();
    const errors: string[] = [];
    let electronApp = await launchOn(dir, []);
    const page = await ready(electronApp);
    // About 20 s of streaming; killed a few seconds in.
    await send(page, slowPrompt("Count until main dies.", 400, 40));
    await expect.poll(() => lastText(page)).toContain("step20 ");
    // Checkpoints reach the disk within half a second of a change; the kill comes later than that.
    await page.waitForTimeout(1_500);
    const [sessionId] = await savedWindows(page);
    const workers = await agentWorkerPids(electronApp);
    // The chat's worker (and the warm spare).
    expect(workers.length).toBeGreaterThan(0);

    const gone = exited(electronApp);
    electronApp.process().kill("SIGKILL");
    await gone;
    // Each worker sees its lifeline close, saves the reply so far and exits within 1.5 s.
    await expect.poll(() => workers.filter(isRunning), { timeout: 3_000, interval: 100 }).toEqual([]);

    electronApp = await launchOn(dir, errors);
    const relaunched = await ready(electronApp);
    expect(new URL(relaunched.url()).searchParams.get("session")).toBe(sessionId);
    await expect.poll(() => footer(relaunched), { timeout: 20_000 }).toContain("Interrupted");
    const text = await lastText(relaunched);
    expect(text).toContain("step20 ");
    expect(text).not.toContain("step400");
    expect(errors).toEqual([]);
  }, 150_000);

  it("a desktop notification the system refuses (an unsigned macOS build's) is told once in the app; the chat is still marked", async () => {
    const dir = newProfile();
    const errors: string[] = [];
    const electronApp = await launchOn(dir, errors);
    const page = await ready(electronApp);
    // Every notification fails as an unsigned macOS build's do (UNNotification needs a signed app), and no window is
    // in front, so each finished reply asks for one.
    await electronApp.evaluate(({ BrowserWindow, Notification }) => {
      Notification.isSupported = () => true;
      Notification.prototype.show = function (this: InstanceType<typeof Notification>) {
        setTimeout(() => this.emit("failed", {}, "Notifications are not allowed for this application"), 0);
      };
      BrowserWindow.getFocusedWindow = () => null;
    });
    await send(page, turn({ text: "first reply" }));
    await expect.poll(() => lastText(page)).toContain("first reply");
    await send(page, turn({ text: "second reply" }));
    await expect.poll(() => lastText(page)).toContain("second reply");
    const notice = page.getByTestId("notice").filter({ hasText: "Desktop notifications could not be shown" });
    await expect.poll(() => notice.innerText().catch(() => "")).toContain("Notifications are not allowed for this application");
    await page.waitForTimeout(500);
    // Told once, for two failed notifications.
    expect(await notice.count()).toBe(1);
    expect(await notice.getAttribute("data-count")).not.toBe("2");
    expect(errors).toEqual([]);
  }, 90_000);

  it("main's console and its workers' output go to <userData>/logs/paddock.log, which Settings names", async () => {
    const dir = newProfile();
    const electronApp = await launchOn(dir, []);
    const page = await ready(electronApp);
    await electronApp.evaluate(() => console.warn("paddock: a line for the log file, key sk-test-abcdefghijklmnopqrstuvwxyz"));
    const folder = await page.evaluate(() => (globalThis as any).paddock.call("logsFolder", []));
    expect(folder).toBe(join(dir, "logs"));
    await expect.poll(() => {
      try {
        return readFileSync(join(dir, "logs", "paddock.log"), "utf8");
      } catch {
        return "";
      }
    }).toMatch(/\[main warn\] paddock: a line for the log file, key <redacted>/);
  }, 60_000);
});

/** Quits as the menu's Quit does (app.quit, not Playwright's close), and expects the app gone within 15 s. */
async function quitApp(electronApp: ElectronApplication): Promise<void> {
  const started = Date.now();
  const gone = exited(electronApp);
  await electronApp.evaluate(({ app }) => void setTimeout(() => app.quit(), 0));
  await gone;
  expect(Date.now() - started).toBeLessThan(15_000);
}

/** Pids of the app's agent workers: its utility processes started as "Paddock Agent" (Node services). */
function agentWorkerPids(electronApp: ElectronApplication): Promise<number[]> {
  return electronApp.evaluate(({ app }) =>
    app
      .getAppMetrics()
      .filter((m) => m.type === "Utility" && (m.name === "Paddock Agent" || m.serviceName === "node.mojom.NodeService"))
      .map((m) => m.pid),
  );
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped by whoever adopted it, counts as gone). */
function isRunning(pid: number): boolean {
  if (process.platform === "linux") {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
