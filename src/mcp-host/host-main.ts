/**
 * The MCP host process: one per app, started by main like an agent worker (Electron's utilityProcess, or
 * child_process.fork under Node), from the same kind of built file. It runs the MCP clients of every configured
 * server (mcp-servers.ts), so their traffic, their JSON parsing and their child processes stay off main's event loop,
 * and one server process serves every chat.
 *
 * Control: main calls McpHostApi on lane "m2h"; the host pushes McpHostEvents on lane "h2m". When main goes away the
 * host stops its servers (their processes must not outlive the app) and exits, within ORPHAN_EXIT_MS.
 */
import * as Comlink from "comlink";
import type { McpHostEvents } from "../shared/protocol/mcp-host-protocol";
import { rpcEndpoint } from "../shared/transport/comlink-endpoint";
import { ParentTransport } from "../shared-node/process/parent-transport";
import { McpServers } from "./mcp-servers";

/** How long an orphaned host may spend stopping its servers before it exits regardless. */
const ORPHAN_EXIT_MS = 3_000;

const control = new ParentTransport();
const main = Comlink.wrap<McpHostEvents>(rpcEndpoint(control, { lane: "h2m" }));
/** An event main could not take (it is going away) is dropped: the host's own exit follows. */
const tell = (send: () => unknown) => void Promise.resolve().then(send).catch(() => undefined);

const servers = new McpServers({
  onStatus: (statuses) => tell(() => main.status(statuses)),
  onProgress: (progress) => tell(() => main.progress(progress)),
});

Comlink.expose(
  {
    configure: (configs: Parameters<McpServers["configure"]>[0]) => servers.configure(configs),
    restart: (id: string) => servers.restart(id),
    status: () => servers.status(),
    tools: () => servers.tools(),
    call: (request: Parameters<McpServers["call"]>[0]) => servers.call(request),
    prompts: () => servers.prompts(),
    getPrompt: (serverId: string, name: string, args: Record<string, string>) => servers.getPrompt(serverId, name, args),
    resources: () => servers.resources(),
    readResource: (serverId: string, uri: string) => servers.readResource(serverId, uri),
    cancel: (callId: string) => servers.cancel(callId),
    info: () => servers.info(),
    shutdown: async () => {
      await servers.shutdown();
      setTimeout(() => process.exit(0), 10); // after the answer has left
    },
  },
  rpcEndpoint(control, { lane: "m2h" }),
);

control.onClose(() => {
  setTimeout(() => process.exit(0), ORPHAN_EXIT_MS); // kept referenced: this exit must happen
  void servers.shutdown().finally(() => process.exit(0));
});

// Ctrl+C in a terminal reaches the whole process group; main decides when the host ends.
process.on("SIGINT", () => {});
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
process.on("uncaughtException", (error) => console.error("paddock mcp host: uncaught exception", error));
process.on("unhandledRejection", (error) => console.error("paddock mcp host: unhandled rejection", error));
