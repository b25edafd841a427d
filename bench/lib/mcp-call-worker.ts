/**
 * A stand-in for an agent worker, for `mcp.callOverheadMs`: forked by the bench exactly as agent workers are under
 * Node (child_process.fork, advanced serialization, the same ParentTransport and control lanes), bound to a session
 * by the real broker's `init`, then timing MCP calls the way a worker's MCP tool makes them (MainControlApi.mcpCall).
 * It does nothing else, so what it times is the path worker -> main -> MCP host -> server and back.
 */
import * as Comlink from "comlink";
import type { MainControlApi } from "../../src/shared/protocol/control-protocol";
import { rpcEndpoint } from "../../src/shared/transport/comlink-endpoint";
import { ParentTransport } from "../../src/shared-node/process/parent-transport";

const control = new ParentTransport();
const main = Comlink.wrap<MainControlApi>(rpcEndpoint(control, { lane: "w2c" }));
let calls = 0;

Comlink.expose(
  {
    init: async () => ({ problems: [], messageCount: 0, url: "ws://127.0.0.1:9/unused" }),
    warmUp: async () => {},
    ping: async () => ({ pid: process.pid, rssBytes: process.memoryUsage.rss() }),
    shutdown: async () => {
      setTimeout(() => process.exit(0), 10);
      return "stopped";
    },
    /** `count` echo calls one after another; each one's milliseconds as this process measured them. */
    async timeEcho(serverId: string, count: number): Promise<number[]> {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await main.mcpCall({ callId: `b${++calls}`, serverId, tool: "echo", arguments: { message: `ping ${i}` } });
        times.push(performance.now() - t0);
      }
      return times;
    },
  },
  rpcEndpoint(control, { lane: "c2w" }),
);
control.onClose(() => process.exit(0));
