/**
 * A message transport: the one shape every channel end is adapted to (DOM MessagePort, Electron MessagePortMain,
 * process.parentPort, child-process IPC, WebSocket). Messages are JSON-compatible values.
 */
export interface Transport {
  /** Sends one message. Must never throw: a closed transport drops the message (its `onClose` has fired or will). */
  send(message: unknown): void;
  /** Registers the receiver; returns an unsubscribe function. */
  onMessage(listener: (message: unknown) => void): () => void;
  /** Called once when the other end goes away or `close()` is called. */
  onClose(listener: (reason: string) => void): () => void;
  close(): void;
}

/** A small listener set that never lets one throwing listener stop the others. */
export class Listeners<T extends unknown[]> {
  private readonly set = new Set<(...args: T) => void>();

  add(listener: (...args: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(...args: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(...args);
      } catch (error) {
        console.error("paddock: listener failed", error);
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}

/**
 * Base for adapters: tracks closed state and fires `onClose` exactly once.
 */
export abstract class BaseTransport implements Transport {
  protected readonly messageListeners = new Listeners<[unknown]>();
  private readonly closeListeners = new Listeners<[string]>();
  private closedReason: string | undefined;

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  abstract send(message: unknown): void;
  protected abstract closeUnderlying(): void;

  onMessage(listener: (message: unknown) => void): () => void {
    return this.messageListeners.add(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    if (this.closedReason !== undefined) {
      const reason = this.closedReason;
      queueMicrotask(() => listener(reason));
      return () => {};
    }
    return this.closeListeners.add(listener);
  }

  close(): void {
    this.markClosed("closed");
    try {
      this.closeUnderlying();
    } catch {
      // Already gone; nothing left to release.
    }
  }

  protected receive(message: unknown): void {
    if (this.closedReason === undefined) this.messageListeners.emit(message);
  }

  protected markClosed(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    this.closeListeners.emit(reason);
    this.closeListeners.clear();
    this.messageListeners.clear();
  }
}

/**
 * An in-memory pair of connected transports (tests and in-process wiring). Delivery is asynchronous, like a port.
 */
export function createTransportPair(): [Transport, Transport] {
  class End extends BaseTransport {
    peer!: End;
    send(message: unknown): void {
      if (this.closed) return;
      const peer = this.peer;
      // Cloned like a real port would, so no end can see the other's later mutations.
      const copy = structuredClone(message);
      queueMicrotask(() => peer.receive(copy));
    }
    protected closeUnderlying(): void {
      const peer = this.peer;
      queueMicrotask(() => peer.markClosed("peer closed"));
    }
  }
  const a = new End();
  const b = new End();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
