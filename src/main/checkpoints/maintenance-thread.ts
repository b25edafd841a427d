/**
 * The checkpoint clean-up's worker thread (built as out/main/checkpoint-maintenance.js): runs the operations of
 * maintenance-ops.ts one message at a time, so their synchronous file work (listing and measuring every stored
 * object, reading every tree) never holds main's event loop. Messages: `{ id, op, args }` in, `{ id, result }` or
 * `{ id, error }` out.
 */
import { parentPort } from "node:worker_threads";
import { MAINTENANCE_OPS, type MaintenanceOp } from "./maintenance-ops";

const port = parentPort;
if (port) {
  port.on("message", (message: { id: number; op: MaintenanceOp; args: unknown[] }) => {
    const { id, op, args } = message;
    try {
      if (!Object.prototype.hasOwnProperty.call(MAINTENANCE_OPS, op)) throw new Error(`no such clean-up: ${String(op)}`);
      const result = (MAINTENANCE_OPS[op] as (...a: unknown[]) => unknown)(...args);
      port.postMessage({ id, result });
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
