/** Two ends of an in-memory session channel: what one sends, the other receives (a microtask later, as over a port). */
import { BaseTransport } from "../../../../../src/shared/transport/transport";

class MemoryEnd extends BaseTransport {
  peer: MemoryEnd | undefined;

  protected deliver(message: unknown): void {
    const peer = this.peer;
    const copy: unknown = structuredClone(message);
    queueMicrotask(() => peer?.receive(copy));
  }

  protected closeUnderlying(): void {
    this.peer?.markClosed("peer closed");
  }
}

export function transportPair(): [BaseTransport, BaseTransport] {
  const a = new MemoryEnd();
  const b = new MemoryEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
