/**
 * The MCP host's servers (src/mcp-host/mcp-servers.ts) against a real server no one here wrote,
 * `@modelcontextprotocol/server-everything`, over stdio and over Streamable HTTP: tools listed (and listed again on
 * `tools/list_changed`), calls with text and image results, progress, cancellation, a server killed mid-call (the
 * call fails with a clear error, the server comes back), one that cannot start, and Settings applied as a difference.
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpServers } from "../../src/mcp-host/mcp-servers";
import type { McpCallProgress } from "../../src/shared/protocol/mcp-host-protocol";
import type { McpServerStatus } from "../../src/shared/protocol/mcp-status";
import { isAlive } from "../../testkit/processes";
import { everythingHttp, everythingStdio, startEverythingHttp, type EverythingHttpServer } from "../../testkit/mcp-everything";

let servers: McpServers | undefined;
let http: EverythingHttpServer | undefined;
const progress: McpCallProgress[] = [];
let statuses: McpServerStatus[] = [];

afterEach(async () => {
  await servers?.shutdown();
  await http?.kill();
  servers = http = undefined;
  progress.length = 0;
  statuses = [];
});

function start(backoff = { firstMs: 200, maxMs: 400, maxTries: 3 }): McpServers {
  servers = new McpServers({
    onStatus: (s) => (statuses = s),
    onProgress: (p) => progress.push(p),
    connection: { backoff },
  });
  return servers;
}

async function ready(s: McpServers, id: string): Promise<McpServerStatus> {
  await expect.poll(async () => (await s.status()).find((x) => x.id === id)?.state, { timeout: 20_000 }).toBe("ready");
  return (await s.status()).find((x) => x.id === id)!;
}

const text = (outcome: { content: { type: string; text?: string }[] }) => outcome.content.map((c) => c.text ?? "").join("\n");
let nextCall = 0;
const call = (s: McpServers, serverId: string, tool: string, args: Record<string, unknown> = {}) =>
  s.call({ callId: `t${++nextCall}`, serverId, tool, arguments: args });

for (const transport of ["stdio", "http"] as const) {
  describe(`the everything server over ${transport}`, () => {
    async function connected(): Promise<{ s: McpServers; id: string }> {
      const s = start();
      if (transport === "http") http = await startEverythingHttp();
      const config = transport === "stdio" ? everythingStdio() : everythingHttp(http!.url);
      await s.configure([config]);
      await ready(s, config.id);
      return { s, id: config.id };
    }

    it("lists its tools with their annotations, and lists them again when the server says they changed", async () => {
      const { s, id } = await connected();
      const status = (await s.status())[0];
      const names = status.tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation", "get-tiny-image"]));
      expect(status.tools.find((t) => t.name === "echo")).toMatchObject({ agentName: `${id}__echo`, readOnly: true });
      expect(status.tools.find((t) => t.name === "toggle-simulated-logging")).toMatchObject({ agentName: `${id}__toggle-simulated-logging`, readOnly: false });
      expect(status.serverInfo?.name).toBe("mcp-servers/everything");
      // The server registers its task tool only after the handshake and says so with tools/list_changed.
      await expect.poll(async () => (await s.tools()).map((t) => t.name), { timeout: 10_000 }).toContain("simulate-research-query");
      const echo = (await s.tools()).find((t) => t.name === "echo")!;
      expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    });

    it("calls echo and get-sum", async () => {
      const { s, id } = await connected();
      expect(text(await call(s, id, "echo", { message: "hello MCP" }))).toBe("Echo: hello MCP");
      const sum = await call(s, id, "get-sum", { a: 2, b: 3 });
      expect(sum.isError).toBe(false);
      expect(text(sum)).toMatch(/\b5\b/);
    });

    it("passes get-tiny-image's picture on as an image", async () => {
      const { s, id } = await connected();
      const outcome = await call(s, id, "get-tiny-image");
      const image = outcome.content.find((c) => c.type === "image");
      expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
      expect(Buffer.from((image as { data: string }).data, "base64").subarray(1, 4).toString()).toBe("PNG");
    });

    it("reports a long operation's progress as it goes", async () => {
      const { s, id } = await connected();
      const outcome = await call(s, id, "trigger-long-running-operation", { duration: 1, steps: 4 });
      expect(text(outcome)).toContain("Long running operation completed");
      // The SDK drops a progress notification that arrives together with the result (its handler is gone by then).
      expect(progress.map((p) => [p.progress, p.total]).slice(0, 3)).toEqual([[1, 4], [2, 4], [3, 4]]);
    });

    it("cancels a call: the server is told, the call fails at once", async () => {
      const { s, id } = await connected();
      const callId = `cancel-${transport}`;
      const running = s.call({ callId, serverId: id, tool: "trigger-long-running-operation", arguments: { duration: 20, steps: 40 } });
      await expect.poll(() => progress.length).toBeGreaterThan(0);
      const before = Date.now();
      await s.cancel(callId);
      await expect(running).rejects.toThrow("The call was cancelled.");
      expect(Date.now() - before).toBeLessThan(1_000);
      const count = progress.length;
      await new Promise((r) => setTimeout(r, 1_200));
      expect(progress.length).toBe(count); // no more progress: the server stopped working on it
      expect(text(await call(s, id, "echo", { message: "still here" }))).toBe("Echo: still here");
    });
  });
}

describe("a server that dies", () => {
  it("stdio: the call in flight fails with a clear error, calls meanwhile too, and the server is restarted", async () => {
    const s = start();
    await s.configure([everythingStdio()]);
    await ready(s, "everything");
    const pid = (await s.info()).servers[0].pid!;
    const running = call(s, "everything", "trigger-long-running-operation", { duration: 20, steps: 40 });
    await expect.poll(() => progress.length).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    await expect(running).rejects.toThrow(/The MCP server "Everything" stopped during the call \(the process was killed \(SIGKILL\)\)/);
    expect(statuses[0]).toMatchObject({ state: "restarting", restarts: 1 });
    await expect(call(s, "everything", "echo", { message: "x" })).rejects.toThrow(/is being restarted/);
    const back = await ready(s, "everything");
    expect(back.restarts).toBe(1);
    expect(back.stderrTail).toContain("[Paddock] starting again");
    const newPid = (await s.info()).servers[0].pid!;
    expect(newPid).not.toBe(pid);
    expect(text(await call(s, "everything", "echo", { message: "back" }))).toBe("Echo: back");
  });

  it("http: a server that went away fails the call and is reconnected once it answers again", async () => {
    const s = start({ firstMs: 300, maxMs: 1_000, maxTries: 20 }); // the server takes a moment to come back
    http = await startEverythingHttp();
    const port = http.port;
    await s.configure([everythingHttp(http.url)]);
    await ready(s, "everything-http");
    const running = call(s, "everything-http", "trigger-long-running-operation", { duration: 20, steps: 40 });
    await expect.poll(() => progress.length).toBeGreaterThan(0);
    const failed = expect(running).rejects.toThrow(/The MCP server "Everything \(HTTP\)" stopped during the call/);
    await http.kill();
    await failed;
    await expect(call(s, "everything-http", "echo", { message: "x" })).rejects.toThrow(/Everything \(HTTP\)/);
    http = await startEverythingHttp(port);
    await ready(s, "everything-http");
    expect(text(await call(s, "everything-http", "echo", { message: "back" }))).toBe("Echo: back");
  });

  it("one that exits as it starts says how it ended, with what it printed", async () => {
    const s = start();
    const script = "console.error('no database at postgres://localhost:5432'); process.exit(3)";
    await s.configure([everythingStdio({ id: "db", name: "DB", transport: { type: "stdio", command: process.execPath, args: ["-e", script], env: {} } })]);
    await expect.poll(async () => (await s.status())[0].state, { timeout: 10_000 }).toBe("failed");
    const status = (await s.status())[0];
    expect(status.error).toBe("the process exited with code 3");
    expect(status.stderrTail).toContain("no database at postgres://localhost:5432");
  });

  it("one that cannot start is tried again with backoff, then stays failed with why", async () => {
    const s = start();
    await s.configure([everythingStdio({ id: "broken", name: "Broken", transport: { type: "stdio", command: "/nonexistent/mcp-server", args: [], env: {} }, missingSecrets: ["env API_TOKEN"] })]);
    await expect.poll(async () => (await s.status())[0].state, { timeout: 10_000 }).toBe("failed");
    const status = (await s.status())[0];
    expect(status.restarts).toBe(3);
    expect(status.error).toMatch(/ENOENT|not found/);
    expect(status.error).toContain("secrets not set: env API_TOKEN");
    await expect(call(s, "broken", "echo")).rejects.toThrow(/is not running: .*Restart it in Settings/);
  });
});

describe("Settings applied as a difference", () => {
  it("keeps an unchanged server running, restarts a changed one, stops removed and disabled ones", async () => {
    const s = start();
    const a = everythingStdio({ id: "a", name: "A" });
    const b = everythingStdio({ id: "b", name: "B" });
    await s.configure([a, b]);
    await ready(s, "a");
    await ready(s, "b");
    const pids = async () => Object.fromEntries((await s.info()).servers.map((x) => [x.id, x.pid]));
    const before = await pids();

    await s.configure([a, { ...b, trusted: true }]);
    await ready(s, "b");
    const after = await pids();
    expect(after.a).toBe(before.a);
    expect(after.b).not.toBe(before.b);
    expect(isAlive(before.b!)).toBe(false);
    expect((await s.tools()).find((t) => t.serverId === "b")?.trusted).toBe(true);

    await s.configure([{ ...a, enabled: false }]);
    expect(await s.status()).toEqual([expect.objectContaining({ id: "a", state: "disabled", tools: [] })]);
    await expect.poll(() => isAlive(before.a!) || isAlive(after.b!)).toBe(false);
    expect(await s.tools()).toEqual([]);
    await expect(s.restart("a")).rejects.toThrow(/disabled/);
  });
});
