/**
 * A sandboxed command's network question and "Allowed in this project", as a user meets them, nothing faked: the web
 * host, real workers, the real sandbox, the built page in Chromium, and a local HTTP server standing in for a package
 * registry on a host no rule allows. The command waits and its card asks ("curl wants 127.0.0.1:<port>"); Allow
 * once lets it through; "Allow … in this project" keeps the exact command and the host, which the workspace chip's
 * panel and Settings list, each removable. Screenshots: test-results/screens/approval-exact-scopes.png, network-question.png,
 * project-grants-chip.png, project-grants-settings.png.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import type { ProjectGrants } from "../../src/shared/protocol/app-api";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { expectAccessible } from "../../testkit/axe";

const sandbox = await sandboxForTests("the network question's e2e test");

let rig: E2eRig;
let registry: Server;
let port: number;
let folder: string;

beforeAll(async () => {
  rig = await startE2eRig("project-grants");
  registry = createServer((_request, response) => response.end("left-pad 1.3.0 from the registry\n"));
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", () => resolve()));
  port = (registry.address() as AddressInfo).port;
  folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-grants-")));
}, 120_000);

afterAll(async () => {
  await rig?.close();
  await new Promise<void>((resolve) => (registry ? registry.close(() => resolve()) : resolve()));
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Through the sandbox's proxy: its NO_PROXY would send 127.0.0.1 straight at the closed network namespace. */
const fetchCommand = () => `curl --noproxy '' -s --max-time 60 http://127.0.0.1:${port}/left-pad`;

async function runFetch(page: Page) {
  await send(page, `Install it ${turn({ toolCalls: [{ name: "bash", arguments: { command: fetchCommand() } }] })}`);
  const card = page.getByTestId("tool-card").last();
  await poll(() => card.getAttribute("data-status")).toBe("asking");
  return card;
}

/** What the command printed: its card opened (a finished card folds). */
async function outputOf(card: Locator): Promise<string> {
  await poll(() => card.getAttribute("data-status")).toBe("done");
  const header = card.locator(".tool-header");
  if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
  return (await card.getByTestId("tool-output").textContent()) ?? "";
}

describe.skipIf(!sandbox.available)("a command the sandbox refuses network access", () => {
  it("asks in its card naming the program and host; Allow lets it through; the project's grants are listed and removable", async () => {
    const { page, sessionId, problems } = await openChat(rig.browser, rig.host);
    await rig.host.call("setWorkspace", sessionId, folder);
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(folder));

    // The command's own question: its buttons name the exact command, never a prefix of it.
    const card = await runFetch(page);
    expect(await card.getByTestId("approval-chat").textContent()).toContain(fetchCommand());
    expect(await card.getByTestId("approval-project").textContent()).toBe(`Allow ${fetchCommand()} in this project P`);
    await page.waitForTimeout(700); // the buttons wait 600 ms after a question appears
    await shot(page, "approval-exact-scopes");
    await card.getByTestId("approval-project").click();

    // It runs, and its connection to the registry waits for the network question in the same card.
    const question = card.getByRole("group", { name: "Approve network access" });
    await question.waitFor({ timeout: 20_000 });
    expect(await question.locator(".approval-summary").textContent()).toBe(`curl wants 127.0.0.1:${port}`);
    expect(await question.getByTestId("approval-chat").count()).toBe(0);
    expect(await question.getByTestId("approval-project").textContent()).toBe("Allow 127.0.0.1 in this project P");
    await page.waitForTimeout(700);
    await shot(page, "network-question");
    await expectAccessible(page, "a network question in a command's card", { wholeHeight: false });
    await question.getByTestId("approval-once").click();
    await replies(page, 2);
    expect(await outputOf(card)).toContain("left-pad 1.3.0 from the registry");

    // Again: the command is allowed in this project, the host was allowed once: only the network asks.
    const again = await runFetch(page);
    await again.getByRole("group", { name: "Approve network access" }).waitFor();
    await page.waitForTimeout(700);
    await again.getByTestId("approval-project").click();
    await replies(page, 4);
    expect(await outputOf(again)).toContain("left-pad 1.3.0 from the registry");
    const kept = await rig.host.call<ProjectGrants>("projectGrants", sessionId);
    expect(kept.projects[0].grants.map((g) => g.grant)).toEqual([`bash=${fetchCommand()}`, "net:127.0.0.1"]);

    // The workspace chip's panel lists both exactly; removing the command leaves the host.
    await page.getByTestId("workspace-button").click();
    const list = page.getByTestId("project-grants");
    await poll(() => list.getByTestId("project-grant").allTextContents()).toEqual([`Command${fetchCommand()}Remove`, "Network127.0.0.1Remove"]);
    await shot(page, "project-grants-chip");
    await expectAccessible(page, "the workspace panel with the project's grants", { wholeHeight: false });
    await list.getByRole("button", { name: `Remove ${fetchCommand()}` }).click();
    await poll(() => list.getByTestId("project-grant").allTextContents()).toEqual(["Network127.0.0.1Remove"]);
    await page.keyboard.press("Escape");

    // The command asks again at once; the host does not.
    const third = await runFetch(page);
    await page.waitForTimeout(700);
    await third.getByTestId("approval-once").click();
    await replies(page, 6);
    expect(await outputOf(third)).toContain("left-pad 1.3.0 from the registry");

    // Settings lists every project's grants, by folder.
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    const all = page.getByTestId("project-grants");
    await all.scrollIntoViewIfNeeded();
    await poll(() => all.locator(".project-grants-folder").allTextContents()).toEqual([folder]);
    await poll(() => all.getByTestId("project-grant").allTextContents()).toEqual(["Network127.0.0.1Remove"]);
    await shot(page, "project-grants-settings");
    await all.getByRole("button", { name: "Remove 127.0.0.1" }).click();
    await poll(() => all.textContent()).toContain("No project allows anything yet.");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
