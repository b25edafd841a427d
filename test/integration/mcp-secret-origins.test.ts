/**
 * An MCP server's secret header stays with the origin it was saved for, with everything real: the core both hosts
 * assemble, the MCP host process, and two plain HTTP servers on loopback standing in for the server's old and new
 * address. The page's path is the one a user (or anything that can call the API) takes: AppService's
 * `saveMcpServer`, first with URL A and the secret, then with URL B and no secret.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import type { McpServerConfig } from "../../src/shared/mcp/server-config";
import { createLoopbackCore } from "../../testkit/loopback-core";

const SECRET = "Bearer s3cret-for-A";

/** A server that records every request's headers and answers none of them as MCP would (the host retries). */
async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(503, { "content-type": "text/plain" }).end("not an MCP server");
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }) };
}

let dir: string;
let core: Core<never>;
let a: Awaited<ReturnType<typeof recorder>>;
let b: Awaited<ReturnType<typeof recorder>>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-mcp-origins-"));
  core = await createLoopbackCore(dir, { baseUrl: "http://127.0.0.1:9/v1" });
  a = await recorder();
  b = await recorder();
});
afterEach(async () => {
  await core.shutdown();
  await a.close();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const server = (url: string): McpServerConfig => ({
  id: "remote",
  name: "Remote",
  enabled: true,
  trusted: false,
  transport: { type: "http", url, headers: { Authorization: { secret: true } } },
});

it("a server whose URL moves to another origin is reached without the secret header saved for the old one", async () => {
  await core.service.saveMcpServer(server(a.url), { Authorization: SECRET });
  // The old address gets the header (the test would prove nothing if the host never sent it).
  await expect.poll(() => a.seen.map((h) => h.authorization), { timeout: 20_000 }).toContain(SECRET);

  await core.service.saveMcpServer(server(b.url), {});
  const resolved = core.mcpConfig.resolveServerConfig("remote")!;
  expect(resolved.transport).toEqual({ type: "http", url: b.url, headers: {} });
  expect(resolved.missingSecrets).toEqual(["header Authorization"]);
  expect(await core.service.mcpSecretStatus()).toEqual([{ id: "remote", set: [], savedElsewhere: ["Authorization"] }]);
  // The MCP host, reconfigured, reaches B: never with A's secret.
  await expect.poll(() => b.seen.length, { timeout: 20_000 }).toBeGreaterThan(0);
  await new Promise((ok) => setTimeout(ok, 500)); // a retry or two more
  expect(b.seen.map((h) => h.authorization)).not.toContain(SECRET);
  expect(JSON.stringify(b.seen)).not.toContain("s3cret");
}, 60_000);
