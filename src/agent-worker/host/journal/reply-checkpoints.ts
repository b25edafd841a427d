/**
 * Checkpoints of the assistant reply streaming now, so that a crash (a killed worker, a crashed app or web host)
 * costs at most about a second of it: the transcript otherwise gets the reply only at message_end.
 *
 * A checkpoint is written at most CHECKPOINT_INTERVAL_MS after the reply last changed, and at once when a tool-call
 * block starts or ends. It appends only what streamed since the previous one (`partial` records, see
 * transcript-store.ts), so a long reply costs O(its length) on disk, not O(n^2). What is checkpointed is the reply
 * as mirrors hold it (`StateEventEncoder.mirroredStreamingMessage`): pi-ai's live partial runs ahead of the events
 * and is mutated in place (see wire-events.ts), while the mirrored copy is stable and never mutated.
 */
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../../../shared/agent/types";
import { diffMessage } from "../../../shared/protocol/message-patch";
import type { TranscriptRecord } from "../../../shared-node/session-files/transcript-store";

/**
 * The longest a streamed change waits for its checkpoint. Our promise is "at most a second of a reply lost"; half
 * of it leaves room for the write and for the event queue the worker may be behind the model by.
 */
export const CHECKPOINT_INTERVAL_MS = 500;

export interface ReplyCheckpointsOptions {
  /** The streaming message as mirrors hold it, or undefined when nothing streams. */
  streaming(): AgentMessage | undefined;
  /** Appends one record (not awaited here: appends are serialized by the writer, so order is kept). */
  append(record: TranscriptRecord): Promise<void>;
  intervalMs?: number;
}

export class ReplyCheckpoints {
  /** The reply as of the last checkpoint written (or being written); undefined before the first. */
  private saved: AssistantMessage | undefined;
  /** The number of the last checkpoint record of this reply (its whole first record is 0). */
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts replies, so a failed write of an earlier one cannot reset the state of the current one. */
  private reply = 0;

  constructor(private readonly options: ReplyCheckpointsOptions) {}

  /**
   * The streaming reply changed: checkpoint it within the interval, or now when `now` (a tool-call block started
   * or ended: the step worth keeping exactly). A timer runs only while something waits to be saved, and never keeps
   * the process alive.
   */
  changed(now = false): void {
    if (now) {
      this.save();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save();
    }, this.options.intervalMs ?? CHECKPOINT_INTERVAL_MS);
    this.timer.unref?.();
  }

  /** Writes what streamed since the last checkpoint, if anything (also the last act of a worker whose parent died). */
  save(): void {
    this.cancelTimer();
    const current = this.options.streaming();
    if (current?.role !== "assistant") return;
    let record: TranscriptRecord;
    if (!this.saved) {
      record = { t: "partial", message: current };
      this.seq = 0;
    } else {
      const patches = diffMessage(this.saved, current);
      if (patches.length === 0) return;
      record = { t: "partial", n: ++this.seq, p: patches };
    }
    this.saved = current;
    const reply = this.reply;
    this.options.append(record).catch(() => {
      // The next checkpoint of this reply then writes it whole again, instead of patches that assume this one (one
      // already queued behind it carries the next number, and the loader stops at the gap it leaves). A failed
      // checkpoint costs only the safety net; the reply's final message reports a failing disk.
      if (this.reply === reply) this.saved = undefined;
    });
  }

  /** The reply ended (its final message record follows) or the run did: forget it. */
  end(): void {
    this.cancelTimer();
    this.saved = undefined;
    this.reply += 1;
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
