import { BaseTransport } from "./transport";

/**
 * The part of a DOM MessagePort this adapter needs (structural, so src/shared stays free of DOM types).
 * `close` events exist in current Chromium; where they do not, the transport closes when `close()` is called.
 */
export interface DomMessagePortLike {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close" | "messageerror", listener: (event: unknown) => void): void;
}

/**
 * A transport over a page's MessagePort (Electron hands each window a port to its session's worker). Messages are
 * structured-cloned by the port. `start()` is called here: without it, messages queue up forever.
 */
export class DomMessagePortTransport extends BaseTransport {
  constructor(private readonly port: DomMessagePortLike) {
    super();
    port.addEventListener("message", (event) => this.receive(event.data));
    port.addEventListener("messageerror", () => this.markClosed("message could not be decoded"));
    port.addEventListener("close", () => this.markClosed("port closed"));
    port.start();
  }

  protected deliver(message: unknown): void {
    this.port.postMessage(message);
  }

  protected closeUnderlying(): void {
    this.port.close();
  }
}
