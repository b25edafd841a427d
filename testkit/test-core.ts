/**
 * The core both hosts assemble (`createCore`), set up as integration tests want it: built workers under Node,
 * WebSocket sessions, no spare worker, plaintext secrets, no window to open, the built checkpoint clean-up thread.
 * `options` add to or override that.
 */
import { resolve } from "node:path";
import { createCore, type Core, type CoreOptions } from "../src/main/broker/core";
import { threadRunner } from "../src/main/checkpoints/thread-runner";
import { NodeWorkerLauncher } from "../src/main/broker/node-worker-launcher";
import { plaintextDevCipher } from "../src/main/broker/secrets";
import { endpointUrl } from "../src/main/broker/session-broker";
import { SessionClient } from "../src/renderer/store/session-client";
import { openWebSocket, waitForIdle, WORKER_FILE } from "./worker-harness";

/** Main's checkpoint clean-up thread, as built. */
export const CHECKPOINT_MAINTENANCE_FILE = resolve("out/main/checkpoint-maintenance.js");

export function createTestCore(options: Partial<CoreOptions<never>> & Pick<CoreOptions<never>, "dataDir">): Promise<Core<never>> {
  return createCore({
    launcher: new NodeWorkerLauncher(WORKER_FILE),
    sessionTransport: "websocket",
    cipher: plaintextDevCipher,
    keepSpare: false,
    openSession: async () => {},
    checkpointRunner: threadRunner(CHECKPOINT_MAINTENANCE_FILE),
    ...options,
  });
}

/**
 * A new chat, viewed as a page views it and asked one question, resolving once the answer's run has settled; the
 * client joins `clients` (the test closes them).
 */
export async function askInNewChat(core: Core<never>, question: string, clients: SessionClient[]): Promise<SessionClient> {
  const chat = await core.service.createSession();
  const client = new SessionClient(chat.id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(chat.id, "page"))) }));
  clients.push(client);
  await client.start();
  await client.prompt(question);
  await waitForIdle(client);
  return client;
}
