/**
 * A workspace that holds Paddock's data folder, or is the home folder, as a user meets the question, nothing faked:
 * the web host with its data folder inside a project (`<project>/.paddock-dev`, the browser host's default layout),
 * real workers, the built page in Chromium. Choosing the project says why not and offers "Use this folder anyway";
 * insisting sets it. Screenshot: test-results/screens/workspace-refused.png.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { expectAccessible } from "../../testkit/axe";
import { openChat, poll, shot, SCREENS } from "../../testkit/chat-page";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import type { SessionSummary } from "../../src/shared/protocol/app-api";

let browser: Browser;
let host: WebHostProcess;
let project: string;
const build = privateBuildCopy();

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  project = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-project-")));
  browser = await launchChromium();
  host = await startWebHostProcess(["--build-dir", build.dir, "--integrity-check", "--data-dir", join(project, ".paddock-dev"), "--openai-test-server"]);
}, 120_000);
afterAll(async () => {
  await host?.stop();
  await browser?.close();
  build.remove();
  rmSync(project, { recursive: true, force: true });
});

describe("a workspace holding Paddock's data", () => {
  it("is refused with the reason, and set once the user insists; the home folder is refused too", async () => {
    const { page, sessionId, problems } = await openChat(browser, host);
    const choose = async (folder: string) => {
      await page.getByTestId("workspace-path").fill(folder);
      await page.getByTestId("workspace-path").press("Enter");
    };
    await page.getByTestId("workspace-button").click();

    await choose(homedir());
    const refusal = page.getByTestId("workspace-refusal");
    await poll(() => refusal.textContent()).toContain("Your home folder holds your keys and every project: choose a project folder.");

    await choose(`${project}/`);
    await poll(() => refusal.textContent()).toContain("This folder holds Paddock's own data (settings, keys, chats): an agent working here could read or change them.");
    expect(await refusal.locator("code").textContent()).toBe(project);
    expect(await page.getByTestId("workspace-button").textContent()).toContain("No workspace");
    const workspaceOf = async () => (await host.call<SessionSummary[]>("listSessions")).find((s) => s.id === sessionId)?.workspace;
    expect(await workspaceOf()).toBeUndefined();
    await shot(page, "workspace-refused");
    await expectAccessible(page, "the workspace panel refusing a folder");

    await page.getByTestId("workspace-insist").click();
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(project));
    await refusal.waitFor({ state: "detached" });
    expect(await workspaceOf()).toBe(project);
    await shot(page, "workspace-insisted");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
