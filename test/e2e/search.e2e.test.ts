/**
 * Search, find and export/import as a user meets them, nothing faked: the web host with real workers and the built
 * page in Chromium. Screenshots go to test-results/screens/ (search-*, find-*, import-*).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { privateBuildCopy, startWebHostProcess } from "../../testkit/web-host-process";
import { openChat, poll, replies, send, shot, SCREENS } from "../../testkit/chat-page";
import { corpusTranscript, ChatCorpus } from "../../testkit/chat-corpus";
import { longTranscript, toolCallLines, transcriptLine } from "../../testkit/transcripts";
import { TempFolders } from "../../testkit/temp-folders";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";

let browser: Browser;
let build: ReturnType<typeof privateBuildCopy>;
const temp = new TempFolders("paddock-e2e-search-");

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  build = privateBuildCopy();
  browser = await launchChromium();
});
// A page left open keeps reconnecting to its stopped host: each test's pages go with it.
afterEach(async () => {
  await Promise.all(browser.contexts().map((c) => c.close()));
});
afterAll(async () => {
  await browser?.close();
  temp.removeAll();
  build?.remove();
});

/** A data folder holding chats (id, title, transcript) that main finds at start, as after earlier use. */
function dataWithChats(chats: { id: string; title: string; transcript: string; messages: number }[]): string {
  const dir = temp.make();
  mkdirSync(join(dir, "sessions"));
  const now = Date.now();
  const sessions = chats.map((c, i) => ({ id: c.id, title: c.title, created: now - i * 60_000, updated: now - i * 60_000, messageCount: c.messages }));
  writeFileSync(join(dir, "sessions", "index.json"), JSON.stringify({ version: 1, sessions }));
  for (const c of chats) writeFileSync(join(dir, "sessions", `${c.id}.jsonl`), c.transcript);
  return dir;
}

const startHost = (dir: string) => startWebHostProcess(["--build-dir", build.dir, "--data-dir", dir, "--openai-test-server"]);

/** Whether the row of message `index` is on screen inside the message list. */
function rowInView(page: Page, index: number): Promise<boolean> {
  return page.evaluate((key) => {
    const list = document.querySelector('[data-testid="message-list"]')!.getBoundingClientRect();
    const row = document.querySelector(`.vrow[data-key="${key}"]`)?.getBoundingClientRect();
    return !!row && row.bottom > list.top && row.top < list.bottom;
  }, `m${index}`);
}

/** The text the find highlight marks as the current match (the CSS Custom Highlight API), "" when none. */
function currentHighlight(page: Page): Promise<string> {
  return page.evaluate(() => {
    const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get("paddock-find-current");
    return highlight ? [...highlight].map((r) => r.toString()).join("|") : "";
  });
}

describe("search across chats in the sidebar", () => {
  it("finds words in old messages of any chat, shows snippets, and opens the chat at the message", async () => {
    const corpus = new ChatCorpus(3);
    const target = 37;
    const dir = dataWithChats([
      { id: "newest", title: "Today's questions", transcript: corpusTranscript(corpus, 6), messages: 6 },
      { id: "garden", title: "Garden planning", transcript: corpusTranscript(corpus, 400, (i) => (i === target ? "We booked the xylophone rehearsal for Friday." : undefined)), messages: 400 },
      { id: "music", title: "Music lessons", transcript: corpusTranscript(corpus, 20, (i) => (i === 5 ? "A xylophone is a percussion instrument." : undefined)), messages: 20 },
    ]);
    const host = await startHost(dir);
    try {
      const { page, problems } = await openChat(browser, host, "newest");
      await page.getByTestId("session-search").fill("xyloph");
      await poll(() => page.getByTestId("message-hit").count()).toBe(2);
      const hits = page.getByTestId("message-hit");
      await expect.poll(() => hits.first().locator("mark").first().textContent()).toMatch(/^xylophone$/i);
      expect(await hits.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Garden planning"), expect.stringContaining("Music lessons")]));
      await shot(page, "search-results");

      await page.locator(`[data-testid="message-hit"][data-session-id="garden"]`).click();
      await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Garden planning");
      await poll(() => rowInView(page, target)).toBe(true);
      expect(await page.locator(`.vrow[data-key="m${target}"]`).textContent()).toContain("xylophone rehearsal");
      expect(await currentHighlight(page)).toMatch(/^xylophone$/i);
      await shot(page, "search-opened-at-message");
      expect(problems).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 90_000);

  it("finds a command's output (an npm error in a bash result) and opens the chat with its folded card open at the text", async () => {
    const corpus = new ChatCorpus(5);
    const npm = "added 12 packages\nnpm ERR! code ERESOLVE\nnpm ERR! ERESOLVE could not resolve dependency tree\nnpm ERR! peer react@\"^17\" from left-pad@1.3.0";
    const lines = [
      ...corpusTranscript(corpus, 30).trimEnd().split("\n"),
      transcriptLine(30, "Install the dependencies, please."),
      // A command that ran (not an error: its card shows folded), its output holding npm's error.
      ...toolCallLines(31, "npm install", npm),
      transcriptLine(33, "npm could not resolve the dependency tree: left-pad wants React 17."),
    ];
    const dir = dataWithChats([
      { id: "other", title: "Other chat", transcript: corpusTranscript(corpus, 4), messages: 4 },
      { id: "deps", title: "Dependencies", transcript: `${lines.join("\n")}\n`, messages: 34 },
    ]);
    const host = await startHost(dir);
    try {
      const { page, problems } = await openChat(browser, host, "other");
      await page.setViewportSize({ width: 1000, height: 720 });
      await page.getByTestId("session-search").fill("ERESOLVE");
      await poll(() => page.getByTestId("message-hit").count()).toBe(1);
      const hit = page.getByTestId("message-hit");
      expect(await hit.getAttribute("data-message-index")).toBe("32");
      expect(await hit.textContent()).toMatch(/bash output: added 12 packages npm ERR! code ERESOLVE/);
      await shot(page, "search-tool-output-hit");
      await hit.click();
      await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Dependencies");
      // The reply's row (31) holds the card; the card opens and the word is marked inside its output.
      const card = page.locator('[data-tool-call="call-31"]');
      await poll(() => card.locator(".tool-header").getAttribute("aria-expanded")).toBe("true");
      await poll(() => currentHighlight(page)).toMatch(/^ERESOLVE$/);
      await poll(() => rowInView(page, 31)).toBe(true);
      expect(await card.getByTestId("tool-output").textContent()).toContain("could not resolve dependency tree");
      await shot(page, "search-tool-output-opened");
      expect(problems).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 90_000);

  it("a reply that just landed is found (main reads the worker's transcript as it grows)", async () => {
    const host = await startHost(dataWithChats([]));
    try {
      const { page, problems } = await openChat(browser, host);
      await send(page, `Name a bird ${turn({ text: "The albatross has the longest wingspan." })}`);
      await replies(page, 1);
      await page.getByTestId("session-search").fill("wingspan");
      // The reply, and the prompt (whose scripted-turn directive carries the reply's text).
      await poll(() => page.getByTestId("message-hit").count()).toBe(2);
      const texts = await page.getByTestId("message-hit").allTextContents();
      expect(texts.filter((t) => !t.includes("You: "))).toEqual([expect.stringContaining("The albatross has the longest wingspan.")]);
      expect(problems).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 60_000);
  it("results open in the sidebar follow a reply that lands after the search was typed", async () => {
    const host = await startHost(dataWithChats([]));
    try {
      const { page, problems } = await openChat(browser, host);
      await page.getByTestId("session-search").fill("petrel");
      await poll(() => page.getByTestId("message-results").textContent()).toContain("No messages match.");
      await send(page, `Name a seabird ${turn({ text: "The storm petrel walks on water." })}`);
      await replies(page, 1);
      // Nobody typed again: main's index gained the reply, its search-index event reached the page, which asked anew.
      await poll(() => page.getByTestId("message-hit").count()).toBe(2);
      expect(await page.getByTestId("message-results").textContent()).toContain("The storm petrel walks on water.");
      expect(problems).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 60_000);
});

describe("find in a chat", () => {
  it("finds in a 10,000-message chat: count, next and previous, the hit scrolled into view and marked, Esc closes", async () => {
    const dir = dataWithChats([{ id: "big", title: "Ten thousand messages", transcript: longTranscript(10_000), messages: 10_000 }]);
    const host = await startHost(dir);
    try {
      const { page, problems } = await openChat(browser, host, "big");
      // The whole history has loaded (the chat opens at its newest messages and loads the rest behind them).
      const list = page.getByTestId("message-list");
      await poll(async () => {
        await list.evaluate((el) => void (el.scrollTop = 0));
        return page.getByTestId("message-user").first().textContent();
      }).toContain("Question #1:");
      await list.click();
      await page.keyboard.press("Control+f");
      const input = page.getByTestId("find-input");
      await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      await input.fill("Question #1234:");
      await poll(() => page.getByTestId("find-count").textContent()).toBe("1/1");
      // Question #1234 is message 2466 (users ask at even numbers).
      await poll(() => rowInView(page, 2466)).toBe(true);
      await poll(() => currentHighlight(page)).toBe("Question #1234:");
      await shot(page, "find-in-10k-chat");

      await input.fill("step 999");
      // "step 9990?" ... "step 9998?": five questions, the newest first.
      await poll(() => page.getByTestId("find-count").textContent()).toBe("5/5");
      await poll(() => rowInView(page, 9998)).toBe(true);
      await input.press("Enter"); // next wraps to the oldest
      await poll(() => page.getByTestId("find-count").textContent()).toBe("1/5");
      await poll(() => rowInView(page, 9990)).toBe(true);
      await input.press("Shift+Enter");
      await poll(() => page.getByTestId("find-count").textContent()).toBe("5/5");
      await page.getByTestId("find-previous").click();
      await poll(() => page.getByTestId("find-count").textContent()).toBe("4/5");
      await poll(() => rowInView(page, 9996)).toBe(true);
      await poll(() => currentHighlight(page)).toBe("step 999");

      await input.fill("no such words anywhere");
      await poll(() => page.getByTestId("find-count").textContent()).toBe("No matches");
      await input.press("Escape");
      await poll(() => page.getByTestId("find-bar").count()).toBe(0);
      expect(await currentHighlight(page)).toBe("");
      expect(problems).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 120_000);
});

describe("export and import", () => {
  it("exports a chat as Markdown and JSON (downloads in the browser host) and imports the JSON as a new chat", async () => {
    const host = await startHost(dataWithChats([]));
    const downloads = temp.make();
    try {
      const { page, problems, sessionId } = await openChat(browser, host);
      await send(page, `What is a haiku? ${turn({ text: "A haiku is a **three-line** poem:\n\n- five syllables\n- seven\n- five" })}`);
      await replies(page, 1);
      await send(page, `Write one ${turn({ text: "An old silent pond\nA frog jumps into the pond\nSplash! Silence again." })}`);
      await replies(page, 2);
      await host.call("renameSession", sessionId, "Haiku: what & how?");
      await poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Haiku: what & how?");

      const download = async (item: string): Promise<{ name: string; text: string }> => {
        await page.getByTestId("chat-menu").click();
        if (item === "Export as Markdown") await shot(page, "export-menu");
        const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: item }).click()]);
        const path = join(downloads, file.suggestedFilename());
        await file.saveAs(path);
        return { name: file.suggestedFilename(), text: readFileSync(path, "utf8") };
      };
      const markdown = await download("Export as Markdown");
      expect(markdown.name).toBe("Haiku what how.md");
      expect(markdown.text).toMatch(/^# Haiku: what & how\?\n/);
      expect(markdown.text).toContain("## You\n\nWhat is a haiku?");
      expect(markdown.text).toContain("A haiku is a **three-line** poem");
      const json = await download("Export as JSON");
      expect(json.name).toBe("Haiku what how.json");
      expect(JSON.parse(json.text)).toMatchObject({ format: "paddock-chat", version: 1, title: "Haiku: what & how?" });

      // A file that is not an export is refused with the reason, and no chat appears.
      const before = await page.getByTestId("session-item").count();
      const bad = join(downloads, "notes.json");
      writeFileSync(bad, JSON.stringify({ notes: ["not a chat"] }));
      await page.getByTestId("import-file").setInputFiles(bad);
      await poll(() => page.getByRole("alert").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("not a Paddock chat export")]));
      expect(await page.getByTestId("session-item").count()).toBe(before);
      await page.getByRole("alert").filter({ hasText: "not a Paddock chat export" }).getByRole("button").click();

      await page.getByTestId("import-file").setInputFiles(join(downloads, json.name));
      await poll(() => page.getByTestId("session-item").count()).toBe(before + 1);
      await poll(() => page.getByTestId("message-assistant").count()).toBe(2);
      expect(await page.getByTestId("message-assistant").last().textContent()).toContain("A frog jumps into the pond");
      // A new chat, titled as the exported one, and the one shown.
      const active = await page.locator(".session-item.active").getAttribute("data-session-id");
      expect(active).not.toBe(sessionId);
      expect(await page.locator(".session-item.active").textContent()).toContain("Haiku: what & how?");
      await shot(page, "import-opened-chat");
      expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
    } finally {
      await host.stop();
      rmSync(downloads, { recursive: true, force: true });
    }
  }, 90_000);
});
