/**
 * The real app in Electron, driven by Playwright's `_electron`: launch, the hardened window and its bridge, two
 * windows chatting at once, Stop, and settings, windows and transcripts surviving a relaunch. The model is the
 * loopback OpenAI-compatible test server, configured as a custom provider in a settings file written into a
 * temporary profile (PADDOCK_USER_DATA). Skips loudly where the Electron binary is missing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { _electron, type ElectronApplication, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { findElectronBinary, skipMessage } from "./electron-binary.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const mainEntry = join(repoRoot, "out/main/index.js");
const binary = findElectronBinary();
const missing = "missing" in binary ? binary.missing : undefined;
if (missing !== undefined) console.warn(skipMessage(missing));

/** A user message whose reply the test server scripts (see src/web-host/openai-test-server.ts). */
const turn = turnDirective;

describe.skipIf(missing !== undefined)("Paddock in Electron", () => {
  let server: OpenAITestServer;
  let userData: string;
  let app: ElectronApplication | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startOpenAIServer();
    userData = mkdtempSync(join(tmpdir(), "paddock-electron-"));
    const settings: Settings = {
      ...structuredClone(DEFAULT_SETTINGS as Settings),
      customProviders: [{ id: "test", name: "Test server", baseUrl: server.baseUrl, models: ["paddock-test"] }],
      defaultModel: { provider: "custom:test", id: "paddock-test" },
      onboarded: true,
      // Windows here close while a run may still be going; the dialog itself is not what this suite tests.
      abort: { ...DEFAULT_SETTINGS.abort, confirmCloseWhileRunning: false },
    };
    writeFileSync(join(userData, "settings.json"), JSON.stringify(settings, null, 2));
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await server?.close();
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  async function launch(): Promise<ElectronApplication> {
    if ("missing" in binary) throw new Error("unreachable: the suite is skipped without a binary");
    const launched = await _electron.launch({
      executablePath: binary.path,
      // Chromium refuses to start as root without --no-sandbox (CI containers); that is the OS sandbox only.
      args: [...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), mainEntry],
      env: { ...process.env, PADDOCK_USER_DATA: userData } as Record<string, string>,
      timeout: 30_000,
    });
    launched.on("window", watch);
    for (const page of launched.windows()) watch(page);
    return launched;
  }

  function watch(page: Page): void {
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  }

  async function send(page: Page, text: string): Promise<void> {
    const composer = page.getByTestId("composer");
    await composer.fill(text);
    await composer.press("Enter");
  }

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
    expect(seen).toEqual({ bridge: ["acquireSessionPort", "call", "onCommand"], require: "undefined", process: "undefined" });

    // Main validates every call against its schema.
    const refused = await page.evaluate(() =>
      (globalThis as any).paddock.call("renameSession", [42]).then(
        () => "accepted",
        (error: Error) => error.message,
      ),
    );
    expect(refused).toContain("invalid arguments");

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

    const opened = app!.waitForEvent("window");
    const secondSession = await first.evaluate(async () => {
      const bridge = (globalThis as any).paddock;
      const created = await bridge.call("createSession", []);
      await bridge.call("openSession", [created.id, "new-window"]);
      return created.id as string;
    });
    const second = await opened;
    await second.waitForURL(/[?&]session=/);
    expect(new URL(second.url()).searchParams.get("session")).toBe(secondSession);
    await second.getByTestId("composer").waitFor();
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
