/**
 * Runs, queues and errors in the browser host with real workers, as a user meets them: a follow-up queued before
 * Stop waits in the strip with "Send now" and "Discard" (and never goes out with the next prompt), "New chat" opens
 * the empty chat there is instead of piling up more, and each kind of provider failure says in words what happened
 * and what to do. Screenshots go to test-results/screens/runs-*.png and errors-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import type { SessionSummary } from "../../src/shared/protocol/app-api";
import { closedPort } from "../../testkit/closed-port";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("runs-queues");
  ({ browser, server, host } = rig);
});

afterAll(() => rig?.close());

const userTexts = (page: Page) => page.locator("[data-testid=message-user] .user-bubble").allTextContents();
const heldTexts = (page: Page) => page.getByTestId("queued-held").locator(".queue-text").allTextContents();
/** A reply that streams a little and then waits until stopped. */
const endless = turnDirective({ text: "I will go on and on about this for a very long while, ".repeat(20), chunkChars: 6, tokensPerSecond: 40, hangAfterChunks: 12 });

/** A chat whose reply is stopped while `queued` follow-ups wait (queued with Alt+Enter, as a user does). */
async function stoppedWithQueued(page: Page, ...queued: string[]): Promise<void> {
  await send(page, `Tell me everything ${endless}`);
  await page.getByTestId("stop-button").waitFor();
  for (const text of queued) await send(page, text, "Alt+Enter");
  await poll(() => page.getByTestId("queued-followUp").count()).toBe(queued.length);
  await page.getByTestId("stop-button").click();
  await page.getByTestId("send-button").waitFor();
}

describe("queued messages after Stop", () => {
  it("wait in the strip with Send now and Discard, and never go out with the next prompt", async () => {
    const { page, problems } = await openChat(browser, host);
    await stoppedWithQueued(page, "queued before Stop", "another one");
    await poll(() => heldTexts(page)).toEqual(["queued before Stop", "another one"]);
    const strip = page.getByTestId("queue-strip");
    await shot(page, "runs-held-after-stop");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 600, height: 720 });
    await page.waitForTimeout(500); // the sidebar slides away on narrow windows
    await shot(page, "runs-held-after-stop-dark-600");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1100, height: 720 });

    // The next prompt goes out alone; the held ones stay.
    const before = server.requests.length;
    await send(page, "something unrelated");
    await replies(page, 2);
    expect(server.requests.length - before).toBe(1);
    expect(await userTexts(page)).toEqual([expect.stringContaining("Tell me everything"), "something unrelated"]);
    expect(await heldTexts(page)).toEqual(["queued before Stop", "another one"]);

    // They survive a reload of the page.
    await page.reload();
    await poll(() => heldTexts(page)).toEqual(["queued before Stop", "another one"]);

    await strip.getByRole("button", { name: "Discard: another one" }).click();
    await poll(() => heldTexts(page)).toEqual(["queued before Stop"]);
    await strip.getByRole("button", { name: "Send now: queued before Stop" }).click();
    await replies(page, 3);
    await poll(() => userTexts(page)).toEqual([expect.stringContaining("Tell me everything"), "something unrelated", "queued before Stop"]);
    expect(await page.getByTestId("queue-strip").count()).toBe(0);
    expect(JSON.stringify(server.requests.map((r) => r.body.messages))).not.toContain("another one");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe("New chat", () => {
  const listed = async () => (await host.call<SessionSummary[]>("listSessions")).filter((s) => !s.parent);

  it("opens the empty chat there is rather than making another", async () => {
    const { page, sessionId, problems } = await openChat(browser, host);
    const newChat = page.getByTestId("new-chat");
    const count = (await listed()).length;

    // In an empty chat: New chat stays in it.
    await newChat.click();
    await page.waitForTimeout(300);
    expect((await listed()).length).toBe(count);
    await expect(page.locator(".session-item.active .session-title").textContent()).resolves.toBe("New chat");

    // After a message, New chat makes one; pressed again, it stays in that one.
    await send(page, "a first question");
    await replies(page, 1);
    await poll(async () => (await listed()).find((s) => s.id === sessionId)?.messageCount).toBe(2);
    await newChat.click();
    await poll(async () => (await listed()).length).toBe(count + 1);
    await poll(() => page.getByTestId("message-user").count()).toBe(0);
    await newChat.click();
    await page.waitForTimeout(300);
    expect((await listed()).length).toBe(count + 1);

    // From the first chat, New chat goes to the empty one rather than making a third.
    const fresh = (await listed()).find((s) => s.messageCount === 0 && s.id !== sessionId)!;
    await page.locator(".session-item", { hasText: "a first question" }).locator(".session-open").click();
    await poll(() => page.getByTestId("message-user").count()).toBe(1);
    await newChat.click();
    await poll(() => page.getByTestId("message-user").count()).toBe(0);
    await page.waitForTimeout(300);
    expect((await listed()).length).toBe(count + 1);
    await poll(async () => (await listed()).filter((s) => s.messageCount === 0).map((s) => s.id)).toEqual([fresh.id]);
    await expect(page.locator(".session-item.active .session-title").textContent()).resolves.toBe("New chat");
    await shot(page, "runs-new-chat-reused");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("provider failures in words", () => {
  const banner = (page: Page) => page.getByTestId("error-banner");
  // The errors as shown once automatic retries are off or used up (retries.e2e.test.ts shows the retrying).
  beforeAll(() => host.call("updateSettings", { abort: { retryAttempts: 0 } }));
  afterAll(() => host.call("updateSettings", { abort: { retryAttempts: 3 } }));

  it("a 429 with Retry-After says how long to wait", async () => {
    const { page, problems } = await openChat(browser, host);
    server.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 20 } });
    await send(page, "hello");
    await banner(page).waitFor();
    await poll(() => banner(page).textContent()).toMatch(/The provider is rate-limiting requests\..*429 Slow down\. Retry after 20 s\..*It asks you to wait 20 seconds, then Retry\./);
    await shot(page, "errors-rate-limit");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a stream that drops says so, and Retry asks again", async () => {
    const { page, problems } = await openChat(browser, host);
    await send(page, `Go ${turnDirective({ text: "The beginning of an answer that breaks", chunkChars: 4, dropAfterChunks: 4 })}`);
    await banner(page).waitFor();
    await poll(() => banner(page).textContent()).toMatch(/The connection dropped in the middle of the reply\..*Retry asks again from your message/);
    await shot(page, "errors-dropped");
    server.enqueue({ text: "A whole answer this time." });
    await page.getByTestId("retry-button").click();
    await poll(() => page.getByTestId("message-assistant").last().textContent()).toContain("A whole answer this time.");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a provider that never answers times out, said once with its seconds", async () => {
    await host.call("updateSettings", { abort: { requestTimeoutMs: 5_000 } });
    try {
      const { page, problems } = await openChat(browser, host);
      server.enqueue({ hangBeforeHeaders: true });
      await send(page, "are you there?");
      await banner(page).waitFor({ timeout: 20_000 });
      const text = (await banner(page).textContent()) ?? "";
      expect(text).toMatch(/The request timed out after 5 s: the provider did not answer\..*Settings → Request timeout/);
      expect(text).not.toMatch(/Request timed out/); // the headline says it; the raw text would say it again
      await shot(page, "errors-timeout");
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.call("updateSettings", { abort: { requestTimeoutMs: 120_000 } });
    }
  }, 40_000);

  it("an endpoint nobody listens at could not be reached, with what to check", async () => {
    const settings = await host.call<{ customProviders: unknown[]; defaultModel?: unknown }>("getSettings");
    const port = await closedPort();
    const gone = { id: "gone", name: "Gone", baseUrl: `http://127.0.0.1:${port}/v1`, models: ["m"] };
    await host.call("updateSettings", { customProviders: [...settings.customProviders, gone], defaultModel: { provider: "custom:gone", id: "m" } });
    try {
      const { page, problems } = await openChat(browser, host);
      await send(page, "hello?");
      await banner(page).waitFor();
      await poll(() => banner(page).textContent()).toMatch(
        new RegExp(`Paddock could not reach the provider\\..*ECONNREFUSED at http://127\\.0\\.0\\.1:${port}.*check that the server is running`),
      );
      await shot(page, "errors-unreachable");
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.call("updateSettings", { customProviders: settings.customProviders, defaultModel: settings.defaultModel });
    }
  });
});
