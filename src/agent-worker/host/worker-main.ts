/**
 * The agent worker process (loaded by entry.ts): hosts one session's Agent. Started by main (Electron utilityProcess) or by Node's
 * child_process.fork (tests, web host) from this same built file. It starts idle (a warm spare) and is bound to a
 * session by `init`. When its parent goes away it shuts down, so no worker outlives the app.
 */
import * as Comlink from "comlink";
import type { MainControlApi, WorkerControlApi } from "../../shared/protocol/control-protocol";
import { rpcEndpoint } from "../../shared/transport/comlink-endpoint";
import { MessagePortMainTransport } from "../../shared/transport/message-port-main-transport";
import { ParentTransport } from "./parent-transport";
import { SessionHost } from "./session-host";

/**
 * The WebSocket listener (Node hosts only) loads after start-up, so a worker is ready to take commands without
 * waiting for it; Electron workers, which get MessagePorts, never load it.
 */
let webSocketListenerModule: Promise<typeof import("./websocket-listener")> | undefined;
const webSocketListener = () => (webSocketListenerModule ??= import("./websocket-listener"));

const control = new ParentTransport();
const main = Comlink.wrap<MainControlApi>(rpcEndpoint(control, undefined, "w2c"));
let host: SessionHost | undefined;
let closeListener: (() => void) | undefined;

async function shutdown(): Promise<void> {
  closeListener?.();
  await host?.shutdown();
}

const api: WorkerControlApi = {
  async init(options) {
    if (host) throw new Error("This worker already hosts a session");
    const opened = await SessionHost.open(options, main);
    host = opened.host;
    if (options.sessionTransport === "websocket") {
      const bound = opened.host;
      const { listenForSessions } = await webSocketListener();
      const listener = await listenForSessions((transport) => bound.connect(transport));
      closeListener = listener.close;
      return { ...opened.result, url: listener.url };
    }
    return opened.result;
  },
  async updateSettings(settings) {
    host?.updateSettings(settings);
  },
  async shutdown() {
    await shutdown();
    // Exit after the reply has left.
    setTimeout(() => process.exit(0), 10);
  },
  async warmUp() {
    if (!(process as unknown as { parentPort?: unknown }).parentPort) await webSocketListener();
  },
  async ping() {
    return { pid: process.pid, rssBytes: process.memoryUsage.rss() };
  },
};

Comlink.expose(api, rpcEndpoint(control, undefined, "c2w"));
control.onPort((port) => {
  const transport = new MessagePortMainTransport(port);
  if (host) host.connect(transport);
  else transport.close();
});
control.onClose(() => {
  void shutdown().finally(() => process.exit(0));
});
if (!(process as unknown as { parentPort?: unknown }).parentPort) setTimeout(() => void webSocketListener(), 0);

process.on("uncaughtException", (error) => {
  // A bug must not take the session down silently: report it and keep serving.
  console.error("paddock worker: uncaught exception", error);
});
process.on("unhandledRejection", (error) => {
  console.error("paddock worker: unhandled rejection", error);
});
