/**
 * "New chat in a worktree" as a user meets it, nothing faked: the web host, real workers, real git, the built page in
 * Chromium. The dialog checks the folder as it is typed (a folder outside a repository is explained), makes the chat,
 * whose strip says "Worktree: paddock/… of <repo>"; Apply to workspace shows the changes first, is refused naming the
 * file the workspace changed too, and merges three ways when asked. Screenshots (test-results/screens/):
 * worktree-new-dialog.png, worktree-header.png, worktree-apply-dialog.png, worktree-apply-refused.png.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
let root: string;
let repository: string;
const build = privateBuildCopy();

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");

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
  host = await startWebHostProcess(["--build-dir", build.dir, "--integrity-check", "--data-dir", join(root, "data"), "--openai-test-server"]);
}, 120_000);
afterAll(async () => {
  await host?.stop();
  await browser?.close();
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

    // The agent's change (written here as its write tool would), and the user's own to the same file meanwhile.
    writeFileSync(join(chat.workspace!, "prices.txt"), "apple 1\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 7\n");
    writeFileSync(join(chat.workspace!, "new.txt"), "new\n");
    writeFileSync(join(repository, "prices.txt"), "apple 9\npear 2\nplum 3\nfig 4\nkiwi 5\nlime 6\n");
    await shot(page, "worktree-header");

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
});
