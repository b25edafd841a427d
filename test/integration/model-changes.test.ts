/**
 * A model the user added by typed id, its limits edited in Settings: every open chat that uses it resolves it again
 * at once (main tells each open session, SessionHost.modelsChanged), rather than on the next model set or opening.
 * The core both hosts assemble, real workers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { openWebSocket, waitForView } from "../../testkit/worker-harness";

let dir: string;
let server: OpenAITestServer;
let core: Core<never>;
const clients: SessionClient[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-model-changes-"));
  server = await startOpenAIServer({ models: ["test-model"] });
  core = await createLoopbackCore(dir, server);
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await core.shutdown();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openChat(): Promise<SessionClient> {
  const chat = await core.service.createSession();
  const client = new SessionClient(chat.id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(chat.id, "page"))) }));
  clients.push(client);
  await client.start();
  return client;
}

describe("an added model's limits, edited", () => {
  it("apply to every open chat using it at once; a chat on another model is left alone", async () => {
    const added = { provider: "anthropic", id: "claude-typed-9", contextWindow: 300_000, maxTokens: 20_000 };
    await core.service.updateSettings({ addedModels: [added] });
    const [first, second, other] = [await openChat(), await openChat(), await openChat()];
    await first.setModel({ provider: "anthropic", id: added.id });
    await second.setModel({ provider: "anthropic", id: added.id });
    for (const client of [first, second]) {
      await waitForView(client, (v) => v.state.model.id === added.id && v.state.model.contextWindow === 300_000);
    }
    const otherModel = other.mirror.getView().state.model;

    await core.service.updateSettings({ addedModels: [{ ...added, contextWindow: 120_000, maxTokens: 8_000 }] });
    for (const client of [first, second]) {
      await waitForView(client, (v) => v.state.model.contextWindow === 120_000 && v.state.model.maxTokens === 8_000);
      expect(client.mirror.getView().state.model).toMatchObject({ provider: "anthropic", id: added.id });
    }
    expect(other.mirror.getView().state.model).toEqual(otherModel);
    // The chat still works on its own model.
    server.enqueue({ text: "still here" });
    await other.prompt("hi");
    await waitForView(other, (v) => !v.state.isStreaming && v.state.messages.length === 2);
  });
});
