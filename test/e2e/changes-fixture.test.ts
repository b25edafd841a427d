/**
 * The changes view in the chat page, in a real Chromium against the UI fixture (test/e2e/fixtures: the real App, the
 * "changes" scenario's scripted change set): the header's Changes button and the panel it opens (Esc closes it, the
 * focus goes back), a tool card's ChangeStat opening it at its turn and file, a hunk revert meeting a file changed
 * outside, Rewind from a user message with the conflict dialog and Redo, and the worker's refusal shown in words.
 * Screenshots under test-results/ui/changes-*.png.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { fixtureBrowser, screenshotDir } from "./fixtures/serve-fixture";
import { expectAccessible } from "../../testkit/axe";
import { poll, shot as chatPageShot } from "../../testkit/chat-page";

const fixture = fixtureBrowser();

const open = (scenario: string, viewport = { width: 1280, height: 800 }): Promise<Page> => fixture.open(scenario, { viewport, ready: "message-list" });

const calls = async (page: Page, name: string): Promise<unknown[][]> => (await fixture.calls(page)).filter((c) => c.name === name).map((c) => c.args);
const shot = (page: Page, name: string) => chatPageShot(page, name, screenshotDir);
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName);

describe("the changes view in the chat", () => {
  it("the header's button opens the panel since this turn, with the chat's count; Esc closes it and the focus goes back", async () => {
    const page = await open("changes");
    const cards = page.getByTestId("tool-changes");
    await poll(() => cards.count()).toBe(3);
    expect(await cards.allTextContents()).toEqual(["1 file changed, +1 \u22121", "2 files changed, +9 \u22120", "1 file changed, +4 \u22121"]);
    expect(await cards.first().getAttribute("aria-label")).toBe("1 file changed, +1 \u22121: show in the Changes panel");

    const button = page.getByTestId("changes-button");
    await poll(() => button.getAttribute("aria-label")).toBe("Changes: 4 files changed in this chat");
    expect(await button.textContent()).toBe("Changes4");
    await shot(page, "changes-tool-cards");

    await button.click();
    const panel = page.getByTestId("changes-panel");
    await panel.waitFor();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    await poll(() => focused(page)).toBe("changes-since");
    expect(await page.getByTestId("changes-since").inputValue()).toBe("turn");
    expect(await page.getByTestId("changes-since").locator("option").allTextContents()).toEqual([
      "This turn", "Start of the chat", "Since “Now document it in the README.”", "Since “The lamp should burn for twelve hours; add a te…”",
    ]);
    await poll(() => panel.getByTestId("changed-files").getByRole("option").count()).toBe(4);
    expect((await calls(page, "listChanges")).at(-1)).toEqual([{ kind: "turn" }]);
    await panel.getByText("Files .gitignore leaves out are not tracked.").waitFor();
    await shot(page, "changes-panel-open");
    await expectAccessible(page, "the chat with its Changes panel open", { wholeHeight: false });

    // Another point: the chooser asks again.
    await page.getByTestId("changes-since").selectOption("message:0");
    await poll(async () => (await calls(page, "listChanges")).at(-1)).toEqual([{ kind: "message", index: 0 }]);

    await page.getByTestId("changes-since").press("Escape");
    await poll(() => panel.count()).toBe(0);
    expect(await focused(page)).toBe("changes-button");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
  });

  it("a tool card opens the panel at its turn and file; a hunk revert meets a change made outside, asks, and offers Redo", async () => {
    const page = await open("changes");
    const editStat = page.getByTestId("tool-changes").first();
    await editStat.click();
    const panel = page.getByTestId("changes-panel");
    await panel.waitFor();
    expect(await page.getByTestId("changes-since").inputValue()).toBe("message:0");
    await poll(() => panel.getByTestId("changed-files").getByRole("option", { selected: true }).getAttribute("aria-label")).toBe("src/lamp.ts, modified, 2 lines added, 1 removed, by edit src/lamp.ts and npx vitest run --update");
    const diff = page.getByTestId("file-diff");
    await poll(() => diff.locator(".diff-hunk").count()).toBe(2);
    expect(await diff.locator(".diff-hunk-by").allTextContents()).toEqual(["by edit src/lamp.ts", "by npx vitest run --update"]);
    await shot(page, "changes-panel-from-card");

    await page.getByTestId("revert-hunk-0").click();
    const dialog = page.getByTestId("change-conflict");
    await dialog.waitFor();
    await poll(() => focused(page)).toBe("conflict-keep");
    await dialog.getByTestId("conflict-show-diff").click();
    await dialog.locator(".diff-add").first().waitFor();
    expect(await dialog.locator(".diff-add").first().textContent()).toContain("edited by the user");
    await shot(page, "changes-hunk-conflict");
    await expectAccessible(page, "the conflict dialog over the chat", { wholeHeight: false });
    // Esc in the dialog cancels it, not the panel.
    await page.keyboard.press("Escape");
    await poll(() => dialog.count()).toBe(0);
    expect(await panel.count()).toBe(1);

    await page.getByTestId("revert-hunk-0").click();
    await dialog.waitFor();
    await dialog.getByTestId("conflict-overwrite").click();
    await poll(() => diff.locator(".diff-hunk").count()).toBe(1);
    expect(await calls(page, "revertHunk")).toEqual([
      ["cp-0", "cp-9", "src/lamp.ts", "@@ -1,3 +1,3 @@", undefined],
      ["cp-0", "cp-9", "src/lamp.ts", "@@ -1,3 +1,3 @@", undefined],
      ["cp-0", "cp-9", "src/lamp.ts", "@@ -1,3 +1,3 @@", "overwrite"],
    ]);
    const notice = page.getByTestId("notice");
    await poll(() => notice.locator(".notice-text").textContent()).toBe("Reverted: 1 file restored.");
    await shot(page, "changes-hunk-reverted");

    // Close: the focus goes back to the card's ChangeStat that opened it.
    await panel.getByRole("button", { name: "Close changes" }).click();
    await poll(() => panel.count()).toBe(0);
    expect(await focused(page)).toBe("tool-changes");

    await notice.getByTestId("changes-redo").click();
    await poll(() => calls(page, "redo")).toEqual([[expect.stringMatching(/^revert-/), undefined]]);
  });

  it("Rewind from a user message: a menu of files, chat or both; a conflict asks; Redo brings it all back", async () => {
    const page = await open("changes");
    const second = page.getByTestId("message-user").nth(1);
    await second.hover();
    const rewind = second.getByTestId("rewind-button");
    await rewind.click();
    const menu = second.getByRole("menu");
    expect(await menu.getByRole("menuitem").allTextContents()).toEqual(["Rewind files", "Rewind chat", "Rewind both"]);
    await poll(() => focused(page)).toBe("BUTTON");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Rewind files");
    await shot(page, "changes-rewind-menu");
    await page.keyboard.press("Escape");
    await poll(() => menu.count()).toBe(0);
    expect(await focused(page)).toBe("rewind-button");

    await rewind.click();
    await menu.getByRole("menuitem", { name: "Rewind both" }).click();
    const dialog = page.getByTestId("change-conflict");
    await dialog.waitFor();
    await shot(page, "changes-rewind-conflict");
    await dialog.getByTestId("conflict-keep").click();
    expect(await calls(page, "rewind")).toEqual([[5, "both", undefined], [5, "both", "keep-mine"]]);
    const notice = page.getByTestId("notice");
    await poll(() => notice.locator(".notice-text").textContent()).toBe("Files and chat rewound: 3 files restored; 1 kept as it is.");
    await poll(() => page.getByTestId("message-user").count()).toBe(1);
    await poll(() => page.getByTestId("changes-button").getAttribute("aria-label")).toBe("Changes: 1 file changed in this chat");
    await shot(page, "changes-rewound");

    await notice.getByTestId("changes-redo").click();
    expect(await calls(page, "redo")).toEqual([["rewind-1", undefined]]);
    await poll(() => page.getByTestId("message-user").count()).toBe(2);
    await poll(() => notice.locator(".notice-text").textContent()).toBe("Redone: 4 files restored.");
    expect(await notice.getByTestId("changes-redo").count()).toBe(0);
    await poll(() => page.getByTestId("changes-button").getAttribute("aria-label")).toBe("Changes: 4 files changed in this chat");
  });

  it("in a 600 px window the header keeps the button, and the panel covers the chat with Close in reach", async () => {
    const page = await open("changes", { width: 600, height: 800 });
    const button = page.getByTestId("changes-button");
    await poll(() => button.getAttribute("aria-label")).toBe("Changes: 4 files changed in this chat");
    await shot(page, "changes-narrow-header");
    await button.click();
    const panel = page.getByTestId("changes-panel");
    await panel.getByTestId("changed-files").waitFor();
    const box = await page.getByTestId("chat-changes").boundingBox();
    expect(box?.width).toBe(600);
    await shot(page, "changes-narrow-panel");
    await expectAccessible(page, "the Changes panel in a narrow window", { wholeHeight: false });
    await panel.getByRole("button", { name: "Close changes" }).click();
    await poll(() => panel.count()).toBe(0);
    expect(await focused(page)).toBe("changes-button");
  });

  it("where nothing is recorded the panel says why, in words", async () => {
    const page = await open("chat");
    const button = page.getByTestId("changes-button");
    expect(await button.getAttribute("aria-label")).toBe("Changes");
    expect(await calls(page, "listChanges")).toEqual([]);
    await button.click();
    await poll(() => page.getByTestId("changes-panel").getByRole("alert").textContent()).toBe("The fake session records no workspace changes (listChanges)");
    await shot(page, "changes-refused");
    await page.getByTestId("changes-panel").getByRole("button", { name: "Close changes" }).click();
    // A rewind refused: the chat's banner says why.
    const first = page.getByTestId("message-user").first();
    await first.hover();
    await first.getByTestId("rewind-button").click();
    await first.getByRole("menuitem", { name: "Rewind files" }).click();
    await poll(() => page.getByTestId("notice").locator(".notice-text").textContent()).toBe("Rewind files failed: The fake session records no workspace changes (rewind)");
  });
});
