/**
 * "New chat in a worktree" as a user meets it, nothing faked: the web host, real workers, real git, the built page in
 * Chromium. The dialog checks the folder as it is typed (a folder outside a repository is explained), makes the chat,
 * whose strip says "Worktree: paddock/… of <repo>"; Apply to workspace shows the changes first, is refused naming the
 * file the workspace changed too, and merges three ways when asked. Screenshots (test-results/screens/):
 * worktree-new-dialog.png, worktree-header.png, worktree-changes-panel.png (the Changes panel against the worktree's
 * base), worktree-apply-dialog.png, worktree-apply-refused.png. An isolated
 * subagent task's card shows its changes with the same actions (subagent-worktree-card.png).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { expectAccessible } from "../../testkit/axe";
import { openChat, poll, replies, send, shot, SCREENS } from "../../testkit/chat-page";
import { startOpenAIServer, turnDirective as turn, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import type { SessionSummary } from "../../src/shared/protocol/app-api";
import { git } from "../../testkit/git";

let browser: Browser;
let host: WebHostProcess;
let server: OpenAITestServer;
let root: string;
let repository: string;
const build = privateBuildCopy();


beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  root = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-worktrees-")));
  repository = join(root, "shop");
  mkdirSync(repository);
  writeFileSync(join(repository, "prices.txt"), "apple 1\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 6\n");
  git(repository, "init", "-q");
  git(repository, "add", "-A");
  git(repository, "commit", "-q", "-m", "first");
  mkdirSync(join(root, "plain"));
  browser = await launchChromium();
  server = await startOpenAIServer();
  host = await startWebHostProcess(["--build-dir", build.dir, "--integrity-check", "--data-dir", join(root, "data"), "--loopback-url", server.baseUrl]);
}, 120_000);
afterAll(async () => {
  await host?.stop();
  await browser?.close();
  await server?.close();
  build.remove();
  rmSync(root, { recursive: true, force: true });
});

describe("a chat in a worktree", () => {
  it("is made from the sidebar, says so under its header, and applies its changes back (refused, then merged)", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("new-worktree-chat").click();
    const dialog = page.getByTestId("worktree-new-dialog");
    await dialog.waitFor();
    await page.getByTestId("worktree-folder").fill(join(root, "plain"));
    await poll(() => page.getByTestId("worktree-offer").textContent()).toContain("is not in a git repository");
    expect(await page.getByTestId("worktree-create").isDisabled()).toBe(true);
    await page.getByTestId("worktree-folder").fill(repository);
    await poll(() => page.getByTestId("worktree-offer").textContent()).toBe(`A new branch from main of ${repository}.`);
    await shot(page, "worktree-new-dialog");
    await expectAccessible(page, "the new worktree chat dialog");
    await page.getByTestId("worktree-create").click();

    const strip = page.getByTestId("worktree-strip");
    await strip.waitFor();
    const chat = (await host.call<SessionSummary[]>("listSessions")).find((s) => s.worktree)!;
    expect(await strip.textContent()).toContain(`Worktree: ${chat.worktree!.branch} of ${basename(repository)}`);
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(chat.workspace!));
    expect(await page.getByTestId("session-worktree").count()).toBe(1); // the sidebar marks it

    // The agent's changes, by its write tool in the worktree, and the user's own to the same file meanwhile.
    await host.call("updateSettings", { tools: { approval: { write: "allow" } } });
    const writes = [
      { name: "write", arguments: { path: "prices.txt", content: "apple 1\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 7\n" } },
      { name: "write", arguments: { path: "new.txt", content: "new\n" } },
    ];
    await send(page, `Raise the lime ${turn({ toolCalls: writes })}`);
    await replies(page, 1);
    expect(readFileSync(join(chat.workspace!, "new.txt"), "utf8")).toBe("new\n");
    writeFileSync(join(repository, "prices.txt"), "apple 9\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 6\n");
    await shot(page, "worktree-header");

    // The Changes panel compares the worktree with the commit it started from (what Apply brings over), not this turn.
    await page.getByTestId("changes-button").click();
    const since = page.getByTestId("changes-since");
    await poll(() => since.inputValue()).toBe("base");
    expect(await since.locator("option:checked").textContent()).toBe(`Worktree base (${chat.worktree!.base.slice(0, 7)})`);
    await poll(() => page.getByTestId("changed-files").textContent()).toContain("new.txt");
    expect(await page.getByTestId("changed-files").textContent()).toContain("prices.txt");
    await shot(page, "worktree-changes-panel");
    await page.keyboard.press("Escape");
    await page.getByTestId("chat-changes").waitFor({ state: "detached" });

    await page.getByTestId("worktree-apply").click();
    const apply = page.getByTestId("worktree-apply-dialog");
    await poll(() => page.getByTestId("worktree-files").textContent()).toContain("prices.txt");
    expect(await page.getByTestId("worktree-files").textContent()).toContain("new.txt");
    await shot(page, "worktree-apply-dialog");
    await expectAccessible(page, "the apply dialog");
    await page.getByTestId("worktree-apply-ok").click();
    const refused = page.getByTestId("worktree-refused");
    await poll(() => refused.textContent()).toContain("prices.txt");
    expect(readFileSync(join(repository, "prices.txt"), "utf8")).toBe("apple 9\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 6\n");
    await shot(page, "worktree-apply-refused");

    await page.getByTestId("worktree-merge").click();
    await apply.waitFor({ state: "detached" });
    await poll(() => strip.textContent()).toContain("Applied 2 files to the workspace.");
    expect(readFileSync(join(repository, "prices.txt"), "utf8")).toBe("apple 9\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 7\n");
    expect(readFileSync(join(repository, "new.txt"), "utf8")).toBe("new\n");

    await page.getByTestId("worktree-discard").click();
    await page.getByTestId("worktree-discard-confirm-ok").click();
    await strip.waitFor({ state: "detached" }); // the chat's record no longer has a worktree
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain("No workspace");
    expect(git(repository, "branch", "--list", chat.worktree!.branch)).toBe("");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("an isolated subagent task's card shows its changes, applied or kept from there", async () => {
    const project = join(root, "garden");
    mkdirSync(project);
    writeFileSync(join(project, "beds.txt"), "tulips\n");
    git(project, "init", "-q");
    git(project, "add", "-A");
    git(project, "commit", "-q", "-m", "first");
    const { page, sessionId, problems } = await openChat(browser, host);
    await host.call("setWorkspace", sessionId, project);
    const write = turn({ toolCalls: [{ name: "write", arguments: { path: "beds.txt", content: "tulips\nroses\n" } }] });
    const tasks = [1, 2].map((i) => ({ agent: "worker", task: `Plant ${i}. ${i === 1 ? write : ""}` }));
    await send(page, `Plant ${turn({ toolCalls: [{ name: "subagent", arguments: { tasks, isolation: "worktree" } }] })}`);
    await replies(page, 2);
    const card = page.getByTestId("tool-card");
    // A subagent card stays open when its run ends (as the user left it).
    const lines = card.getByTestId("subagent-worktree");
    await poll(() => lines.count()).toBe(2);
    await poll(() => lines.first().textContent()).toContain("1 file changed");
    expect(await lines.nth(1).textContent()).toContain("no files changed");
    expect(await lines.nth(1).getByTestId("worktree-apply").isDisabled()).toBe(true); // nothing to apply
    await card.getByTestId("subagents").scrollIntoViewIfNeeded();
    await shot(page, "subagent-worktree-card");

    await lines.first().getByTestId("worktree-apply").click();
    await poll(() => page.getByTestId("worktree-files").textContent()).toContain("beds.txt");
    await page.getByTestId("worktree-apply-ok").click();
    await poll(() => lines.first().textContent()).toContain("Applied 1 file to the workspace.");
    expect(readFileSync(join(project, "beds.txt"), "utf8")).toBe("tulips\nroses\n");
    await lines.first().getByTestId("worktree-keep").click();
    await poll(() => lines.first().textContent()).toMatch(/Branch paddock\/worker-plant-1-\S* kept with the changes committed on it/);
    // Opened again (a restart alike), the card asks main where each worktree stands.
    await page.reload();
    await poll(() => lines.first().textContent()).toMatch(/Branch paddock\/worker-plant-1-\S* kept; the worktree folder was removed\./);
    expect(await lines.first().getByTestId("worktree-apply").count()).toBe(0);
    expect(await lines.nth(1).getByTestId("worktree-apply").count()).toBe(1); // the other task's is still there
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
