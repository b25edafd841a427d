/**
 * The broker alone in its own process, for the broker CPU benchmark (started by bench/broker.ts with
 * `node --import tsx`). It owns the worker processes; the mirrors live in the parent, so the CPU this process
 * reports is the broker's. Protocol over IPC:
 *   parent -> { type: "attach", sessionIds } -> child replies { type: "attached", urls }
 *   parent -> { type: "cpu-start" } / { type: "cpu-stop" } -> child replies { type: "cpu", cpuMs, wallMs }
 *   parent -> { type: "close" } -> child disposes the broker and exits.
 */
import { endpointUrl } from "../src/main/broker/session-broker";
import { startBenchBroker } from "./lib/sessions";

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error("usage: broker-child.ts <model base URL>");
const bench = startBenchBroker(baseUrl);
let cpu0 = process.cpuUsage();
let wall0 = performance.now();

process.on("message", (message: { type: string; sessionIds?: string[] }) => {
  void (async () => {
    switch (message.type) {
      case "attach": {
        const urls = await Promise.all((message.sessionIds ?? []).map(async (id) => endpointUrl(await bench.broker.attach(id, "bench"))));
        process.send!({ type: "attached", urls });
        break;
      }
      case "cpu-start":
        cpu0 = process.cpuUsage();
        wall0 = performance.now();
        process.send!({ type: "cpu-started" });
        break;
      case "cpu-stop": {
        const used = process.cpuUsage(cpu0);
        process.send!({ type: "cpu", cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall0 });
        break;
      }
      case "close":
        await bench.close();
        process.exit(0);
    }
  })();
});
process.on("disconnect", () => void bench.close().finally(() => process.exit(0)));
process.send!({ type: "ready" });
