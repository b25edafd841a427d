import type { MessagePortMain } from "electron";
import { BaseTransport } from "../../../shared/transport/transport";

/**
 * A transport over Electron's MessagePortMain (the worker's end in a utility process). Type-only Electron import: the port
 * object is handed in. `start()` is required, or queued messages are never delivered.
 */
export class MessagePortMainTransport extends BaseTransport {
  constructor(private readonly port: MessagePortMain) {
    super();
    port.on("message", (event) => this.receive(event.data));
    port.on("close", () => this.markClosed("port closed"));
    port.start();
  }

  protected deliver(message: unknown): void {
    this.port.postMessage(message);
  }

  protected closeUnderlying(): void {
    this.port.close();
  }
}
