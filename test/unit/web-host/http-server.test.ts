/**
 * The web host's HTTP server at its edges: the events WebSocket admits only this host's pages with the token, and no
 * malformed or aborted upgrade can take the host down.
 */
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startHttpServer, tokenMatches, type PageViewer, type RunningHttpServer } from "../../../src/web-host/http-server";
import { TempFolders } from "../../../testkit/temp-folders";

const TOKEN = "t".repeat(32);
let server: RunningHttpServer;
const subscribed: (string | undefined)[] = [];
let send: ((event: unknown) => void) | undefined;

beforeEach(async () => {
  subscribed.length = 0;
  server = await startHttpServer({
    port: 0,
    staticDir: "/nonexistent",
    token: TOKEN,
    routes: {
      call: async () => "ok",
      attach: async (_viewer: PageViewer) => ({ url: "ws://x" }),
      detach: async () => {},
      subscribe: (push, pageId) => {
        subscribed.push(pageId);
        send = push;
        return () => {
          send = undefined;
        };
      },
    },
  });
});
afterEach(async () => {
  await server.close();
});

const eventsUrl = (query: string) => `ws://127.0.0.1:${server.port}/api/events?${query}`;
const origin = () => `http://127.0.0.1:${server.port}`;

/** Opens a socket; resolves with the first message, or rejects when the upgrade is refused. */
function firstMessage(url: string, socketOrigin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { origin: socketOrigin });
    socket.once("message", (data) => {
      resolve(String(data));
      socket.close();
    });
    socket.once("open", () => send?.({ type: "hello" }));
    socket.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once("error", reject);
  });
}

/** Writes raw bytes to the server and resolves with whatever it answers before closing. */
function raw(bytes: string, resetAfterWrite = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.port, "127.0.0.1", () => {
      socket.write(bytes);
      if (resetAfterWrite) socket.resetAndDestroy();
    });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => resolve(answer));
  });
}

describe("the events WebSocket", () => {
  it("pushes events to a page of this host with the token, and tells which page it is", async () => {
    expect(await firstMessage(eventsUrl(`token=${TOKEN}&page=page-1`), origin())).toBe('{"type":"hello"}');
    expect(subscribed).toEqual(["page-1"]);
  });

  it("refuses a wrong token, another origin and other paths; a malformed page id is ignored", async () => {
    await expect(firstMessage(eventsUrl("token=wrong"), origin())).rejects.toThrow(/403/);
    await expect(firstMessage(eventsUrl(`token=${TOKEN}`), "https://evil.example")).rejects.toThrow(/403/);
    await expect(firstMessage(`ws://127.0.0.1:${server.port}/api/other?token=${TOKEN}`, origin())).rejects.toThrow(/403/);
    expect(await firstMessage(eventsUrl(`token=${TOKEN}&page=../../x`), origin())).toBe('{"type":"hello"}');
    expect(subscribed).toEqual([undefined]); // a page id that is not one is ignored, not trusted
  });

  it("survives an upgrade whose URL cannot be parsed, and one the client resets mid-refusal", async () => {
    const upgrade = (target: string) =>
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    expect(await raw(upgrade("http://["))).toMatch(/^HTTP\/1.1 400/);
    await raw(upgrade("/api/events?token=wrong"), true);
    for (let i = 0; i < 20; i++) await raw(upgrade("/api/events?token=wrong"), true);
    // Still serving.
    expect(await firstMessage(eventsUrl(`token=${TOKEN}`), origin())).toBe('{"type":"hello"}');
  });
});

describe("the page and its credential", () => {
  const folders = new TempFolders("paddock-page-");
  let pages: RunningHttpServer;
  let now = 1_000_000;
  const PAGE = '<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="x" /></head><body></body></html>';
  const HOUR = 60 * 60 * 1000;

  beforeEach(async () => {
    now = 1_000_000;
    pages = await startHttpServer({
      port: 0,
      staticDir: folders.make({ "index.html": PAGE, "app.js": "1" }),
      token: TOKEN,
      routes: { call: async () => "ok", attach: async () => ({ url: "ws://x" }), detach: async () => {}, subscribe: () => () => {} },
      credentialLifetimeMs: 12 * HOUR,
      now: () => now,
    });
  });
  afterEach(async () => {
    await pages.close();
    folders.removeAll();
  });

  const get = (path: string, cookie?: string) =>
    fetch(`http://127.0.0.1:${pages.port}${path}`, { headers: cookie ? { cookie } : {} });
  const api = (credential: string, path = "/api/call") =>
    fetch(`http://127.0.0.1:${pages.port}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-paddock-token": credential },
      body: JSON.stringify({ method: "getSettings", args: [] }),
    });
  const credentialOf = async (response: Response) => /<meta name="paddock-token" content="([^"]+)" \/>/.exec(await response.text())?.[1];

  it("gives the first load a page credential, never the token, and no cookie that holds either", async () => {
    const first = await get(`/?token=${TOKEN}`);
    expect(first.status).toBe(200);
    // The only cookie is the one clearing what earlier versions set.
    expect(first.headers.get("set-cookie")).toBe(`paddock-token-${pages.port}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`);
    const credential = (await credentialOf(first))!;
    expect(credential).toMatch(new RegExp(`^p1\\.${pages.port}\\.`));
    expect(credential).not.toContain(TOKEN);
    expect((await api(credential)).status).toBe(200);
    // A new tab by the printed address gets one of its own.
    expect(await credentialOf(await get(`/?token=${TOKEN}`))).not.toBe(credential);
  });

  it("serves a reload and the page's files without a credential, and with none written in", async () => {
    const reload = await get("/?session=abc");
    expect(reload.status).toBe(200);
    expect(reload.headers.get("set-cookie")).toBeNull();
    expect(await reload.text()).not.toContain("paddock-token");
    expect((await get("/app.js")).status).toBe(200);
  });

  it("refuses a wrong token in the address, and API calls without a credential, with a wrong one or by cookie", async () => {
    const wrong = await get("/?token=wrong");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain(TOKEN);
    for (const credential of ["", "wrong", `p1.${pages.port}.zzzzzz.abc.def`]) expect((await api(credential)).status).toBe(401);
    // A real credential with its expiry pushed out (or its port changed) no longer matches its MAC.
    const [p1, port, expiry, nonce, mac] = (await credentialOf(await get(`/?token=${TOKEN}`)))!.split(".");
    expect((await api([p1, port, expiry, nonce, mac].join("."))).status).toBe(200);
    const later = (parseInt(expiry, 36) + 365 * 24 * HOUR).toString(36);
    expect((await api([p1, port, later, nonce, mac].join("."))).status).toBe(401);
    expect((await api([p1, String(Number(port) + 1), expiry, nonce, mac].join("."))).status).toBe(401);
    const byCookie = await fetch(`http://127.0.0.1:${pages.port}/api/call`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `paddock-token-${pages.port}=${TOKEN}` },
      body: "{}",
    });
    expect(byCookie.status).toBe(401);
  });

  it("refuses a credential made for another port (another host with the same token)", async () => {
    const other = await startHttpServer({
      port: 0,
      staticDir: folders.make({ "index.html": PAGE }),
      token: TOKEN,
      routes: { call: async () => "ok", attach: async () => ({ url: "ws://x" }), detach: async () => {}, subscribe: () => () => {} },
    });
    try {
      const foreign = (await credentialOf(await fetch(`http://127.0.0.1:${other.port}/?token=${TOKEN}`)))!;
      expect((await api(foreign)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("refuses an expired credential, saying so; a renewed one lives on", async () => {
    const credential = (await credentialOf(await get(`/?token=${TOKEN}`)))!;
    now += 11 * HOUR;
    const renewed = (await (await api(credential, "/api/renew")).json()) as { credential: string };
    now += 2 * HOUR; // 13 hours after the first was issued, 2 after the renewal
    const expired = await api(credential);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: string }).error).toMatch(/expired: open the address the web host printed/);
    expect((await api(renewed.credential)).status).toBe(200);
    // The events socket takes the same rule.
    const events = (credential: string) => `ws://127.0.0.1:${pages.port}/api/events?token=${encodeURIComponent(credential)}`;
    await expect(new Promise((ok, fail) => {
      const socket = new WebSocket(events(credential), { origin: `http://127.0.0.1:${pages.port}` });
      socket.once("open", () => ok(socket.close()));
      socket.once("unexpected-response", (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
    })).rejects.toThrow(/403/);
    await new Promise((ok, fail) => {
      const socket = new WebSocket(events(renewed.credential), { origin: `http://127.0.0.1:${pages.port}` });
      socket.once("open", () => ok(socket.close()));
      socket.once("error", fail);
    });
  });
});

describe("tokenMatches", () => {
  it("accepts only the exact token, whatever the length of the guess", () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    for (const guess of ["", "t", TOKEN.slice(1), `${TOKEN}t`, "u".repeat(32), null, undefined]) expect(tokenMatches(guess, TOKEN)).toBe(false);
  });
});
