/**
 * The core both hosts assemble (`createCore`) for integration tests: built workers under Node, WebSocket sessions, no
 * spare worker, plaintext secrets, and the loopback server as the endpoint "loopback" whose "test-model" is the default.
 */
import type { Core, CoreOptions } from "../src/main/broker/core";
import { NodeWorkerLauncher } from "../src/main/broker/node-worker-launcher";
import type { OpenAITestServer } from "../src/web-host/openai-test-server";
import { createTestCore } from "./test-core";
import { MCP_HOST_FILE } from "./worker-harness";

export function createLoopbackCore(dataDir: string, server: Pick<OpenAITestServer, "baseUrl">, options: { homeDir?: string; schedules?: CoreOptions<never>["schedules"] } = {}): Promise<Core<never>> {
  return createTestCore({
    dataDir,
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
    ...(options.schedules ? { schedules: options.schedules } : {}),
    mcpLauncher: new NodeWorkerLauncher(MCP_HOST_FILE),
    prepareSettings: (settings) =>
      settings.update({
        customProviders: [{ id: "loopback", name: "Loopback", baseUrl: server.baseUrl, models: ["test-model"] }],
        defaultModel: { provider: "custom:loopback", id: "test-model" },
      }),
  });
}
