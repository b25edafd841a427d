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

  /** Drops the message once closed; otherwise hands it to the adapter. */
  send(message: unknown): void {
    if (!this.closed) this.deliver(message);
  }

  /** Puts one message on the underlying channel (only called while open). Must not throw. */
  protected abstract deliver(message: unknown): void;
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
