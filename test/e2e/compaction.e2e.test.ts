/**
 * Context that never overflows, in the browser host with real workers: the context meter in the header (figures,
 * colour, a width that never moves the header), the marker where older messages were summarised (collapsed, opens to
 * the summary), and "Compact now". The model is the loopback server as an endpoint with a 2,000-token window.
 * Screenshots go to test-results/screens/compaction-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { pickModel } from "../../testkit/model-picker";
import { isSummaryRequest, summarisingFallback, tokensOf } from "../../testkit/compaction";
import type { CustomProvider, Settings } from "../../src/shared/settings/schema";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

const TINY = { provider: "custom:tiny", id: "tiny-model" };
const SUMMARY = "## Goal\nPlan a week in **Lisbon**.\n\n## Progress\n### Done\n- [x] Days one and two planned\n\n## Next Steps\n1. Plan day three";

beforeAll(async () => {
  rig = await startE2eRig("compaction", { models: ["test-model", "tiny-model"] });
  ({ browser, server, host } = rig);
  const settings = await host.call<Settings>("getSettings");
  const tiny: CustomProvider = { id: "tiny", name: "Tiny", baseUrl: server.baseUrl, models: ["tiny-model"], contextWindow: 2_000 };
  await host.call("updateSettings", { customProviders: [...settings.customProviders, tiny] });
});

afterAll(() => rig?.close());

const meter = (page: Page) => page.getByTestId("context-meter");
const meterText = (page: Page) => meter(page).textContent();
const level = (page: Page) => meter(page).getAttribute("data-level");
const box = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())!;

describe("the context meter and compaction markers", () => {
  it("counts the context against the window, turns colour near the limit, and marks where older messages were summarised", async () => {
    server.setFallback(summarisingFallback(SUMMARY));
    const { page, problems } = await openChat(browser, host);
    await pickModel(page, TINY);
    await poll(() => meterText(page)).toBe("0 / 2.0k");
    const widths = [(await box(page, "context-meter")).width];

    await send(page, tokensOf(300, "Day one"));
    await replies(page, 1);
    expect(await level(page)).toBe("ok");
    widths.push((await box(page, "context-meter")).width);
    await send(page, tokensOf(300, "Day two"));
    await replies(page, 2);
    // About 1,250 of 2,000: past four fifths of where compaction starts (1,500).
    await poll(() => level(page)).toBe("near");
    widths.push((await box(page, "context-meter")).width);
    await shot(page, "compaction-meter-near");

    // The third prompt passes the threshold: while the summary is written the meter is red.
    server.setFallback(summarisingFallback({ text: SUMMARY, chunkChars: 6, tokensPerSecond: 20 }));
    await send(page, tokensOf(300, "Day three"));
    await poll(() => level(page)).toBe("full");
    const full = await meterText(page);
    widths.push((await box(page, "context-meter")).width);
    await shot(page, "compaction-meter-full");
    await replies(page, 3);
    const marker = page.getByTestId("compaction-marker");
    await marker.waitFor();
    expect(await marker.textContent()).toBe("▸Earlier messages summarised (2 messages, ~600 tokens)");
    // The marker's row sits after the prompt that triggered it (row 4), before the reply.
    expect(await page.locator(".vrow:has([data-testid=compaction-marker])").getAttribute("data-index")).toBe("5");
    // Back under the threshold (about 1,250: the kept turns, the summary and the reply).
    await poll(() => level(page)).toBe("near");
    expect(parseFloat((await meterText(page))!)).toBeLessThan(parseFloat(full!));
    await shot(page, "compaction-marker");

    await marker.getByRole("button").click();
    await page.getByTestId("compaction-summary").locator("strong", { hasText: "Lisbon" }).waitFor();
    expect(await page.getByTestId("compaction-summary").textContent()).toContain("Plan day three");
    await page.locator(".vrow:has([data-testid=compaction-marker])").evaluate((row) => row.scrollIntoView({ block: "start" }));
    await shot(page, "compaction-marker-open");

    // The meter kept its width whatever it showed, so it never moved the header.
    expect(new Set(widths).size).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("compacts when asked from the meter's panel, and the marker is still there after a reload", async () => {
    server.setFallback(summarisingFallback(SUMMARY));
    const { page, sessionId, problems } = await openChat(browser, host);
    await pickModel(page, TINY);
    await send(page, "What should I see in Lisbon?");
    await replies(page, 1);
    await send(page, "And in Porto?");
    await replies(page, 2);
    await meter(page).click();
    const panel = page.getByRole("dialog", { name: "Context" });
    await panel.waitFor();
    expect(await page.getByTestId("context-figure").textContent()).toMatch(/^\d+ of 2,000 tokens \(\d+%\)$/);
    // What the chat has used so far is said here, not in the header (which leaves the title room).
    expect(await page.getByTestId("session-usage").textContent()).toMatch(/^This chat so far: \d+ tokens \(\d+ in, \d+ out\) · cost unknown$/);
    await shot(page, "compaction-meter-panel");
    const before = server.requests.length;
    await page.getByTestId("compact-now").click();
    await page.getByTestId("compaction-marker").waitFor();
    await panel.waitFor({ state: "detached" });
    expect(server.requests.slice(before).map((r) => isSummaryRequest(r.body))).toEqual([true]);
    expect(await page.getByTestId("compaction-marker").textContent()).toContain("(2 messages,");

    // A second time, with nothing new since: the panel says why.
    await meter(page).click();
    await page.getByTestId("compact-now").click();
    await panel.getByRole("alert").filter({ hasText: "Already compacted" }).waitFor();
    await shot(page, "compaction-already");

    await page.reload();
    await page.getByTestId("compaction-marker").waitFor();
    expect(await page.getByTestId("message-user").count()).toBe(2);
    expect(problems).toEqual([]);
    await page.close();
    expect(sessionId).toBeTruthy();
  });
});
