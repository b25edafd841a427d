/**
 * Coalesces a session's stream items into numbered batches for its mirrors: about one batch per frame while text
 * streams, and at once for anything a user waits on (message ends, tool events, run end, queue changes).
 * Consecutive appends to the same streaming string travel as one.
 */
import { mergeWireEvents } from "../../../shared/protocol/wire-events";
import type { EventBatch, SessionStreamItem } from "../../../shared/protocol/session-protocol";

/**
 * Streaming text is held back at most this long: about three batches per 60 Hz frame, so a mirror's update is
 * never more than a third of a frame behind (p99 emit -> mirror within 10 ms, timer slack included), while a batch
 * (in its compact append form, see toEventFrame) still carries enough text to keep the
 * envelope small next to it.
 */
export const BATCH_INTERVAL_MS = 5;

export interface EventForwarderOptions {
  send(batch: EventBatch): void;
  /** When set, a digest of the state after each batch (integrity checks). */
  digest?: () => string;
}

function isUrgent(item: SessionStreamItem): boolean {
  if (item.k === "a" || item.k === "u") return false;
  if (item.k === "s") return item.e.type !== "message_start" && item.e.type !== "turn_start";
  return true;
}

export class EventForwarder {
  private pending: SessionStreamItem[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;

  constructor(private readonly options: EventForwarderOptions) {}

  /** The sequence number of the last batch sent. */
  get lastSeq(): number {
    return this.seq;
  }

  push(item: SessionStreamItem): void {
    const last = this.pending[this.pending.length - 1];
    const merged = last && item.k === "a" && last.k === "a" ? mergeWireEvents(last, item) : undefined;
    if (merged) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(item);
    if (isUrgent(item)) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), BATCH_INTERVAL_MS);
  }

  /** Sends what is pending now. Promises: batches leave in push order with seq increasing by one. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const items = this.pending;
    this.pending = [];
    this.seq += 1;
    const batch: EventBatch = { seq: this.seq, items };
    if (this.options.digest) batch.digest = this.options.digest();
    this.options.send(batch);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }
}
