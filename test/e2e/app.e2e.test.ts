/**
 * Paddock end to end, nothing faked: the web host (`src/web-host/main.ts`) as a child process with real agent
 * workers, the built renderer in Debian's Chromium, and the loopback OpenAI-compatible test server as the model.
 * Replies are scripted with `[[turn: {json}]]` in the prompt (see src/web-host/openai-test-server.ts).
 *
 * The main host is given a test server this file owns (`--loopback-url`), so a test can queue a one-off failure
 * and read the requests; the settings tests run their own hosts with `--openai-test-server`, as `npm run dev:web`.
 * Screenshots of the main states go to test-results/screens/.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { startOpenAIServer, turnDirective, type OpenAITestServer, type ScriptedTurn } from "../../src/web-host/openai-test-server";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import { openChat as openChatIn, poll, replies, SCREENS, send, shot, type ChatPage } from "../../testkit/chat-page";
import { longTranscript } from "../../testkit/transcripts";
import { pickModel } from "../../testkit/model-picker";
import { CONTINUE_PROMPT } from "../../src/shared/agent/unfinished-reply";

const turn = turnDirective;

let browser: Browser;
let build: ReturnType<typeof privateBuildCopy>;
const tempDirs: string[] = [];

/** The host on a fresh (or given) data dir, running this run's private copy of the build. */
const startHost = (...args: string[]) => startWebHostProcess(["--build-dir", build.dir, "--integrity-check", ...args]);

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "paddock-e2e-"));
  tempDirs.push(dir);
  return dir;
}

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  build = privateBuildCopy();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  build?.remove();
});

/** A new chat (or `sessionId`) in a new page of this file's browser, ready to type. */
const openChat = (host: WebHostProcess, sessionId?: string): Promise<ChatPage> => openChatIn(browser, host, sessionId);

/** The last assistant message's text ("" when none); never waits for the element. */
const lastText = async (page: Page) => (await page.getByTestId("message-assistant").allTextContents()).at(-1) ?? "";
const lastAssistant = (page: Page) => page.getByTestId("message-assistant").last();
const userTexts = (page: Page) => page.getByTestId("message-user").allTextContents();
/** Whether any two rendered transcript rows overlap on screen (a row grew and the ones below it did not move). */
function rowsOverlap(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll(".vrow")].map((row) => row.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    return rows.some((row, i) => i > 0 && row.top < rows[i - 1].bottom - 1);
  });
}

describe("Paddock in the browser host", () => {
  let server: OpenAITestServer;
  let host: WebHostProcess;

  beforeAll(async () => {
    server = await startOpenAIServer({ models: ["test-model", "other-model"] });
    host = await startHost("--data-dir", tempDir(), "--loopback-url", server.baseUrl);
  });

  afterAll(async () => {
    await host?.stop();
    await server?.close();
  });

  it("streams a markdown reply whose code block is highlighted once complete", async () => {
    const { page, problems } = await openChat(host);
    await page.getByTestId("empty-chat").waitFor();
    await shot(page, "empty");
    const reply =
      "## Plan\n\nFirst, some **bold** words.\n\n```ts\nconst answer: number = 42;\nfunction twice(x: number) {\n  return x * 2;\n}\n```\n\nDone.";
    await send(page, `Show me code ${turn({ text: reply, chunkChars: 3, tokensPerSecond: 25 })}`);
    await page.getByTestId("stop-button").waitFor();
    await poll(() => lastText(page)).toContain("some bold");
    await shot(page, "streaming");
    await replies(page, 1);
    await poll(() => lastText(page)).toContain("Done.");
    const last = lastAssistant(page);
    expect(await last.locator("h2").textContent()).toBe("Plan");
    expect(await last.locator("strong").textContent()).toBe("bold");
    await last.locator(".hljs-keyword").first().waitFor();
    expect(await last.locator(".hljs-keyword").allTextContents()).toEqual(expect.arrayContaining(["const", "function", "return"]));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows tool-call cards: a built-in tool's result and an unknown tool's error", async () => {
    const { page, problems } = await openChat(host);
    await send(page, `Use tools ${turn({
      toolCalls: [
        { name: "calculate", arguments: { expression: "6*7" } },
        { name: "web_search", arguments: { query: "paddock" } },
      ],
    })}`);
    await replies(page, 2);
    const cards = page.getByTestId("tool-card");
    await poll(() => cards.count()).toBe(2);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["done", "failed"]);
    await cards.nth(0).getByRole("button").first().click(); // a done card starts folded
    expect(await cards.nth(0).getByTestId("tool-output").textContent()).toContain("6*7 = 42");
    expect(await cards.nth(1).getByTestId("tool-output").textContent()).toMatch(/web_search.*not found/i);
    await poll(() => lastText(page)).toContain("Received 2 tool results.");
    await shot(page, "tool-card");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("while running, Enter steers and Alt+Enter queues follow-ups; a removed one is never sent", async () => {
    const { page, problems } = await openChat(host);
    // Slow enough (about 12 s) that the queue is still waiting when a loaded machine (the whole suite on two cores)
    // has typed all three messages and read the strip; at 6 s, a send that came after the reply ended started a run
    // of its own instead of queueing.
    await send(page, `Talk slowly ${turn({ text: "word ".repeat(100), chunkChars: 5, tokensPerSecond: 10 })}`);
    await page.getByTestId("stop-button").waitFor();
    await send(page, "steer-one");
    await send(page, "follow-one", "Alt+Enter");
    await send(page, "follow-removed", "Alt+Enter");
    const strip = page.getByTestId("queue-strip");
    await poll(() => strip.getByRole("listitem").allTextContents()).toEqual([
      expect.stringContaining("steer-one"), expect.stringContaining("follow-one"), expect.stringContaining("follow-removed"),
    ]);
    await shot(page, "queue-strip");
    await strip.getByRole("button", { name: /Remove queued follow-up message: follow-removed/ }).click();
    await poll(() => strip.getByRole("listitem").count()).toBe(2);

    await poll(async () => (await userTexts(page)).length).toBe(3);
    await replies(page, 3);
    expect((await userTexts(page)).slice(1)).toEqual(["steer-one", "follow-one"]);
    await poll(() => page.getByTestId("message-assistant").allTextContents())
      .toEqual([expect.stringContaining("word word"), expect.stringContaining("steer-one"), expect.stringContaining("follow-one")]);
    expect(JSON.stringify(server.requests.map((r) => r.body.messages))).not.toContain("follow-removed");
    expect(await strip.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Esc aborts a running reply and the chat is usable again", async () => {
    const { page, problems } = await openChat(host);
    await send(page, `Hang ${turn({ text: "This reply starts and then hangs forever, never finishing.", chunkChars: 6, hangAfterChunks: 3 })}`);
    await poll(() => lastText(page)).toContain("This reply");
    await page.getByTestId("composer").press("Escape");
    await replies(page, 1);
    await poll(() => lastText(page)).toContain("Stopped");
    expect(await page.getByTestId("error-banner").count()).toBe(0);
    await send(page, "after the stop");
    await poll(() => lastText(page)).toContain("after the stop");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a 500 shows an error banner whose Retry asks again and succeeds", async () => {
    // As when automatic retries are off (or used up; retries.e2e.test.ts): the error waits for the user's Retry.
    await host.call("updateSettings", { abort: { retryAttempts: 0 } });
    const { page, problems } = await openChat(host);
    server.enqueue({ error: { status: 500, message: "upstream exploded" } });
    await send(page, "retry me please");
    const banner = page.getByTestId("error-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/The provider had a server error\..*500.*upstream exploded.*Retry/);
    await shot(page, "error");
    await page.getByTestId("retry-button").click();
    await banner.waitFor({ state: "detached" });
    await replies(page, 1);
    await poll(() => lastText(page)).toContain("retry me please");
    expect(await userTexts(page)).toEqual(["retry me please"]);
    expect(await page.getByTestId("message-assistant").count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
    await host.call("updateSettings", { abort: { retryAttempts: 3 } });
  });

  it("a rejected key and a reply that stalls say what went wrong, and the chat is usable after each", async () => {
    const { page, problems } = await openChat(host);
    const banner = page.getByTestId("error-banner");
    server.enqueue({ error: { status: 401, message: "Incorrect API key provided" } });
    await send(page, "who am I?");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/The provider rejected the API key\..*401 Incorrect API key provided.*Settings/);

    await host.call("updateSettings", { abort: { requestTimeoutMs: 5_000 } });
    try {
      // The provider answers, sends a few words, then nothing: the run must end by itself, not wait for Stop.
      await send(page, `Tell me a story ${turn({ text: "Once upon a time there was silence", chunkChars: 5, hangAfterChunks: 2 })}`);
      await poll(() => banner.textContent(), 20_000).toMatch(/The request timed out: the provider sent nothing for 5 s\./);
      await page.getByTestId("send-button").waitFor();
      expect(await lastText(page)).toContain("Once upon");
      await shot(page, "error-timeout");
    } finally {
      await host.call("updateSettings", { abort: { requestTimeoutMs: 120_000 } });
    }

    server.enqueue({ text: "Back in business." });
    await page.getByTestId("retry-button").click();
    await poll(() => lastText(page)).toContain("Back in business.");
    expect(await banner.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("switching model mid-session applies from the next reply", async () => {
    const { page, problems } = await openChat(host);
    await send(page, "first question");
    await replies(page, 1);
    await poll(() => lastAssistant(page).locator(".footer-model").textContent()).toBe("test-model");
    await pickModel(page, { provider: "custom:loopback", id: "other-model" });
    const before = server.requests.length;
    await send(page, "second question");
    await poll(() => lastText(page)).toContain("second question");
    await replies(page, 2);
    expect(await lastAssistant(page).locator(".footer-model").textContent()).toBe("other-model");
    expect(server.requests.slice(before).map((r) => r.body.model)).toEqual(["other-model"]);
    expect(await page.getByTestId("message-assistant").first().locator(".footer-model").textContent()).toBe("test-model");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Ctrl+, opens Settings from the chat", async () => {
    const { page, problems } = await openChat(host);
    await page.getByTestId("composer").press("Control+Comma");
    await page.getByTestId("settings-view").waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("two pages chat at once without crosstalk", async () => {
    const [a, b] = await Promise.all([openChat(host), openChat(host)]);
    const slow = (word: string) => turn({ text: `${word} `.repeat(60), chunkChars: 6, tokensPerSecond: 30 });
    await send(a.page, `A ${slow("alpha")}`);
    await send(b.page, `B ${slow("bravo")}`);
    // Both replies are in flight at the same time.
    await Promise.all([
      poll(() => lastText(a.page)).toContain("alpha alpha"),
      poll(() => lastText(b.page)).toContain("bravo bravo"),
    ]);
    expect(await a.page.getByTestId("stop-button").count()).toBe(1);
    expect(await b.page.getByTestId("stop-button").count()).toBe(1);
    await Promise.all([replies(a.page, 1), replies(b.page, 1)]);
    expect(await lastAssistant(a.page).textContent()).not.toContain("bravo");
    expect(await lastAssistant(b.page).textContent()).not.toContain("alpha");
    expect(host.workers.get(a.sessionId)).not.toEqual(host.workers.get(b.sessionId));
    expect([...a.problems, ...b.problems]).toEqual([]);
    await Promise.all([a.page.close(), b.page.close()]);
  });

  it("a worker killed mid-reply is restarted: the transcript survives and the user is told", async () => {
    const { page, sessionId } = await openChat(host);
    await send(page, "remember me");
    await replies(page, 1);
    await send(page, `Long story ${turn({ text: "once upon a time ".repeat(60), chunkChars: 4, tokensPerSecond: 40 })}`);
    // Over a second of streaming (160 characters a second): checkpoints have saved part of the reply.
    await poll(async () => (await lastText(page)).length).toBeGreaterThan(250);
    const pid = await host.waitForWorker(sessionId);
    process.kill(pid, "SIGKILL");

    const notice = page.getByTestId("notice").filter({ hasText: "agent process restarted" });
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain("SIGKILL");
    expect(await host.waitForWorker(sessionId, pid)).not.toBe(pid);
    await replies(page, 2); // never left "loading"; the reply is back as far as it was checkpointed
    expect(await lastAssistant(page).locator(".message-footer").textContent()).toContain("Interrupted");
    // The interrupted prompt was delivered (it is in the transcript), so it is not offered for sending again.
    expect(await page.getByTestId("composer").inputValue()).toBe("");
    expect(await page.getByText(/^Not sent/).count()).toBe(0);
    expect(await userTexts(page)).toEqual(["remember me", expect.stringContaining("Long story")]);
    expect(await page.getByTestId("message-assistant").first().textContent()).toContain("remember me");
    await shot(page, "worker-restarted");

    await send(page, "still there?");
    await poll(() => lastText(page)).toContain("still there?");
    await page.close();
  }, 60_000);
});

describe("settings in the browser host", () => {
  it("a corrupt settings file is set aside, defaults restored, and the user told", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "settings.json"), "{ this is not json");
    const host = await startHost("--data-dir", dir, "--openai-test-server");
    try {
      const { page, problems } = await openChat(host);
      const notice = page.getByTestId("notice").filter({ hasText: "settings file was unreadable" });
      await notice.waitFor();
      await shot(page, "corrupt-settings-notice");
      expect(readdirSync(dir).some((f) => /^settings\.corrupt-.*\.json$/.test(f))).toBe(true);
      await send(page, "works anyway");
      await poll(() => lastText(page)).toContain("works anyway");
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
    }
  }, 60_000);

  it("settings and chats survive a host restart", async () => {
    const dir = tempDir();
    let host = await startHost("--data-dir", dir, "--openai-test-server");
    let sessionId: string;
    try {
      const chat = await openChat(host);
      sessionId = chat.sessionId;
      const { page } = chat;
      await send(page, `Code please ${turn({ text: "Here you go:\n\n```js\nconst greet = (name) => `hi ${name}`;\n```" })}`);
      await replies(page, 1);
      await page.getByTestId("open-settings").click();
      await page.getByTestId("settings-view").waitFor();
      await shot(page, "settings");
      await page.getByLabel("Esc while the agent runs").selectOption("nothing");
      await page.getByRole("radiogroup", { name: "Theme" }).getByText("Dark").click();
      await poll(() => page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme)).toBe("dark");
      expect(chat.problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
    }

    host = await startHost("--data-dir", dir, "--openai-test-server");
    try {
      const { page, problems } = await openChat(host, sessionId);
      await poll(() => page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme)).toBe("dark");
      await poll(() => lastText(page)).toContain("Here you go");
      await lastAssistant(page).locator(".hljs-keyword").first().waitFor();
      await shot(page, "dark-theme");
      await page.getByTestId("open-settings").click();
      expect(await page.getByLabel("Esc while the agent runs").inputValue()).toBe("nothing");
      const sessions = await host.call<{ id: string }[]>("listSessions");
      expect(sessions.map((s) => s.id)).toContain(sessionId);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
    }
  }, 90_000);
});

describe("a long chat in the browser host", () => {
  it("opens at its newest message, loads older ones behind it, scrolls back to the first, and a send returns to the newest", async () => {
    const dir = tempDir();
    const host = await startHost("--data-dir", dir, "--openai-test-server");
    try {
      const { id } = await host.call<{ id: string }>("createSession");
      writeFileSync(join(dir, "sessions", `${id}.jsonl`), longTranscript(3_000));
      const { page, problems } = await openChat(host, id);
      await poll(() => page.getByTestId("message-user").last().textContent()).toContain("Question #1500:");
      await poll(() => page.locator(".row-history").count()).toBe(0);

      const list = page.getByTestId("message-list");
      await poll(async () => {
        await list.evaluate((el) => void (el.scrollTop = 0));
        return page.getByTestId("message-user").first().textContent();
      }).toContain("Question #1:");
      await shot(page, "long-chat-top");

      // Sending from up there brings the list back to the newest message, which it then follows.
      await page.getByRole("button", { name: /Jump to latest/ }).waitFor();
      await send(page, `Still with me? ${turn({ text: "Yes: all 3,000 messages are still here." })}`);
      await poll(() => lastText(page)).toContain("all 3,000 messages");
      await poll(() => page.getByRole("button", { name: /Jump to latest/ }).count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
    }
  }, 90_000);
});

describe("a host crash in the browser host", () => {
  it("a reply cut off by a host crash shows as interrupted after restart, with Retry and Continue; Continue goes on", async () => {
    const dir = tempDir();
    // Owned here, so the model keeps streaming through the crash as a real provider would.
    const server = await startOpenAIServer({ models: ["test-model"] });
    let host = await startHost("--data-dir", dir, "--loopback-url", server.baseUrl);
    try {
      const { page, sessionId } = await openChat(host);
      const story = Array.from({ length: 400 }, (_, i) => `The keeper climbed the stairs for night ${i + 1}.`).join(" ");
      server.enqueue({ text: story, chunkChars: 6, tokensPerSecond: 200 });
      await send(page, "Tell me a long story about a lighthouse keeper.");
      await poll(() => lastText(page)).toContain("night 12.");
      await host.kill();
      await page.close();

      host = await startHost("--data-dir", dir, "--loopback-url", server.baseUrl);
      const chat = await openChat(host, sessionId);
      const banner = chat.page.getByTestId("error-banner");
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/The reply was interrupted\..*Retry asks again.*Continue picks up where it stopped/);
      expect(await chat.page.getByTestId("retry-button").isVisible()).toBe(true);
      expect(await chat.page.getByTestId("continue-button").isVisible()).toBe(true);
      const interrupted = lastAssistant(chat.page);
      expect(await interrupted.locator(".message-footer").textContent()).toContain("Interrupted");
      const partial = (await interrupted.locator(".md-chunk").first().textContent()) ?? "";
      expect(await lastText(chat.page)).toContain("night 12.");
      await shot(chat.page, "interrupted");

      server.enqueue({ text: "And on the last night, the ships came back." });
      const before = server.requests.length;
      await chat.page.getByTestId("continue-button").click();
      await poll(() => lastText(chat.page)).toContain("the ships came back");
      await banner.waitFor({ state: "detached" });
      expect(await userTexts(chat.page)).toEqual(["Tell me a long story about a lighthouse keeper.", CONTINUE_PROMPT]);
      const sent = server.requests[before].body.messages as { role: string; content: unknown }[];
      expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(JSON.stringify(sent[1].content)).toContain(partial.slice(0, 40));
      await shot(chat.page, "continued");
      expect(chat.problems).toEqual([]);
      await chat.page.close();
    } finally {
      await host.stop();
      await server.close();
    }
  }, 90_000);
});

describe("runs that keep going in the browser host", () => {
  let server: OpenAITestServer;
  let host: WebHostProcess;
  let dir: string;
  /** About three seconds of streaming, with numbered words so a finished reply is recognisable. */
  const story = Array.from({ length: 300 }, (_, i) => `step${i + 1}`).join(" ");
  const slow = (): ScriptedTurn => ({ text: story, chunkChars: 6, tokensPerSecond: 150 });
  const item = (page: Page, id: string) => page.locator(`[data-testid=session-item][data-session-id="${id}"]`);

  beforeAll(async () => {
    dir = tempDir();
    server = await startOpenAIServer({ models: ["test-model"] });
    host = await startHost("--data-dir", dir, "--loopback-url", server.baseUrl);
  });
  afterAll(async () => {
    await host?.stop();
    await server?.close();
  });

  it("switching to another chat mid-reply leaves it working: the sidebar shows it running, then unread, and it is finished on return", async () => {
    const { page, sessionId, problems } = await openChat(host);
    server.enqueue(slow());
    await send(page, "Count the steps for me.");
    await poll(() => lastText(page)).toContain("step3 ");
    await page.getByTestId("new-chat").click();
    await page.getByTestId("empty-chat").waitFor();
    await poll(() => item(page, sessionId).getAttribute("data-state")).toBe("running");
    await shot(page, "background-running");
    await poll(() => item(page, sessionId).getAttribute("data-state"), 20_000).toBe("unread");
    expect(await page.getByTestId("attention-toast").textContent()).toContain("The agent has finished.");
    await shot(page, "background-unread");

    await item(page, sessionId).getByRole("button").first().click();
    await replies(page, 1);
    expect(await lastText(page)).toContain("step300");
    expect(await lastAssistant(page).locator(".message-footer").textContent()).not.toMatch(/Stopped|Interrupted/);
    await poll(() => item(page, sessionId).getAttribute("data-state")).toBe("idle");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("reloading mid-reply picks the streaming reply up where it is and watches it finish", async () => {
    const { page, problems } = await openChat(host);
    server.enqueue(slow());
    await send(page, "Count again, I will reload.");
    await poll(() => lastText(page)).toContain("step5 ");
    // The token left the address bar once the page had it; the reload gets in by the credential the tab kept (no cookie).
    expect(new URL(page.url()).searchParams.has("token")).toBe(false);
    await page.reload();
    await page.getByTestId("stop-button").waitFor();
    const afterReload = await lastText(page);
    expect(afterReload).toContain("step5 ");
    expect(afterReload).not.toContain("step300");
    await shot(page, "reloaded-mid-reply");
    await replies(page, 1);
    expect(await lastText(page)).toContain("step300");
    expect(await page.getByTestId("message-assistant").count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("a page whose host stopped says so, cannot send or stop, and carries on once the host is back", async () => {
    const { page, sessionId } = await openChat(host);
    server.enqueue(slow());
    await send(page, "Count while the host goes away.");
    await poll(() => lastText(page)).toContain("step3 ");
    await host.stop(); // SIGTERM: the run is stopped and journaled as such
    const status = page.getByTestId("host-status");
    await status.waitFor({ timeout: 10_000 });
    expect(await status.textContent()).toContain("Paddock is not running");
    await poll(() => page.getByTestId("connection-pill").textContent()).toBe("Paddock is not running");
    await poll(() => item(page, sessionId).getAttribute("data-state")).toBe("idle");
    await page.getByTestId("composer").fill("are you there?");
    expect(await page.getByTestId("composer").getAttribute("placeholder")).toContain("not running");
    expect(await page.locator("[data-testid=send-button], [data-testid=stop-button]").first().isDisabled()).toBe(true);
    await shot(page, "host-stopped");

    host = await startHost("--data-dir", dir, "--loopback-url", server.baseUrl); // the same address, the same token
    await status.waitFor({ state: "detached", timeout: 20_000 });
    await poll(() => page.getByTestId("connection-pill").count(), 20_000).toBe(0);
    expect(await lastAssistant(page).locator(".message-footer").textContent()).toContain("Stopped");
    await page.getByTestId("composer").press("Enter");
    await poll(() => lastText(page)).toContain("are you there?");
    expect((await host.call<{ id: string }[]>("listSessions")).map((s) => s.id)).toContain(sessionId);
    await page.close();
  }, 90_000);
});

describe("workspace tools in the browser host", () => {
  let server: OpenAITestServer;
  let host: WebHostProcess;
  let folder: string;

  beforeAll(async () => {
    server = await startOpenAIServer({ models: ["test-model"] });
    host = await startHost("--data-dir", tempDir(), "--loopback-url", server.baseUrl);
    folder = realpathSync(tempDir());
    writeFileSync(join(folder, "AGENTS.md"), "Keep greetings short.\n");
    writeFileSync(join(folder, "greet.ts"), 'export function greet(name: string) {\n  return "Hello, " + name;\n}\n');
  });
  afterAll(async () => {
    await host?.stop();
    await server?.close();
  });

  it("a chat given a folder shows it and its AGENTS.md; an edit asks with its diff and is allowed with Y", async () => {
    const { page, problems } = await openChat(host);
    await page.getByTestId("workspace-button").click();
    await page.getByTestId("workspace-path").fill(folder);
    await page.getByTestId("workspace-path").press("Enter");
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(folder));
    await poll(() => page.getByTestId("workspace-context").textContent()).toContain("AGENTS.md");
    await poll(() => page.getByTestId("workspace-button").textContent()).not.toContain("no sandbox");

    const edit = { path: "greet.ts", edits: [{ oldText: '"Hello, " + name', newText: "`Hello, ${name}!`" }] };
    await send(page, `Use a template string ${turn({ toolCalls: [{ name: "edit", arguments: edit }] })}`);
    const card = page.getByTestId("tool-card");
    await poll(() => card.getAttribute("data-status")).toBe("asking");
    const diff = card.getByTestId("approval").getByTestId("diff");
    expect(await diff.textContent()).toContain('-  return "Hello, " + name;');
    expect(await diff.textContent()).toContain("+  return `Hello, ${name}!`;");
    // The message box keeps the focus; Ctrl+Shift+A goes to the question, whose keys act a moment later.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("composer");
    await page.keyboard.press("Control+Shift+A");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("approval-once");
    await poll(() => page.getByTestId("approval-once").getAttribute("aria-disabled")).toBe(null);
    await shot(page, "approval-edit");
    await page.keyboard.press("y");
    await replies(page, 2);
    expect(await card.getAttribute("data-status")).toBe("done");
    expect(readFileSync(join(folder, "greet.ts"), "utf8")).toContain("return `Hello, ${name}!`;");
    await card.getByRole("button").first().click(); // a done card starts folded
    expect(await card.getByTestId("diff").textContent()).toContain("+  return `Hello, ${name}!`;");
    // Unfolding a card grows its row: the rows below move down rather than being drawn over it.
    await poll(() => rowsOverlap(page)).toBe(false);
    await shot(page, "edit-done");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("an AGENTS.md that links out of the folder is not read, and the workspace panel says why", async () => {
    const linked = realpathSync(tempDir());
    const outside = realpathSync(tempDir());
    writeFileSync(join(outside, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    symlinkSync(join(outside, "id_ed25519"), join(linked, "AGENTS.md"));
    const { page, problems } = await openChat(host);
    await page.getByTestId("workspace-button").click();
    await page.getByTestId("workspace-path").fill(linked);
    await page.getByTestId("workspace-path").press("Enter");
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(linked));
    expect(await page.getByTestId("workspace-context").count()).toBe(0);
    await page.getByTestId("workspace-button").click();
    await poll(() => page.getByTestId("context-skipped").textContent()).toBe(
      `Project context ${join(linked, "AGENTS.md")}: not read (a link to ${join(outside, "id_ed25519")}, outside ${linked})`,
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a bash card streams the command's output while it runs", async () => {
    const { page, sessionId, problems } = await openChat(host);
    await host.call("setWorkspace", sessionId, folder);
    const command = "for i in 1 2 3 4 5 6; do echo line$i; sleep 0.4; done";
    await send(page, `Count ${turn({ toolCalls: [{ name: "bash", arguments: { command } }] })}`);
    const card = page.getByTestId("tool-card");
    await poll(() => card.getAttribute("data-status")).toBe("asking");
    expect(await card.getByTestId("approval-chat").count()).toBe(0); // a compound command can only be allowed once
    await card.getByTestId("approval-once").click();
    await poll(() => card.getByTestId("tool-output").textContent()).toContain("line2");
    expect(await card.getAttribute("data-status")).toBe("running");
    expect(await card.getByTestId("tool-output").textContent()).not.toContain("line6");
    await shot(page, "bash-streaming");
    await replies(page, 2);
    expect(await card.getAttribute("data-status")).toBe("done");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Settings lists the agents subagents can be, where they come from, and the cap on how many run at once", async () => {
    const { page, problems } = await openChat(host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    const agents = page.getByTestId("agents-list").getByTestId("agent");
    await poll(() => agents.count()).toBe(4);
    expect(await agents.locator(".agent-name").allTextContents()).toEqual(["planner", "reviewer", "scout", "worker"]);
    expect(await agents.first().textContent()).toContain("from Paddock");
    expect(await page.getByTestId("agents-list").textContent()).toContain(".pi/agent/agents");
    await page.getByTestId("max-subagents").fill("6");
    await page.getByTestId("max-subagents").blur();
    await poll(async () => (await host.call<{ tools: { maxSubagents: number } }>("getSettings")).tools.maxSubagents).toBe(6);
    await page.getByTestId("agents-list").scrollIntoViewIfNeeded();
    await shot(page, "settings-agents");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a subagent call shows each subagent live, nested, asks its questions in the card, and opens one in a page of its own", async () => {
    const { page, sessionId, problems } = await openChat(host);
    await host.call("setWorkspace", sessionId, folder);
    const tasks = [
      { agent: "scout", task: `Map the code ${turn({ text: "Mapped: greet.ts holds one function. ".repeat(30), tokensPerSecond: 40 })}` },
      { agent: "worker", task: `Write notes ${turn({ toolCalls: [{ name: "write", arguments: { path: "NOTES.md", content: "# Notes\n" } }] })}` },
    ];
    await send(page, `Split it ${turn({ toolCalls: [{ name: "subagent", arguments: { tasks } }] })}`);
    const card = page.getByTestId("tool-card");
    const rows = card.getByTestId("subagent");
    await poll(() => rows.count()).toBe(2);
    // The worker's write asks in the parent's card, labelled with the agent; the scout streams meanwhile.
    await poll(() => card.getAttribute("data-status")).toBe("asking");
    expect(await card.getByTestId("approval").textContent()).toContain("worker: write NOTES.md");
    expect(await rows.nth(1).getAttribute("data-status")).toBe("asking");
    // The scout's worker may still be starting when the question arrives (two busy cores): it runs soon after.
    await poll(() => rows.nth(0).getAttribute("data-status")).toBe("running");
    await rows.nth(0).getByTestId("subagent-watch").click();
    const nested = rows.nth(0).getByTestId("subagent-transcript");
    await poll(() => nested.getByTestId("message-assistant").count()).toBe(1);
    const early = (await nested.getByTestId("message-assistant").textContent()) ?? "";
    await poll(async () => ((await nested.getByTestId("message-assistant").textContent()) ?? "").length).toBeGreaterThan(early.length);
    await shot(page, "subagents-nested");

    // Its own page: the same transcript, live.
    const [own] = await Promise.all([page.context().waitForEvent("page"), rows.nth(0).getByTestId("subagent-open").click()]);
    await poll(() => own.getByTestId("message-assistant").count()).toBe(1);
    expect(await own.locator(".chat-title").textContent()).toContain("Map the code");
    await shot(own, "subagent-own-page");
    await own.close();
    // The Watch view closed again: its nested reply is no reply of this chat's (cards now stay open when done).
    await rows.nth(0).getByTestId("subagent-watch").click();
    await poll(() => nested.count()).toBe(0);

    await card.getByTestId("approval-once").click();
    await replies(page, 2);
    expect(await card.getAttribute("data-status")).toBe("done");
    expect(readFileSync(join(folder, "NOTES.md"), "utf8")).toBe("# Notes\n");
    // A subagent card stays as the user left it when the run ends: open.
    expect(await card.getByTestId("tool-output").textContent()).toContain("Parallel: 2/2 succeeded");
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["completed", "completed"]);
    await shot(page, "subagents-done");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("each subagent shows pi's status: pending until its turn, running, failed (an unknown agent), aborted when the chat is stopped", async () => {
    await host.call("updateSettings", { tools: { maxSubagents: 1 } }); // one at a time: the second waits its turn
    try {
      const { page, sessionId, problems } = await openChat(host);
      await host.call("setWorkspace", sessionId, folder);
      const tasks = [
        { agent: "scout", task: `Read slowly ${turn({ text: "Still reading. ".repeat(400), tokensPerSecond: 20 })}` },
        { agent: "worker", task: `Read slowly too ${turn({ text: "Still waiting. ".repeat(400), tokensPerSecond: 20 })}` },
        { agent: "ghost", task: "Haunt the code" },
      ];
      await send(page, `Three at once ${turn({ toolCalls: [{ name: "subagent", arguments: { tasks } }] })}`);
      const card = page.getByTestId("tool-card");
      const rows = card.getByTestId("subagent");
      const statuses = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")));
      // The first runs and the second waits its turn: main starts a call's tasks in its order, however its checks of
      // them end (both are slow, so a second that went first would stay running).
      await poll(statuses).toEqual(["running", "pending", "failed"]);
      expect(await rows.nth(1).getByTestId("subagent-status").textContent()).toBe(" · pending");
      expect(await rows.nth(2).textContent()).toContain('Unknown agent: "ghost". Available agents: "planner", "reviewer", "scout", "worker".');
      await shot(page, "subagents-statuses-live");

      await page.getByTestId("stop-button").click();
      await poll(statuses).toEqual(["aborted", "aborted", "failed"]);
      // Stopped by the user: the card says so (not "error"), and keeps what the tasks did.
      await poll(() => card.getAttribute("data-status")).toBe("stopped");
      expect(await card.getByTestId("tool-status").textContent()).toContain("stopped");
      expect(await rows.nth(0).getByTestId("subagent-status").textContent()).toBe(" · aborted");
      expect(await card.getByTestId("tool-output").textContent()).toContain("Parallel: 0/3 succeeded");
      await rows.nth(0).scrollIntoViewIfNeeded();
      await shot(page, "subagents-statuses-stopped");
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.call("updateSettings", { tools: { maxSubagents: 8 } });
    }
  });
});

describe("links in a reply", () => {
  let server: OpenAITestServer;
  let host: WebHostProcess;

  beforeAll(async () => {
    server = await startOpenAIServer();
    host = await startHost("--data-dir", tempDir(), "--loopback-url", server.baseUrl);
  });

  afterAll(async () => {
    await host?.stop();
    await server?.close();
  });

  it("show their real target, open at once when their text names no address, and ask first when it names another", async () => {
    const { page, problems } = await openChat(host);
    const context = page.context();
    const plainTarget = `${server.baseUrl}/models`;
    const realTarget = `${server.baseUrl}/models?from=bank`;
    await send(page, `Links ${turn({ text: `Read [the docs](${plainTarget}), or sign in at [https://bank.example/login](${realTarget}).` })}`);
    await replies(page, 1);
    const links = lastAssistant(page).locator("a");
    expect(await links.count()).toBe(2);
    // The tooltip is the real target, not anything the model wrote.
    expect(await links.nth(0).getAttribute("title")).toBe(plainTarget);
    expect(await links.nth(1).getAttribute("title")).toBe(realTarget);

    const opened: string[] = [];
    context.on("page", (tab) => void tab.waitForLoadState().then(() => opened.push(tab.url())));
    const [docs] = await Promise.all([context.waitForEvent("page"), links.nth(0).click()]);
    await docs.waitForURL(plainTarget);
    await docs.close();
    expect(await page.getByTestId("link-confirm").count()).toBe(0);

    // Its text says bank.example; it leads to the test server. The question shows both, the target in full.
    await links.nth(1).click();
    const dialog = page.getByTestId("link-confirm");
    await dialog.waitFor();
    expect(await dialog.getAttribute("aria-labelledby")).toBeTruthy();
    expect(await dialog.textContent()).toContain("https://bank.example/login");
    expect(await dialog.getByTestId("link-confirm-target").textContent()).toBe(realTarget);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("link-confirm-open");
    await shot(page, "link-confirm");

    // Esc cancels: nothing opens, and focus is back on the link.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("https://bank.example/login");

    // From the keyboard: Enter on the link asks (the same key press does not answer the question it raised),
    // and Enter in the question opens the real target.
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    expect(opened).toEqual([plainTarget]);
    const [tab] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Enter")]);
    await tab.waitForURL(realTarget);
    await tab.close();
    await dialog.waitFor({ state: "detached" });
    expect(opened).toEqual([plainTarget, realTarget]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("custom endpoint keys in the browser host", () => {
  it("a key saved for an endpoint is shown as saved for its address; moved elsewhere, Settings say it is not used there; Remove deletes it", async () => {
    const dir = tempDir();
    const host = await startHost("--data-dir", dir, "--openai-test-server");
    const secret = "sk-e2e-endpoint-secret";
    const storedKeys = () => JSON.parse(readFileSync(join(dir, "secrets.json"), "utf8")).keys as Record<string, { origin?: string }>;
    try {
      const { page, problems } = await openChat(host);
      await page.getByTestId("open-settings").click();
      await page.getByTestId("settings-view").waitFor();
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const endpoint = page.getByTestId("custom-provider").filter({ has: page.locator("legend", { hasText: "Ollama" }) });
      await endpoint.getByLabel("Model ids (comma separated)").fill("llama3.2");
      await endpoint.getByTestId("endpoint-key-input").fill(secret);
      await page.getByRole("button", { name: "Save endpoints" }).click();
      const status = endpoint.getByTestId("key-status");
      await poll(() => status.textContent()).toBe("Key saved for http://127.0.0.1:11434");
      expect(storedKeys()["custom:ollama"].origin).toBe("http://127.0.0.1:11434");

      // Another origin: the key stays with the old address, and Settings say so.
      await endpoint.getByLabel("Base URL").fill("http://localhost:11500/v1");
      await page.getByRole("button", { name: "Save endpoints" }).click();
      await poll(() => status.textContent()).toBe("Key was saved for http://127.0.0.1:11434; enter it again for http://localhost:11500");
      const moved = (await host.call<{ provider: string; keySource: string }[]>("providerStatus")).find((p) => p.provider === "custom:ollama");
      expect(moved).toEqual({ provider: "custom:ollama", keySource: "none", origin: "http://localhost:11500", keySavedFor: "http://127.0.0.1:11434" });
      await endpoint.scrollIntoViewIfNeeded();
      await shot(page, "settings-endpoint-key");

      await endpoint.getByTestId("endpoint-key-remove").click();
      await poll(() => status.textContent()).toBe("Not set");
      expect(await endpoint.getByTestId("endpoint-key-remove").count()).toBe(0);
      expect(storedKeys()["custom:ollama"]).toBeUndefined();
      // Only the status ever reached the page.
      expect(await page.content()).not.toContain(secret);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
    }
  }, 60_000);
});

describe("first launch", () => {
  it("on an empty data folder makes one chat and lists it once", async () => {
    const dir = tempDir();
    const host = await startHost("--data-dir", dir, "--openai-test-server");
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
      await page.goto(host.pageUrl("none").replace(/&session=.*$/, ""));
      await page.getByTestId("composer").waitFor();
      await page.waitForTimeout(500); // main's push about the new chat arrives around its creation's answer
      expect(await page.getByTestId("session-item").count()).toBe(1);
      expect((await host.call<unknown[]>("listSessions")).length).toBe(1);
      await page.close();
    } finally {
      await host.stop();
    }
  }, 60_000);
});
