/**
 * Runs that survive the ordinary failures (issue 25), in the browser host with real workers: a rate limit, a server
 * error or a dropped connection shows "…: retrying in N s…" counting down with Stop, the failed attempt does not
 * stay in the chat, and when retrying gives up the error shows once. Settings show the limits where the request
 * timeout is. Screenshots go to test-results/screens/retries-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { expectAccessible } from "../../testkit/axe";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

beforeAll(async () => {
  rig = await startE2eRig("retries");
  ({ browser, server, host } = rig);
});

afterAll(() => rig?.close());

const banner = (page: Page) => page.getByTestId("retry-banner");
const countdown = (page: Page) => page.getByTestId("retry-countdown").textContent();
/** The seconds the countdown shows ("Rate limited: retrying in 18 s…" -> 18). */
const secondsShown = async (page: Page) => Number(/in (\d+) s/.exec((await countdown(page)) ?? "")?.[1] ?? NaN);
const assistantRows = (page: Page) => page.getByTestId("message-assistant");

describe("retries in the chat", () => {
  it("a rate limit counts down its Retry-After, then the answer comes, once", async () => {
    const { page, problems } = await openChat(browser, host);
    server.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 8 } }, { text: "Here is the answer after waiting." });
    await send(page, "hello there");
    await banner(page).waitFor();
    await poll(() => countdown(page)).toMatch(/^Rate limited: retrying in [5-8] s…$/);
    expect(await banner(page).textContent()).toContain("429 Slow down.");
    expect(await banner(page).textContent()).not.toContain("Retry after"); // the countdown says it
    expect(await banner(page).textContent()).toContain("Retry 1 of 3.");
    // At work, not failed: Stop in the composer, no error banner, no failed reply in the list.
    expect(await page.getByTestId("stop-button").count()).toBe(1);
    expect(await page.getByTestId("error-banner").count()).toBe(0);
    await shot(page, "retries-rate-limited-countdown");
    const first = await secondsShown(page);
    await poll(() => secondsShown(page), 5_000).toBeLessThan(first);
    // Only the chat's bottom, which this test is about (the sidebar and header are other tests').
    const mine = { exclude: [".sidebar", ".chat-header"], wholeHeight: false };
    await expectAccessible(page, "a chat waiting to retry, light", mine);
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "retries-rate-limited-countdown-dark");
    await expectAccessible(page, "a chat waiting to retry, dark", mine);
    await page.emulateMedia({ colorScheme: "light" });
    expect(await banner(page).count()).toBe(1); // still waiting: the checks above saw the banner

    await replies(page, 1);
    expect(await banner(page).count()).toBe(0);
    expect(await assistantRows(page).count()).toBe(1);
    expect(await assistantRows(page).textContent()).toContain("Here is the answer after waiting.");
    expect(await page.getByTestId("error-banner").count()).toBe(0);
    await shot(page, "retries-rate-limited-answered");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("a dropped connection retries without keeping the broken-off reply", async () => {
    const { page, problems } = await openChat(browser, host);
    await send(page, `Go ${turnDirective({ text: "The beginning of an answer that breaks", chunkChars: 4, dropAfterChunks: 4 })}`);
    await banner(page).waitFor();
    await poll(() => countdown(page)).toMatch(/^Connection dropped: retrying( in [12] s)?…$/);
    await shot(page, "retries-connection-dropped");
    // The retry gets the scripted turn again (the directive is the user's message): it drops again, and so on until
    // the limit. Answer it properly instead.
    server.enqueue({ text: "A whole answer this time." });
    await replies(page, 1);
    expect(await assistantRows(page).count()).toBe(1);
    const text = (await assistantRows(page).textContent()) ?? "";
    expect(text).toContain("A whole answer this time.");
    expect(text).not.toContain("The beginning");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("Stop during the wait ends the run as stopped, without an error and without asking again", async () => {
    const { page, problems } = await openChat(browser, host);
    server.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 30 } });
    const before = server.requests.length;
    await send(page, "hello again");
    await banner(page).waitFor();
    await page.getByTestId("retry-stop").click();
    await banner(page).waitFor({ state: "detached", timeout: 5_000 });
    await page.getByTestId("send-button").waitFor();
    await poll(() => assistantRows(page).last().textContent()).toContain("Stopped");
    expect(await page.getByTestId("error-banner").count()).toBe(0);
    await shot(page, "retries-stopped-while-waiting");
    await page.waitForTimeout(500);
    expect(server.requests.length - before).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("server errors beyond the limit end in one error, shown once", async () => {
    await host.call("updateSettings", { abort: { retryAttempts: 2 } });
    try {
      const { page, problems } = await openChat(browser, host);
      const busy = { error: { status: 503, message: "Service Unavailable", retryAfterSeconds: 2 } };
      server.enqueue(busy, busy, busy);
      await send(page, "are you up?");
      await banner(page).waitFor();
      await poll(() => countdown(page)).toMatch(/^Server error 503: retrying in [12] s…$/);
      await shot(page, "retries-server-error-countdown");
      await poll(() => page.getByTestId("retry-attempt").textContent(), 10_000).toBe("Retry 2 of 2.");
      const error = page.getByTestId("error-banner");
      await error.waitFor({ timeout: 15_000 });
      expect(await banner(page).count()).toBe(0);
      expect(await error.count()).toBe(1);
      expect(await assistantRows(page).count()).toBe(1);
      expect(await error.textContent()).toMatch(/The provider had a server error\..*503 Service Unavailable\..*Paddock retried 2 times\./);
      await shot(page, "retries-server-error-final");
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.call("updateSettings", { abort: { retryAttempts: 3 } });
    }
  }, 60_000);
});

describe("the retry settings", () => {
  it("sit with the request timeout, and a change is saved", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    const attempts = page.locator("#set-retries");
    await attempts.scrollIntoViewIfNeeded();
    expect(await attempts.inputValue()).toBe("3");
    expect(await page.locator("#set-retry-wait").inputValue()).toBe("60");
    await shot(page, "retries-settings");
    await attempts.fill("5");
    await attempts.press("Tab");
    await poll(async () => (await host.call<{ abort: { retryAttempts: number } }>("getSettings")).abort.retryAttempts).toBe(5);
    await attempts.fill("11");
    await attempts.press("Tab");
    await poll(() => page.getByText("The number of retries must be a whole number from 0 to 10.").count()).toBeGreaterThan(0);
    expect((await host.call<{ abort: { retryAttempts: number } }>("getSettings")).abort.retryAttempts).toBe(5);
    await host.call("updateSettings", { abort: { retryAttempts: 3 } });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
