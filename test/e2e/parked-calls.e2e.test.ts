/**
 * A parked call in the browser host with real workers and the loopback model: a question asked while no window shows
 * the chat is parked, and the chat opened later shows it (saying it is parked); answered there, the call runs.
 * Screenshot: test-results/screens/parked-call.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, send, shot } from "../../testkit/chat-page";

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig("parked-calls");
  await rig.host.call("updateSettings", { tools: { approval: { calculate: "ask" } } });
});

afterAll(() => rig?.close());

describe("a parked call", () => {
  it("asked with no window open, shows parked in the chat opened later, and runs once allowed", async () => {
    const { browser, host, server } = rig;
    const first = await openChat(browser, host);
    server.enqueue(
      { toolCalls: [{ name: "wait", arguments: { seconds: 1.5 } }] },
      { toolCalls: [{ name: "calculate", arguments: { expression: "6*7" } }] },
      { text: "It is 42." },
    );
    await send(first.page, "wait, then compute");
    await first.page.getByTestId("stop-button").waitFor();
    await first.page.close(); // nobody watches when the question comes
    await new Promise((r) => setTimeout(r, 2_500));

    // Opened again while its run waits on the parked call (the composer offers to steer, so not openChat's wait).
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 }, colorScheme: "light" });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(host.pageUrl(first.sessionId));
    const again = { page, problems };
    const card = again.page.getByTestId("approval");
    await card.waitFor({ timeout: 15_000 });
    expect(await again.page.getByTestId("approval-parked").textContent()).toContain("Parked: asked while nobody was watching");
    await shot(again.page, "parked-call");
    await card.getByRole("button", { name: /Allow once/ }).click();
    await poll(() => again.page.getByTestId("message-assistant").last().innerText(), 15_000).toContain("It is 42.");
    expect([...first.problems, ...again.problems]).toEqual([]);
    await again.page.close();
  }, 90_000);
});
