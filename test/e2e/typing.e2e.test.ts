/**
 * Typing and reading in the browser host, nothing faked (real workers, the built page in Chromium, the loopback
 * model): what the user types is never taken away by something appearing on its own (a toast, a tool card, a
 * subagent, a run ending with an error); `@` completes the workspace's files and folders and attaches them; line
 * breaks in messages are kept. Screenshots go to test-results/screens/typing-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { turnDirective as turn, type OpenAITestServer, defaultFallback } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { TempFolders } from "../../testkit/temp-folders";
import { EVERYTHING_BIN } from "../../testkit/mcp-everything";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;
const temp = new TempFolders("paddock-e2e-typing-");

beforeAll(async () => {
  rig = await startE2eRig("typing");
  ({ browser, server, host } = rig);
});

afterAll(async () => {
  await rig?.close();
  temp.removeAll();
});

const composerValue = (page: Page) => page.getByTestId("composer").inputValue();
const composerFocused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") === "composer");

describe("focus stays where the user types", () => {
  it("keeps every keystroke in the composer while a toast, a tool card, a subagent and a failed run's error appear", async () => {
    const folder = temp.make({ "notes.txt": "the zebra is in the second drawer\n" });
    // The parent's answer after its tools fails (a clear error banner appears as the run ends); everything else as usual.
    server.setFallback((body) => {
      const messages = (body?.messages ?? []) as { role: string }[];
      const tools = ((body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
      if (messages.at(-1)?.role === "tool" && tools.includes("subagent")) return { error: { status: 400, message: "the test model refuses this one" } };
      return defaultFallback(body);
    });
    try {
      const { page, sessionId, problems } = await openChat(browser, host);
      // Another chat streams in the background and finishes while the user types here: its toast appears.
      const story = Array.from({ length: 120 }, (_, i) => `step${i + 1}`).join(" ");
      await send(page, `Count ${turn({ text: story, chunkChars: 6, tokensPerSecond: 60 })}`);
      await poll(() => page.locator("[data-testid=message-assistant]").count()).toBe(1);
      await page.getByTestId("new-chat").click();
      await page.getByTestId("empty-chat").waitFor();
      const current = (await host.call<{ id: string; messageCount: number }[]>("listSessions")).find((s) => s.id !== sessionId && s.messageCount === 0)!;
      await host.call("setWorkspace", current.id, folder);
      await poll(() => page.getByTestId("workspace-button").textContent()).toContain(folder.split("/").pop()!);

      // This chat: a paced reply, then a calculation and a subagent (its own paced reply), then the failing answer.
      const child = turn({ text: "Looking for the zebra, drawer by drawer, ".repeat(6), chunkChars: 4, tokensPerSecond: 30 });
      await send(page, `Work ${turn({
        text: "Let me think about this for a moment. ".repeat(4), chunkChars: 4, tokensPerSecond: 40,
        toolCalls: [{ name: "calculate", arguments: { expression: "6 * 7" } }, { name: "subagent", arguments: { agent: "scout", task: `Find the zebra. ${child}` } }],
      })}`);
      await page.getByTestId("stop-button").waitFor();
      expect(await composerFocused(page)).toBe(true);

      // The user starts the next message at once and types on, key by key, through all of it.
      const typed = "and after that, please also check the second drawer for the missing socks, then tell me what you found there; ".repeat(3);
      const typing = page.keyboard.type(typed, { delay: 30 });
      await poll(() => page.getByTestId("attention-toast").count(), 30_000).toBe(1);
      await poll(() => page.getByTestId("tool-card").count(), 30_000).toBeGreaterThanOrEqual(2);
      await poll(() => page.getByTestId("subagent").count(), 30_000).toBe(1);
      await poll(() => page.getByTestId("send-button").count(), 30_000).toBe(1); // the run ended
      await page.getByTestId("error-banner").waitFor();
      await shot(page, "typing-focus-kept");
      const stillTyping = await Promise.race([typing.then(() => false), Promise.resolve(true)]);
      expect(stillTyping).toBe(true); // everything above happened while keys were still being typed
      await typing;
      expect(await composerValue(page)).toBe(typed);
      expect(await composerFocused(page)).toBe(true);
      expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
      await page.close();
    } finally {
      server.setFallback(defaultFallback);
    }
  }, 120_000);
});

describe("@ in the composer", () => {
  it("completes workspace files and folders from the keyboard, attaches them as chips the model reads, and says why a binary file is not", async () => {
    const folder = temp.make({
      ".gitignore": "build/\n",
      "src/csv.ts": "export function parseCsv(line: string) {\n  return line.split(\",\");\n}\n",
      "src/components/composer/Composer.tsx": "export {};\n",
      "src/deep/parse.ts": "export const parse = 1;\n",
      "test/csv.test.ts": "test('csv')\n",
      "README.md": "# Demo\n",
      "build/csv.js": "ignored\n",
    });
    writeFileSync(join(folder, "logo.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const { page, sessionId, problems } = await openChat(browser, host);
    await host.call("setWorkspace", sessionId, folder);
    await poll(() => page.locator("#composer-hint").textContent()).toContain("@ for files");
    const composer = page.getByTestId("composer");
    const menu = page.getByTestId("mention-menu");
    const items = menu.getByTestId("mention-item");

    await composer.pressSequentially("Explain @cs");
    await poll(() => items.first().getAttribute("data-path")).toBe("src/csv.ts");
    const offered = await items.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-path")));
    expect(offered).toContain("test/csv.test.ts");
    expect(offered).not.toContain("build/csv.js"); // ignored by .gitignore
    expect(await composer.getAttribute("aria-activedescendant")).toBe(await items.first().getAttribute("id"));
    await shot(page, "typing-mention-menu");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "typing-mention-menu-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // The arrows move through it; Enter takes the highlighted row: the path replaces the word, a chip joins.
    await composer.press("ArrowDown");
    await poll(() => items.nth(1).getAttribute("aria-selected")).toBe("true");
    await composer.press("ArrowUp");
    await composer.press("Enter");
    await poll(() => composerValue(page)).toBe("Explain @src/csv.ts ");
    expect(await menu.count()).toBe(0);
    const chips = page.getByTestId("composer-attachment");
    await poll(() => chips.count()).toBe(1);
    expect(await chips.first().textContent()).toContain("src/csv.ts");

    // A folder attaches as its listing (Tab takes it too); a binary file is refused with the reason, nothing attached.
    await composer.pressSequentially("and @src/deep");
    await poll(() => items.first().getAttribute("data-path")).toBe("src/deep");
    await composer.press("Tab");
    await poll(() => chips.count()).toBe(2);
    await composer.pressSequentially("not @logo");
    await poll(() => items.first().getAttribute("data-path")).toBe("logo.bin");
    await composer.press("Enter");
    await poll(() => page.getByTestId("attachment-problems").textContent()).toContain("logo.bin is a binary file");
    expect(await chips.count()).toBe(2);
    // The refused file's `@logo.bin` leaves the box (it would tell the model a file is attached); the reason shows once.
    await poll(() => composerValue(page)).toBe("Explain @src/csv.ts and @src/deep/ not ");
    expect((await page.getByTestId("attachment-problems").textContent())!.split("logo.bin is a binary file").length).toBe(2);
    await shot(page, "typing-mention-refused");
    // Esc closes the menu without leaving the chat's run or the draft.
    await composer.pressSequentially(" @RE");
    await menu.waitFor();
    await composer.press("Escape");
    await poll(() => menu.count()).toBe(0);
    await shot(page, "typing-mention-chips");

    await composer.press("Enter");
    await replies(page, 1);
    const user = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)!;
    const parts = user.content as { type: string; text: string }[];
    expect(parts[0]!.text).toBe('<file name="src/csv.ts">\nexport function parseCsv(line: string) {\n  return line.split(",");\n}\n\n</file>');
    expect(parts[1]!.text).toBe('<file name="src/deep/">\nFolder src/deep/: 1 file, ignored files left out.\nsrc/deep/parse.ts\n</file>');
    expect(parts.at(-1)!.text).toContain("Explain @src/csv.ts and @src/deep/ not  @RE");
    const sent = page.getByTestId("message-user").last();
    await poll(() => sent.getByTestId("message-attachment").count()).toBe(2);
    await shot(page, "typing-mention-sent");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe("/ with MCP prompts", () => {
  it("lists the running MCP servers' prompts beside templates (one without arguments goes into the box, one with asks for them first); @ attaches their resources", async () => {
    await host.call("saveMcpServer", { id: "everything", name: "Everything", enabled: true, trusted: false, transport: { type: "stdio", command: process.execPath, args: [EVERYTHING_BIN, "stdio"], env: {} } }, {});
    await poll(async () => (await host.call<{ id: string; state: string }[]>("mcpStatus")).find((s) => s.id === "everything")?.state, 30_000).toBe("ready");
    const { page, problems } = await openChat(browser, host);
    const composer = page.getByTestId("composer");
    const mcpItems = page.getByTestId("slash-mcp-item");

    await composer.pressSequentially("/");
    await poll(() => mcpItems.count(), 20_000).toBeGreaterThanOrEqual(3);
    expect(await mcpItems.locator(".slash-name").allTextContents()).toEqual(expect.arrayContaining(["/args-prompt", "/simple-prompt"]));
    const args = mcpItems.filter({ hasText: "/args-prompt" });
    expect(await args.textContent()).toContain("<city> [state]");
    expect(await args.textContent()).toContain("MCP · Everything");
    await shot(page, "typing-slash-mcp-menu");

    // Without arguments: chosen from the keyboard, its text is the draft.
    await composer.pressSequentially("simple");
    await poll(() => mcpItems.count()).toBe(1);
    await composer.press("Enter");
    await poll(() => composerValue(page)).toBe("This is a simple prompt without arguments.");

    // With arguments: asked for, the required one first; Insert fetches it with them.
    await composer.fill("");
    await composer.pressSequentially("/args");
    await poll(() => mcpItems.count()).toBe(1);
    await mcpItems.first().click();
    const form = page.getByTestId("mcp-prompt-form");
    await form.waitFor();
    const fields = form.getByTestId("mcp-prompt-argument");
    expect(await fields.count()).toBe(2);
    await poll(() => fields.first().evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await form.getByRole("button", { name: "Insert" }).isDisabled()).toBe(true); // the city is required
    await fields.first().pressSequentially("Lisbon");
    await shot(page, "typing-slash-mcp-arguments");
    await fields.first().press("Enter");
    await poll(() => composerValue(page)).toBe("What's weather in Lisbon?");
    expect(await form.count()).toBe(0);
    await poll(() => composer.evaluate((el) => el === document.activeElement)).toBe(true);

    // Esc in the form goes back to the box, the draft as it was.
    await composer.fill("");
    await composer.pressSequentially("/args");
    await mcpItems.first().click();
    await form.waitFor();
    await page.keyboard.press("Escape");
    await poll(() => form.count()).toBe(0);
    expect(await composerValue(page)).toBe("/args");

    // The servers' resources come with `@` (this chat has no workspace: resources only); one chosen is a chip.
    await composer.fill("");
    await composer.pressSequentially("Summarise @architec");
    const resources = page.getByTestId("mention-resource");
    await poll(() => resources.count(), 20_000).toBeGreaterThanOrEqual(1);
    expect(await resources.first().textContent()).toContain("architecture.md");
    expect(await resources.first().textContent()).toContain("MCP · Everything");
    await shot(page, "typing-mention-mcp-resource");
    await composer.press("Enter");
    await poll(() => composerValue(page)).toBe("Summarise @architecture.md ");
    const chips = page.getByTestId("composer-attachment");
    await poll(() => chips.count()).toBe(1);
    expect(await chips.first().textContent()).toContain("architecture.md");
    await composer.press("Enter");
    await replies(page, 1);
    const user = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)!;
    expect((user.content as { text: string }[])[0]!.text).toMatch(/^<file name="architecture\.md">\n#/);

    // The chat switches the server off (its settings' choice, the one that takes its tools away): none of its
    // prompts in `/`, none of its resources in `@`. The lists were loaded above, so only the choice hides them.
    const chooseServers = async (all: boolean) => {
      await page.getByTestId("chat-settings-button").click();
      if (all) await page.getByTestId("chat-mcp-all").check();
      else {
        await page.getByTestId("chat-mcp-all").uncheck();
        await page.getByTestId("chat-mcp-everything").uncheck();
      }
      await page.getByTestId("chat-settings-save").click();
      await page.getByTestId("chat-settings").waitFor({ state: "detached" });
    };
    await chooseServers(false);
    await page.locator(".chat-settings-dot").waitFor();
    await composer.pressSequentially("/");
    await page.getByTestId("slash-menu").waitFor();
    await page.waitForTimeout(300);
    expect(await mcpItems.count()).toBe(0);
    await shot(page, "typing-slash-mcp-server-off");
    await composer.fill("");
    await composer.pressSequentially("Summarise @architec");
    await page.waitForTimeout(300);
    expect(await resources.count()).toBe(0);
    expect(await page.getByTestId("mention-menu").count()).toBe(0);

    // Back on: both come back.
    await composer.fill("");
    await chooseServers(true);
    await composer.pressSequentially("/simple");
    await poll(() => mcpItems.count()).toBe(1);
    await composer.fill("");
    await composer.pressSequentially("@architec");
    await poll(() => resources.count()).toBeGreaterThanOrEqual(1);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

describe("line breaks", () => {
  it("keep a haiku on three lines in the user's message and in the reply", async () => {
    const { page, problems } = await openChat(browser, host);
    const haiku = "An old silent pond\nA frog jumps into the pond\nSplash! Silence again.";
    await page.getByTestId("composer").fill(`Mine first:\n${haiku}\nNow yours. ${turn({ text: haiku })}`);
    await page.getByTestId("composer").press("Enter");
    await replies(page, 1);
    const reply = page.getByTestId("message-assistant").last();
    await poll(() => reply.locator("p br").count()).toBe(2);
    // Three lines on screen: the reply's paragraph is three line-heights tall.
    const lines = await reply.locator("p").first().evaluate((p) => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)));
    expect(lines).toBe(3);
    const user = page.locator("[data-testid=message-user] .user-bubble").last();
    const userLines = await user.evaluate((b) => {
      const text = b.querySelector(".user-text") ?? b;
      return Math.round(text.getBoundingClientRect().height / parseFloat(getComputedStyle(text).lineHeight));
    });
    expect(userLines).toBeGreaterThanOrEqual(5);
    await shot(page, "typing-haiku");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
