/**
 * A loopback stand-in for a provider's OAuth authorization server, and a sign-in flow for it that follows pi-ai
 * 1.6.0's `OAuthAuth` contract the way its GitHub Copilot login does: a question first (pi's "GitHub Enterprise
 * URL/domain"), then a device code to enter on the server's page, polling until the user approves there, then tokens;
 * refresh with the refresh token. The e2e tests and `--oauth-test-url` put it in place of GitHub Copilot's flow, so a
 * whole sign-in runs (page, main, browser, server, secret store) without github.com.
 *
 * Bounded: loopback only, no loops or timers of its own; each access token lives `tokenSeconds`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { OAuthAuth, OAuthCredential } from "@earendil-works/pi-ai";

export interface OAuthTestServer {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** Device codes handed out, and whether the user approved each on the server's page. */
  approvals: Map<string, boolean>;
  /** Refresh grants received (refresh tokens), in order. */
  refreshes: string[];
  /** Access tokens issued, in order. */
  issued: string[];
  /** How long the next tokens live (changeable: a test makes them expire at once). */
  tokenSeconds: number;
  /** Refuse refresh grants (`invalid_grant`), as a provider does for a revoked account. */
  refuseRefresh: boolean;
  close(): Promise<void>;
}

/** How the server's user codes begin (`PADD-1001`). */
const USER_CODE_PREFIX = "PADD-";

export async function startOAuthTestServer(options: { tokenSeconds?: number } = {}): Promise<OAuthTestServer> {
  const approvals = new Map<string, boolean>();
  const userCodes = new Map<string, string>();
  const refreshes: string[] = [];
  const issued: string[] = [];
  let counter = 0;
  let tokenCounter = 0;
  const sockets = new Set<Socket>();
  const tokens = () => {
    tokenCounter += 1;
    const access = `test-access-${tokenCounter}`;
    issued.push(access);
    return { access_token: access, refresh_token: `test-refresh-${tokenCounter}`, expires_in: server.tokenSeconds, token_type: "bearer" };
  };
  const http = createServer((req, res) => {
    void handle(req, res).catch(() => json(res, 500, { error: "server_error" }));
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const form = new URLSearchParams(await body(req));
    if (req.method === "POST" && url.pathname === "/device/code") {
      counter += 1;
      const deviceCode = `device-${counter}`;
      const userCode = `${USER_CODE_PREFIX}${String(1000 + counter)}`;
      approvals.set(deviceCode, false);
      userCodes.set(userCode, deviceCode);
      return json(res, 200, { device_code: deviceCode, user_code: userCode, verification_uri: `${address()}/device`, interval: 1, expires_in: 300 });
    }
    if (url.pathname === "/device") {
      if (req.method === "POST") {
        const deviceCode = userCodes.get(form.get("user_code") ?? "");
        if (deviceCode === undefined) return page(res, 400, "<p>Unknown code.</p>");
        approvals.set(deviceCode, true);
        return page(res, 200, "<h1>Paddock test sign-in</h1><p id=\"approved\">Approved. You can close this page.</p>");
      }
      return page(res, 200, `<h1>Paddock test sign-in</h1><form method="post"><label>Code <input name="user_code" id="user_code"></label>
        <button type="submit" id="authorize">Authorize</button></form>`);
    }
    if (req.method === "POST" && url.pathname === "/token") {
      if (form.get("grant_type") === "refresh_token") {
        const refresh = form.get("refresh_token") ?? "";
        refreshes.push(refresh);
        if (server.refuseRefresh || !refresh.startsWith("test-refresh-")) return json(res, 400, { error: "invalid_grant" });
        return json(res, 200, tokens());
      }
      const approved = approvals.get(form.get("device_code") ?? "");
      if (approved === undefined) return json(res, 400, { error: "expired_token" });
      if (!approved) return json(res, 400, { error: "authorization_pending" });
      approvals.delete(form.get("device_code") ?? "");
      return json(res, 200, tokens());
    }
    return json(res, 404, { error: "not_found" });
  };
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = () => `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const server: OAuthTestServer = {
    url: address(),
    approvals,
    refreshes,
    issued,
    tokenSeconds: options.tokenSeconds ?? 3600,
    refuseRefresh: false,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        http.close(() => resolve());
      }),
  };
  return server;
}

/**
 * The sign-in flow for a server started above, at `url`: pi-ai's `OAuthAuth` contract (login through the
 * interaction's prompt and notify, refresh, toAuth), as its device-code logins use it.
 */
export function oauthTestFlow(url: string, name = "GitHub Copilot"): OAuthAuth {
  const post = async (path: string, fields: Record<string, string>, signal: AbortSignal) => {
    const response = await fetch(`${url}${path}`, { method: "POST", body: new URLSearchParams(fields), signal });
    return { ok: response.ok, body: (await response.json()) as Record<string, unknown> };
  };
  const credential = (body: Record<string, unknown>): OAuthCredential => ({
    type: "oauth",
    access: String(body.access_token),
    refresh: String(body.refresh_token),
    expires: Date.now() + Number(body.expires_in) * 1000,
  });
  return {
    name,
    isSubscription: true,
    async login(interaction) {
      const domain = await interaction.prompt({ type: "text", message: "GitHub Enterprise URL/domain (blank for github.com)", placeholder: "company.ghe.com" });
      if (domain.trim() !== "") throw new Error(`This test server is not ${domain.trim().slice(0, 60)}: leave the domain blank`);
      const device = await post("/device/code", { client_id: "paddock-test" }, interaction.signal);
      interaction.notify({
        type: "device_code",
        userCode: String(device.body.user_code),
        verificationUri: String(device.body.verification_uri),
        intervalSeconds: 1,
        expiresInSeconds: Number(device.body.expires_in),
      });
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        interaction.signal.throwIfAborted();
        const polled = await post("/token", { grant_type: "device_code", device_code: String(device.body.device_code) }, interaction.signal);
        if (polled.ok) return credential(polled.body);
        if (polled.body.error !== "authorization_pending") throw new Error(`Device flow failed: ${String(polled.body.error)}`);
      }
    },
    async refresh(current, signal) {
      const answer = await post("/token", { grant_type: "refresh_token", refresh_token: current.refresh }, signal);
      if (!answer.ok) throw new Error(`Token refresh failed: ${String(answer.body.error)}`);
      return credential(answer.body);
    },
    async toAuth(current) {
      return { apiKey: current.access };
    },
  };
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 64 * 1024) req.destroy();
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function page(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><meta charset="utf-8"><title>Test sign-in</title>${html}`);
}
