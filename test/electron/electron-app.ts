/**
 * The `_electron` suite's rig (test/electron/, run in GitHub CI only): the app under test (app-under-test.mjs: the
 * development binary with out/main/index.js, or the packaged app `--packaged` names), launched by Playwright on a
 * profile of its own (PADDOCK_USER_DATA), and ended after each test whatever state the test left it in.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { _electron, type ElectronApplication, type Page } from "playwright-core";
import { afterAll, afterEach } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { skipMessage } from "../../scripts/electron-binary.mjs";
import { TempFolders } from "../../testkit/temp-folders";
import { appUnderTest, entryArguments } from "./app-under-test.mjs";

const mainEntry = join(dirname(fileURLToPath(import.meta.url)), "../../out/main/index.js");

/** The app the suite launches (the development binary or a packaged app), or why there is none. */
export const binary = appUnderTest(process.env);
/** Why the suite skips (no Electron binary), said once on loading; undefined when it runs. */
export const missing = "missing" in binary ? binary.missing : undefined;
if (missing !== undefined) console.warn(skipMessage(missing));

/**
 * Launches the app on the profile `userData` (`env`: more of its environment); errors thrown in its pages are added
 * to `pageErrors`.
 */
export async function launchApp(userData: string, options: { env?: Record<string, string>; pageErrors?: string[] } = {}): Promise<ElectronApplication> {
  if ("missing" in binary) throw new Error("unreachable: the suite is skipped without a binary");
  const launched = await _electron.launch({
    executablePath: binary.path,
    // Chromium refuses to start as root without --no-sandbox (CI containers); that is the OS sandbox only.
    args: [...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), ...entryArguments(binary, mainEntry)],
    env: { ...process.env, PADDOCK_USER_DATA: userData, ...options.env } as Record<string, string>,
    timeout: 30_000,
  });
  const errors = options.pageErrors;
  if (errors) {
    const watch = (page: Page) => page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
    launched.on("window", watch);
    for (const page of launched.windows()) watch(page);
  }
  return launched;
}

/** The app's first window, once its page is up (the composer shows). */
export async function ready(electronApp: ElectronApplication): Promise<Page> {
  const page = await electronApp.firstWindow();
  await page.getByTestId("composer").waitFor({ timeout: 30_000 });
  return page;
}

/** Resolves once the app's main process has exited (at once if it has). */
export function exited(electronApp: ElectronApplication): Promise<void> {
  const child = electronApp.process();
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Ends an app a test left running: Playwright's close (a quit; a quit question a test stubbed to answer Cancel now
 * lets it through), or SIGKILL if that does not end it within 20 s.
 */
export async function shutDown(electronApp: ElectronApplication | undefined): Promise<void> {
  if (!electronApp) return;
  const child = electronApp.process();
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = exited(electronApp);
  const timer = new Promise<void>((resolve) => setTimeout(resolve, 20_000).unref());
  await electronApp.evaluate(({ dialog }) => {
    (dialog as any).showMessageBox = () => Promise.resolve({ response: 0, checkboxChecked: false });
  }).catch(() => undefined);
  await Promise.race([electronApp.close().catch(() => undefined), timer]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await gone;
  }
}

/** Settings of a set-up profile whose model is the loopback test server's ("custom:test"), with `overrides`. */
export function testServerSettings(baseUrl: string, overrides: Partial<Settings> = {}): Settings {
  return {
    ...structuredClone(DEFAULT_SETTINGS as Settings),
    customProviders: [{ id: "test", name: "Test server", baseUrl, models: ["paddock-test"] }],
    defaultModel: { provider: "custom:test", id: "paddock-test" },
    onboarded: true,
    ...overrides,
  };
}

/**
 * A suite's apps (call inside its describe): `profile` makes a profile folder with those settings (removed after
 * the suite), `launch` starts the app on one; the app a test launched last is ended after it (`end`: shutDown).
 */
export function appsPerTest(prefix: string, end: (electronApp: ElectronApplication | undefined) => Promise<void> = shutDown) {
  const profiles = new TempFolders(prefix);
  let running: ElectronApplication | undefined;
  afterEach(async () => {
    const last = running;
    running = undefined;
    await end(last);
  });
  afterAll(() => profiles.removeAll());
  return {
    profile: (settings: Settings): string => profiles.make({ "settings.json": JSON.stringify(settings, null, 2) }),
    async launch(userData: string, options?: Parameters<typeof launchApp>[1]): Promise<ElectronApplication> {
      running = await launchApp(userData, options);
      return running;
    },
  };
}
