/**
 * The workspace panel explaining why there is no sandbox and how to get one, from the worker's real check path: the
 * web host started with `PADDOCK_NO_SANDBOX=apparmor` (the test switch reporting stock Ubuntu 24.04's result: AppArmor
 * refuses bubblewrap its user namespace) and `=missing` (bubblewrap and socat not installed), real workers, the built
 * page in Chromium. And Settings naming the log file's folder in the browser host.
 * Screenshots: test-results/screens/sandbox-help-apparmor.png, sandbox-help-missing.png, settings-logs.png.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { expectAccessible } from "../../testkit/axe";
import { openChat, poll, shot, SCREENS } from "../../testkit/chat-page";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";

let browser: Browser;
let root: string;
const hosts: WebHostProcess[] = [];
const build = privateBuildCopy();

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  root = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-sandbox-")));
  mkdirSync(join(root, "project"));
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  for (const host of hosts) await host.stop();
  await browser?.close();
  build.remove();
  rmSync(root, { recursive: true, force: true });
});

const dataDirs = new Map<WebHostProcess, string>();

async function hostWith(check: string): Promise<WebHostProcess> {
  const dataDir = join(root, `data-${check}`);
  const host = await startWebHostProcess(["--build-dir", build.dir, "--data-dir", dataDir, "--openai-test-server"], { PADDOCK_NO_SANDBOX: check });
  hosts.push(host);
  dataDirs.set(host, dataDir);
  return host;
}

/** A chat on the project folder with its workspace panel open, once the sandbox check has answered. */
async function panelOf(host: WebHostProcess) {
  const chat = await openChat(browser, host);
  const { page } = chat;
  await page.setViewportSize({ width: 1100, height: 820 });
  await page.getByTestId("workspace-button").click();
  await page.getByTestId("workspace-path").fill(join(root, "project"));
  await page.getByTestId("workspace-path").press("Enter");
  // The panel closes once main has set the folder; the worker's check may answer before or after that.
  await page.getByTestId("workspace-path").waitFor({ state: "detached", timeout: 60_000 });
  await poll(() => page.getByTestId("workspace-button").textContent(), 60_000).toContain("no sandbox");
  await page.getByTestId("workspace-button").click();
  const help = page.getByTestId("no-sandbox");
  await help.waitFor({ timeout: 60_000 });
  return { ...chat, help };
}

describe("the workspace panel without a sandbox", () => {
  it("stock Ubuntu 24.04: says AppArmor refuses bubblewrap, points to the profile and gives the sysctl", async () => {
    const { page, help, problems } = await panelOf(await hostWith("apparmor"));
    const text = await help.innerText();
    expect(text).toContain("No sandbox here: every command asks first.");
    expect(text).toContain("AppArmor refuses bubblewrap the user namespace it needs");
    expect(text).toContain("Install Paddock from its .deb: it adds an AppArmor profile that lets Paddock's sandbox run");
    expect(text).toContain("docs/security.md, “Linux sandbox”");
    expect(await help.getByTestId("sandbox-command").allInnerTexts()).toEqual([
      "sudo systemctl reload apparmor",
      "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    ]);
    await shot(page, "sandbox-help-apparmor");
    await expectAccessible(page, "the workspace panel explaining the missing sandbox");
    expect(problems).toEqual([]);
    await page.close();
  }, 150_000);

  it("bubblewrap and socat missing: the install commands for them", async () => {
    const { page, help, problems } = await panelOf(await hostWith("missing"));
    expect(await help.innerText()).toContain("The Linux sandbox needs bubblewrap and socat, which are not installed.");
    expect((await help.getByTestId("sandbox-command").allInnerTexts())[0]).toBe("sudo apt install bubblewrap socat");
    await shot(page, "sandbox-help-missing");
    expect(problems).toEqual([]);
    await page.close();
  }, 150_000);
});

describe("Settings in the browser host", () => {
  it("names the log file's folder, with no Open logs button (the page cannot open folders)", async () => {
    // The first host started here (any: each has its own data folder), or one of its own when run alone.
    const host = hosts[0] ?? (await hostWith("1"));
    const dataDir = dataDirs.get(host)!;
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Chats & runs" }).click();
    const logs = page.getByTestId("logs-folder");
    await logs.scrollIntoViewIfNeeded();
    expect(await logs.getByTestId("logs-path").innerText()).toBe(join(dataDir, "logs"));
    expect(await logs.getByTestId("open-logs").count()).toBe(0);
    await shot(page, "settings-logs");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
