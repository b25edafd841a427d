import type { AgentMessage, QueueMode } from "../../shared/agent/types";

export type { QueueMode };

/** A FIFO of messages waiting for the loop (steering or follow-up). The mode may change at any time. */
export class PendingQueue {
  private items: AgentMessage[] = [];

  constructor(public mode: QueueMode) {}

  get size(): number {
    return this.items.length;
  }

  enqueue(message: AgentMessage): void {
    this.items.push(message);
  }

  /** Removes and returns what the current mode allows: the oldest message, or all of them. [] when empty. */
  drain(): AgentMessage[] {
    const count = this.mode === "all" ? this.items.length : Math.min(1, this.items.length);
    const drained = this.items.slice(0, count);
    this.items = this.items.slice(count);
    return drained;
  }

  /** Removes the message at `index` (oldest first); returns it, or undefined when there is none. */
  removeAt(index: number): AgentMessage | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.items.length) return undefined;
    const [removed] = this.items.splice(index, 1);
    return removed;
  }

  /** Empties the queue; returns how many messages were dropped. */
  clear(): number {
    const dropped = this.items.length;
    this.items = [];
    return dropped;
  }

  /** A copy of the waiting messages, oldest first. */
  snapshot(): AgentMessage[] {
    return this.items.slice();
  }
}
