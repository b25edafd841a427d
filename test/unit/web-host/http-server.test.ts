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

describe("the page and its token", () => {
  const folders = new TempFolders("paddock-page-");
  let pages: RunningHttpServer;
  const PAGE = '<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="x" /></head><body></body></html>';

  beforeEach(async () => {
    pages = await startHttpServer({
      port: 0,
      staticDir: folders.make({ "index.html": PAGE, "app.js": "1" }),
      token: TOKEN,
      routes: { call: async () => "ok", attach: async () => ({ url: "ws://x" }), detach: async () => {}, subscribe: () => () => {} },
    });
  });
  afterEach(async () => {
    await pages.close();
    folders.removeAll();
  });

  const get = (path: string, cookie?: string) =>
    fetch(`http://127.0.0.1:${pages.port}${path}`, { headers: cookie ? { cookie } : {} });

  it("lets the first load in by the URL's token, sets the cookie and writes the token into the page", async () => {
    const first = await get(`/?token=${TOKEN}`);
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toBe(`paddock-token-${pages.port}=${TOKEN}`);
    expect(await first.text()).toContain(`<meta name="paddock-token" content="${TOKEN}" />`);
    // A reload with the token gone from the address bar, or a new tab: the cookie alone is enough.
    const reload = await get("/?session=abc", cookie);
    expect(reload.status).toBe(200);
    expect(await reload.text()).toContain(`content="${TOKEN}"`);
    expect((await get("/app.js", cookie)).status).toBe(200);
  });

  it("gives nothing, and no token, to a request without the token or with a wrong one", async () => {
    for (const response of [await get("/"), await get("/?token=wrong"), await get("/", `paddock-token-${pages.port}=wrong`)]) {
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain(TOKEN);
    }
  });
});

describe("tokenMatches", () => {
  it("accepts only the exact token, whatever the length of the guess", () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    for (const guess of ["", "t", TOKEN.slice(1), `${TOKEN}t`, "u".repeat(32), null, undefined]) expect(tokenMatches(guess, TOKEN)).toBe(false);
  });
});
