/**
 * The changes view against the real worker (issue 24 §2–§3), in the browser host with the loopback model scripted to
 * run `write` and `bash` in a workspace: the tool cards say what each call changed, the header's Changes button
 * counts the files, the panel lists them with the calls that changed them, a hunk revert meets the user's own edit
 * of the file (Keep mine) and another hunk goes back; Rewind files from the second message restores the folder (a
 * file changed outside asks first), Rewind chat takes its later messages back, and Redo brings each back. Under
 * test-results/screens/changes-real-*.png.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, send, shot } from "../../testkit/chat-page";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { expectAccessible } from "../../testkit/axe";

/** Outside a sandbox every command asks; the test answers none, so it needs one. */
const sandbox = await sandboxForTests("the changes view's browser checks");

let rig: E2eRig | undefined;
const folders: string[] = [];

beforeAll(async () => {
  if (!sandbox.available) return;
  rig = await startE2eRig("changes");
  await rig.host.call("updateSettings", { tools: { approval: { bash: "allow", write: "allow", edit: "allow" } } });
}, 120_000);

afterAll(async () => {
  await rig?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const FILLER = Array.from({ length: 10 }, (_, i) => `// line ${i + 5}`).join("\n");
const LAMP = `export function lamp() {\n  const hours = 8;\n  return hours;\n}\n${FILLER}\nexport const name = "lamp";\n`;
const LAMP_BY_AGENT = LAMP.replace("hours = 8", "hours = 12").replace('name = "lamp"', 'name = "lantern"');
const README = "# Lighthouse\n";

function workspace(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-changes-")));
  folders.push(folder);
  mkdirSync(join(folder, "src"));
  writeFileSync(join(folder, "src", "lamp.ts"), LAMP);
  writeFileSync(join(folder, "README.md"), README);
  return folder;
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName ?? null);

describe.skipIf(!sandbox.available)("the changes view with a real worker", () => {
  it("lists what write and bash changed, reverts a hunk around the user's own edit, rewinds files and redoes", async () => {
    const { host, browser } = rig as E2eRig;
    const folder = workspace();
    const { page, sessionId, problems } = await openChat(browser, host);
    await host.call("setWorkspace", sessionId, folder);
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(folder));

    // A first turn, so the turn under test is not the chat's first (its "since" differs from the chat's start).
    await send(page, `Look around ${turn({ toolCalls: [{ name: "bash", arguments: { command: "mkdir -p logs && echo started > logs/run.txt" } }] })}`);
    await poll(() => page.getByTestId("tool-changes").count(), 30_000).toBe(1);
    await page.getByTestId("send-button").waitFor({ timeout: 15_000 });

    await send(page, `Make the lamp a lantern ${turn({ toolCalls: [
      { name: "write", arguments: { path: "src/lamp.ts", content: LAMP_BY_AGENT } },
      { name: "bash", arguments: { command: "printf 'keep the lamp lit\\n' > notes.txt && rm README.md" } },
    ] })}`);
    const cards = page.getByTestId("tool-changes");
    await poll(() => cards.allTextContents(), 30_000).toEqual([expect.stringMatching(/^\d+ files? changed/), "1 file changed, +2 \u22122", "2 files changed, +1 \u22121"]);
    await page.getByTestId("send-button").waitFor({ timeout: 15_000 });
    const button = page.getByTestId("changes-button");
    await poll(() => button.getAttribute("aria-label")).toMatch(/^Changes: \d+ files changed in this chat$/);
    await shot(page, "changes-real-cards");

    // The write's card opens the panel at its turn, on the file it wrote.
    await cards.nth(1).click();
    const panel = page.getByTestId("changes-panel");
    await panel.waitFor();
    const list = panel.getByTestId("changed-files");
    await poll(() => list.getByRole("option").evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")))).toEqual([
      expect.stringMatching(/^README\.md, deleted, 0 lines added, 1 removed, by /),
      expect.stringMatching(/^notes\.txt, added, 1 line added, 0 removed, by /),
      expect.stringMatching(/^src\/lamp\.ts, modified, 2 lines added, 2 removed, by /),
    ]);
    await poll(() => list.getByRole("option", { selected: true }).getAttribute("data-testid")).toBe("changed-file-2");
    const diff = page.getByTestId("file-diff");
    await poll(() => diff.locator(".diff-hunk").count()).toBe(2);
    expect((await diff.locator(".diff-hunk-by").allTextContents()).every((by) => by.includes("write"))).toBe(true);
    await shot(page, "changes-real-panel");
    await expectAccessible(page, "the Changes panel on a real chat", { wholeHeight: false });

    // The user edits the lamp's first lines in their editor: taking back the agent's hunk there asks.
    writeFileSync(join(folder, "src", "lamp.ts"), LAMP_BY_AGENT.replace("hours = 12", "hours = 16"));
    await page.getByTestId("revert-hunk-0").click();
    const dialog = page.getByTestId("change-conflict");
    await dialog.waitFor();
    await poll(() => focused(page)).toBe("conflict-keep");
    await shot(page, "changes-real-conflict");
    await dialog.getByTestId("conflict-keep").click();
    await poll(() => dialog.count()).toBe(0);
    expect(readFileSync(join(folder, "src", "lamp.ts"), "utf8")).toContain("hours = 16");

    // The other hunk, away from the user's edit, goes back without asking; the user's edit stays.
    await poll(() => diff.locator(".diff-hunk").count()).toBeGreaterThan(0);
    const nameHunk = diff.locator(".diff-hunk").filter({ hasText: "lantern" });
    await nameHunk.getByRole("button", { name: /^Revert hunk/ }).click();
    await poll(async () => readFileSync(join(folder, "src", "lamp.ts"), "utf8")).toBe(LAMP.replace("hours = 8", "hours = 16"));
    await poll(() => page.getByTestId("notice").locator(".notice-text").textContent()).toBe("Reverted: 1 file restored.");

    await page.keyboard.press("Escape");
    await poll(() => panel.count()).toBe(0);

    // Rewind files from the second message: the user has since added to the agent's notes, and their edit of the lamp
    // stayed beside the reverted hunk, so it asks about both first.
    writeFileSync(join(folder, "notes.txt"), "keep the lamp lit\nand the logbook up to date\n");
    const second = page.getByTestId("message-user").nth(1);
    await second.hover();
    await second.getByTestId("rewind-button").click();
    await second.getByRole("menuitem", { name: "Rewind files" }).click();
    await dialog.waitFor();
    expect(await dialog.locator("code").allTextContents()).toEqual(["notes.txt", "src/lamp.ts"]);
    await shot(page, "changes-real-rewind-conflict");
    await dialog.getByTestId("conflict-overwrite").click();
    await poll(async () => existsSync(join(folder, "notes.txt"))).toBe(false);
    expect(readFileSync(join(folder, "README.md"), "utf8")).toBe(README);
    const notice = page.getByTestId("notice");
    await poll(() => notice.locator(".notice-text").textContent()).toMatch(/^Files rewound: \d+ files? restored\.$/);
    // The chat marks it, and the model is told in its next request (the worker's note, tested there).
    await poll(() => page.getByTestId("message-filesRestored").last().textContent()).toMatch(/^Files Files rewound: .*notes\.txt.*The agent is told in its next request\.$/);
    await shot(page, "changes-real-rewound");

    await notice.getByTestId("changes-redo").click();
    await poll(async () => existsSync(join(folder, "notes.txt"))).toBe(true);
    expect(existsSync(join(folder, "README.md"))).toBe(false);
    await poll(() => notice.locator(".notice-text").textContent()).toMatch(/^Redone: \d+ files? restored\.$/);

    // Rewind the chat from the second message: its later messages go (kept as a version); Redo brings them back.
    await poll(() => page.getByTestId("send-button").isVisible()).toBe(true);
    const assistants = await page.getByTestId("message-assistant").count();
    await second.hover();
    await second.getByTestId("rewind-button").click();
    await second.getByRole("menuitem", { name: "Rewind chat" }).click();
    await poll(() => notice.locator(".notice-text").textContent()).toBe("Chat rewound.");
    await poll(() => page.getByTestId("message-assistant").count()).toBeLessThan(assistants);
    await shot(page, "changes-real-chat-rewound");
    await notice.getByTestId("changes-redo").click();
    await poll(() => page.getByTestId("message-assistant").count()).toBe(assistants);
    expect(existsSync(join(folder, "notes.txt"))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
