import { BaseTransport } from "./transport";

/** The part of a WebSocket (browser or the `ws` package) this adapter needs. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code?: number; reason?: string }) => void): void;
  addEventListener(type: "error", listener: (event: unknown) => void): void;
}

const OPEN = 1;

/**
 * A transport over a WebSocket: one JSON text frame per message. A frame that is not valid JSON is passed on as
 * the raw string, so the receiver's validation (not this adapter) decides how to answer it.
 */
export class WebSocketTransport extends BaseTransport {
  /** Characters sent and received, for the benchmarks' bytes-per-character figure. */
  sentChars = 0;
  receivedChars = 0;

  constructor(private readonly socket: WebSocketLike) {
    super();
    socket.addEventListener("message", (event) => {
      const raw = typeof event.data === "string" ? event.data : String(event.data);
      this.receivedChars += raw.length;
      let message: unknown = raw;
      try {
        message = JSON.parse(raw);
      } catch {
        // Not JSON: hand the raw text on; the protocol layer answers it with an error.
      }
      this.receive(message);
    });
    socket.addEventListener("close", (event) => this.markClosed(`socket closed (${event.code ?? "?"})`));
    socket.addEventListener("error", () => this.markClosed("socket error"));
  }

  protected deliver(message: unknown): void {
    if (this.socket.readyState !== OPEN) return;
    const text = JSON.stringify(message);
    this.sentChars += text.length;
    this.socket.send(text);
  }

  protected closeUnderlying(): void {
    this.socket.close(1000, "closed");
  }
}
