/**
 * The worker's end of its control channel: Electron's `process.parentPort` when run as a utilityProcess, or
 * Node's child-process IPC (`process.send`) when forked by tests or the web host. Both carry the same frames.
 */
import type { MessagePortMain } from "electron";
import { BaseTransport } from "../../shared/transport/transport";

interface ParentPortLike {
  on(event: "message", listener: (event: { data: unknown; ports: MessagePortMain[] }) => void): void;
  postMessage(message: unknown): void;
}

export class ParentTransport extends BaseTransport {
  private portListener: ((port: MessagePortMain, frame: unknown) => void) | undefined;

  /** Which parent started this worker: Electron (utilityProcess, MessagePorts) or Node (fork, no ports). */
  readonly parent: "utility-process" | "fork";

  constructor() {
    super();
    const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
    this.parent = parentPort ? "utility-process" : "fork";
    if (parentPort) {
      parentPort.on("message", (event) => {
        if (event.ports.length > 0) this.portListener?.(event.ports[0], event.data);
        else this.receive(event.data);
      });
      this.post = (message) => parentPort.postMessage(message);
    } else if (process.send) {
      process.on("message", (message) => this.receive(message));
      process.on("disconnect", () => this.markClosed("parent disconnected"));
      this.post = (message) => {
        if (process.connected) process.send?.(message);
      };
    } else {
      throw new Error("The agent worker must be started by Paddock (no parent channel found)");
    }
  }

  private post: (message: unknown) => void = () => {};

  /** Electron only: main hands over session ports as messages with a port attached. */
  onPort(listener: (port: MessagePortMain, frame: unknown) => void): void {
    this.portListener = listener;
  }

  protected deliver(message: unknown): void {
    this.post(message);
  }

  protected closeUnderlying(): void {
    if (process.send && process.connected) process.disconnect();
  }
}
