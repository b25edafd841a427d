/**
 * The browser host's credential as an attacker on the same machine meets it, nothing faked: the web host with real
 * workers, the built page in Chromium, and a second HTTP server on another 127.0.0.1 port, as any local program
 * (a dev server, a compromised tool) could run. Browsers send a cookie for 127.0.0.1 to every port, so whatever the
 * host put in a cookie, that server would receive when the user's browser visits it. It must receive nothing that
 * opens the host's API. The page itself must keep working: a reload, a new tab by the printed address.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import type { BrowserContext, Page } from "playwright-core";
import { poll, shot } from "../../testkit/chat-page";

let rig: E2eRig;
let other: Server;
let otherOrigin: string;
/** The Cookie header of every request the other server got. */
const received: string[] = [];

beforeAll(async () => {
  rig = await startE2eRig("credential");
  other = createServer((req, res) => {
    received.push(req.headers.cookie ?? "");
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>another local server</title><p>hello</p>");
  });
  await new Promise<void>((ok) => other.listen(0, "127.0.0.1", ok));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await new Promise((ok) => other?.close(ok));
  await rig?.close();
});

/** A browser profile's tabs (cookies and all), and a tab of it on a new chat, ready to type; page errors gathered. */
async function openInContext(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await rig.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const problems: string[] = [];
  context.on("weberror", (e) => problems.push(e.error().message));
  const page = await context.newPage();
  await page.goto(rig.host.pageUrl((await rig.host.call<{ id: string }>("createSession")).id));
  await ready(page);
  return { context, page, problems };
}

const ready = (page: Page) => poll(() => page.getByTestId("composer").getAttribute("placeholder")).toBe("Message Paddock…");

/** What the host's API answers `getSettings` called with `credential` in the header, and as a cookie. */
async function statusesFor(credential: string): Promise<number[]> {
  const call = (headers: Record<string, string>) =>
    fetch(`${rig.host.origin}/api/call`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ method: "getSettings", args: [] }),
    }).then((r) => r.status);
  return [await call({ "x-paddock-token": credential }), await call({ cookie: credential })];
}

describe("the browser host's credential", () => {
  it("never reaches another server on 127.0.0.1, and nothing that server gets opens the API", async () => {
    const { context, page, problems } = await openInContext();
    // The other server visited in another tab, then from the Paddock tab itself (a same-site navigation).
    const tab = await context.newPage();
    await tab.goto(`${otherOrigin}/in-another-tab`);
    await page.goto(`${otherOrigin}/from-paddock`);
    expect(received.length).toBeGreaterThanOrEqual(2); // the pages, and their favicons
    expect(received.join("; ")).not.toMatch(/paddock/);
    // Whatever it received (nothing, by the line above), none of it is a credential.
    const values = received.flatMap((header) => header.split(";").map((part) => part.trim()).filter(Boolean));
    for (const value of [...values, ...values.map((v) => v.slice(v.indexOf("=") + 1))]) {
      expect(await statusesFor(value)).toEqual([401, 401]);
    }
    // No cookie of this browser holds the token or any credential of the host.
    const cookies = await context.cookies();
    expect(cookies.filter((c) => c.value !== "")).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("keeps the page working on a reload and in a new tab by the printed address; a bare address asks for it", async () => {
    const { context, page, problems } = await openInContext();
    expect(new URL(page.url()).searchParams.has("token")).toBe(false);
    await page.reload();
    await ready(page);
    expect(await page.getByTestId("session-item").count()).toBeGreaterThan(0);
    await shot(page, "credential-after-reload");

    const fresh = await context.newPage();
    await fresh.goto(rig.host.url);
    await ready(fresh);
    // A tab without the token and without a credential of its own: no cookie lets it in.
    const bare = await context.newPage();
    await bare.goto(`${rig.host.origin}/`);
    await poll(() => bare.getByRole("alert").textContent()).toContain("needs the address the web host printed");
    await shot(bare, "credential-bare-address");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
