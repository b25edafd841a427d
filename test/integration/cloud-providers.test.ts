/**
 * Azure OpenAI's fields end to end: Settings (main's AppService) store the address, deployment and API version, the
 * key goes to the secret store, and a real worker's request arrives at a stand-in Azure server at that address, for
 * that deployment and API version, with that key. And what Settings show of it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getBuiltinModels } from "@earendil-works/pi-ai/providers/all";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { askInNewChat, createTestCore } from "../../testkit/test-core";
import { waitForIdle } from "../../testkit/worker-harness";

interface AzureRequest {
  method: string;
  url: string;
  apiKey: string | undefined;
  authorization: string | undefined;
  model: unknown;
}

let dir: string;
let core: Core<never>;
let azure: Server;
let requests: AzureRequest[];
const clients: SessionClient[] = [];
const MODEL = getBuiltinModels("azure")[0]!.id;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-cloud-"));
  requests = [];
  azure = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      let model: unknown;
      try {
        model = (JSON.parse(body) as { model?: unknown }).model;
      } catch {
        model = undefined;
      }
      requests.push({ method: req.method ?? "", url: req.url ?? "", apiKey: req.headers["api-key"] as string | undefined, authorization: req.headers.authorization, model });
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "stand-in Azure says no", type: "invalid_request_error" } }));
    });
  });
  await new Promise<void>((r) => azure.listen(0, "127.0.0.1", r));
  core = await createTestCore({
    dataDir: dir,
    prepareSettings: (settings) => settings.update({ defaultModel: { provider: "azure", id: MODEL } }),
  });
});
afterEach(async () => {
  for (const c of clients) c.close();
  clients.length = 0;
  await core.shutdown();
  await new Promise<void>((r) => azure.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

async function until(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!test()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A new chat, viewed and asked one question. */
const ask = (question: string): Promise<SessionClient> => askInNewChat(core, question, clients);

describe("Azure OpenAI's settings", () => {
  it("the worker's request goes to the configured base URL, deployment and API version, with the saved key", async () => {
    const base = `http://127.0.0.1:${(azure.address() as AddressInfo).port}/openai/v1`;
    await core.service.setApiKey("azure", "az-key-123");
    await core.service.setCloudProvider("azure", { fields: { baseUrl: base, deployment: "paddock-deploy", apiVersion: "2025-04-01-preview" }, secrets: {} });

    const status = (await core.service.providerStatus()).find((p) => p.provider === "azure");
    expect(status).toMatchObject({
      keySource: "settings",
      cloud: { fields: { baseUrl: base, deployment: "paddock-deploy", apiVersion: "2025-04-01-preview", resourceName: "" }, secretsSet: [] },
    });

    const client = await ask("hello Azure");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: "POST",
      url: "/openai/v1/responses?api-version=2025-04-01-preview",
      apiKey: "az-key-123",
      model: "paddock-deploy",
    });
    await until(() => client.mirror.getView().state.isStreaming === false);

    // Changed in Settings: the next request follows, with no restart.
    await core.service.setCloudProvider("azure", { fields: { deployment: `${MODEL}=other-deploy`, apiVersion: "v1" }, secrets: {} });
    await client.prompt("again");
    await waitForIdle(client);
    await until(() => requests.length === 2);
    expect(requests[1]).toMatchObject({ url: "/openai/v1/responses?api-version=v1", model: "other-deploy" });
  });

  it("a bad value is refused in words and the chat keeps the settings it had", async () => {
    await expect(core.service.setCloudProvider("azure", { fields: { baseUrl: "javascript:alert(1)" }, secrets: {} })).rejects.toThrow(/Base URL: must be an http\(s\) address/);
    await expect(core.service.setCloudProvider("azure", { fields: {}, secrets: { apiVersion: "x" } })).rejects.toThrow(/has no secret "apiVersion"/);
    expect(core.settings.get().cloudProviders).toBeUndefined();
  });
});
