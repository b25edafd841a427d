/**
 * "Test connection" through the real page -> main gate (dispatchAppCall and AppService) against real loopback
 * servers: an OpenAI-compatible one, an Ollama with only its own list, one that wants a key, a port where nothing
 * listens, and one that never answers. Also: a saved key reaches only the address it was saved for.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppService } from "../../src/main/broker/app-service";
import { startAppServiceRig, type AppServiceRig } from "../../testkit/app-service-rig";
import { dispatchAppCall } from "../../src/main/broker/app-call";
import { probeEndpoint } from "../../src/main/broker/endpoint-probe";
import type { EndpointProbeResult } from "../../src/shared/protocol/endpoint-probe";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";

let rig: AppServiceRig;
let service: AppService;
const servers: OpenAITestServer[] = [];

beforeEach(async () => {
  rig = await startAppServiceRig("paddock-probe-");
  service = rig.service;
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rig.close();
});

const serve = async (options: Parameters<typeof startOpenAIServer>[0]) => {
  const server = await startOpenAIServer(options);
  servers.push(server);
  return server;
};
/** As a page calls it: through the gate that checks the arguments. */
const probe = (request: unknown) => dispatchAppCall(service, "probeEndpoint", [request]) as Promise<EndpointProbeResult>;

describe("Test connection, page to main to the server", () => {
  it("an OpenAI-compatible server lists its models", async () => {
    const server = await serve({ models: ["qwen2.5-coder", "llama3.2"] });
    const result = await probe({ baseUrl: server.baseUrl });
    expect(result).toMatchObject({ ok: true, kind: "ok", api: "openai", models: ["qwen2.5-coder", "llama3.2"] });
    expect(result.message).toMatch(/^Reached the server at 127\.0\.0\.1:\d+: 2 models\.$/);
  });

  it("an Ollama with only its own list (/api/tags) is found too", async () => {
    const server = await serve({ models: ["llama3.2:latest"], modelLists: ["ollama"] });
    expect(await probe({ baseUrl: server.baseUrl })).toMatchObject({ ok: true, api: "ollama", models: ["llama3.2:latest"] });
    expect(server.listRequests.map((r) => r.body)).toEqual(["/api/tags"]);
  });

  it("a port where nothing listens could not be reached", async () => {
    const server = await serve({});
    const url = server.baseUrl;
    await server.close();
    const result = await probe({ baseUrl: url });
    expect(result).toMatchObject({ ok: false, kind: "unreachable", models: [] });
    expect(result.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+: nothing is listening there \(connection refused\)\. Check the address and that the server is running\.$/);
  });

  it("a server that wants a key: 401 says to enter or check it; the right key lists the models", async () => {
    const server = await serve({ models: ["gw-model"], apiKey: "sk-right" });
    expect(await probe({ baseUrl: server.baseUrl })).toMatchObject({ ok: false, kind: "unauthorized", status: 401, message: expect.stringContaining("wants an API key (401 Unauthorized)") });
    expect(await probe({ baseUrl: server.baseUrl, apiKey: "sk-wrong" })).toMatchObject({ ok: false, kind: "unauthorized", message: expect.stringContaining("refused this key") });
    expect(await probe({ baseUrl: server.baseUrl, apiKey: "sk-right" })).toMatchObject({ ok: true, models: ["gw-model"] });
  });

  it("a saved endpoint's key is used for the address it was saved for, and never sent to another", async () => {
    const [home, other] = await Promise.all([serve({ apiKey: "sk-home" }), serve({})]);
    await service.updateSettings({ customProviders: [{ id: "gw", name: "Gateway", baseUrl: home.baseUrl, models: [] }] });
    await service.setApiKey("custom:gw", "sk-home");
    expect(await probe({ baseUrl: home.baseUrl, endpointId: "gw" })).toMatchObject({ ok: true });
    expect(home.listRequests.at(-1)?.headers.authorization).toBe("Bearer sk-home");
    // The form now points the endpoint elsewhere (not saved yet): the probe goes there without the key.
    expect(await probe({ baseUrl: other.baseUrl, endpointId: "gw" })).toMatchObject({ ok: true });
    expect(other.listRequests.map((r) => r.headers.authorization)).toEqual([undefined]);
  });

  it("a server that never answers times out within the limit", async () => {
    const silent = await listenSilently();
    try {
      const started = Date.now();
      const result = await probeEndpoint(`http://127.0.0.1:${silent.port}/v1`, { source: "none" }, { timeoutMs: 500 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result).toMatchObject({ ok: false, kind: "timeout", message: expect.stringMatching(/^No answer from 127\.0\.0\.1:\d+ within 0\.5 seconds\./) });
    } finally {
      await silent.close();
    }
  });

  it("malformed arguments are refused at the gate, naming the field", async () => {
    await expect(probe({ baseUrl: 42 })).rejects.toThrow(/^probeEndpoint: invalid arguments: 0\.baseUrl: /);
    await expect(probe({ baseUrl: "http://127.0.0.1:1/v1", extra: true })).rejects.toThrow(/probeEndpoint: invalid arguments: .*unknown field\(s\) extra/);
    await expect(probe({ baseUrl: "http://127.0.0.1:1/v1", endpointId: "lm studio" })).rejects.toThrow(/0\.endpointId/);
    await expect(probe({ baseUrl: "x".repeat(3000) })).rejects.toThrow(/invalid arguments/);
  });
});

/** A TCP server that takes connections and never says a word. */
async function listenSilently(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
