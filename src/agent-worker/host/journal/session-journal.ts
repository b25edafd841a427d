/**
 * A session's journal: what its transcript is told, and when. Each message is appended and flushed at its
 * `message_end`, before the run moves on, with the chat's title once it has one; queued steering and follow-up
 * messages and held ones are journaled too (a drained queue with the message it became, so a crash in between loses
 * nothing), so a killed worker loses neither; a streaming reply is checkpointed about twice a second
 * (reply-checkpoints.ts). A failed write is said in the chat, never thrown at the run.
 */
import type { Agent, QueueChange } from "../../agent/agent";
import type { AgentMessage } from "../../../shared/agent/types";
import type { AgentStateEvent } from "../../../shared/agent/state";
import type { HeldMessage } from "../../../shared/protocol/held-messages";
import { titleFrom } from "../../../shared/agent/chat-title";
import { errorText } from "../../../shared/error-text";
import type { TranscriptRecord, TranscriptWriter } from "../../../shared-node/session-files/transcript-store";
import { ReplyCheckpoints } from "./reply-checkpoints";

export type QueuesRecord = Extract<TranscriptRecord, { t: "queues" }>;

export interface SessionJournalHost {
  writer: Pick<TranscriptWriter, "append" | "appendCheckpoint" | "close">;
  /** Created after the journal; asked for at the first use. */
  agent(): Agent;
  /** The held messages now. */
  held(): HeldMessage[];
  /** The streaming reply as mirrors hold it (what is checkpointed). */
  streaming(): AgentMessage | undefined;
  /** The queues changed: the mirrors are told (the record without its `t`). */
  queuesShown(queues: Omit<QueuesRecord, "t">): void;
  /** Says something in the chat (a failed write). */
  notify(text: string): void;
  /** A message (and what came with it) is on disk: main is told. */
  recorded(): void;
}

export class SessionJournal {
  private readonly checkpoints: ReplyCheckpoints;
  /** A drained queue is journaled with the message it became, so a crash in between loses nothing. */
  private queuesDirty = false;
  /** True while the journaled queues are put back: those changes are not journaled again. */
  private restoringQueues = false;
  /** The journal write of the latest queue change; steer/followUp return only once it is on disk. */
  private queueWrite: Promise<void> = Promise.resolve();
  private chatTitle: string | undefined;
  /** Who waits for a message's record (untilJournaled), by the message. */
  private readonly awaited = new Map<AgentMessage, () => void>();

  constructor(
    private readonly host: SessionJournalHost,
    title: string | undefined,
  ) {
    this.chatTitle = title;
    this.checkpoints = new ReplyCheckpoints({ streaming: () => host.streaming(), append: (record) => host.writer.appendCheckpoint(record) });
  }

  /** The chat's title: the one saved, else what its first message makes of it once there is one. */
  get title(): string | undefined {
    return this.chatTitle;
  }

  /** The chat was reset: its next first message names it again. */
  forgetTitle(): void {
    this.chatTitle = undefined;
  }

  /** Appends `records`; a failed write is said in the chat. */
  record(...records: TranscriptRecord[]): Promise<void> {
    return this.host.writer.append(...records).catch((error: unknown) => {
      this.host.notify(`Could not save the transcript: ${errorText(error)}`);
    });
  }

  /** Resolves once the latest queue change is on disk. */
  get queuesWritten(): Promise<void> {
    return this.queueWrite;
  }

  /** Puts the journaled queues back in the Agent's (not journaled again, and no mirror is connected yet). */
  restoreQueues(steering: readonly AgentMessage[], followUp: readonly AgentMessage[]): void {
    const agent = this.host.agent();
    this.restoringQueues = true;
    for (const m of steering) agent.steer(m);
    for (const m of followUp) agent.followUp(m);
    this.restoringQueues = false;
  }

  /** The Agent's `onQueueChange`. */
  agentQueueChanged(change: QueueChange): void {
    if (this.restoringQueues) return; // already on disk, and no mirror is connected yet
    this.queuesChanged(change.reason === "drain" ? "with-next-message" : "now");
  }

  /**
   * The queues changed (the Agent's or the held list): the mirrors get all of them; the journal gets them now, or
   * with the next message when that message is one of them (a drain, a held message sent).
   */
  queuesChanged(journal: "now" | "with-next-message"): void {
    const record = this.queuesRecord();
    const { t: _t, ...queues } = record;
    this.host.queuesShown(queues);
    if (journal === "now") this.queueWrite = this.record(record);
    else this.queuesDirty = true;
  }

  /** The Agent's queues and the held messages, as the journal keeps them. */
  private queuesRecord(): QueuesRecord {
    const { steering, followUp } = this.host.agent().queuedMessages();
    const held = this.host.held();
    return { t: "queues", steering, followUp, ...(held.length > 0 ? { held } : {}) };
  }

  /**
   * Resolves once `message` is journaled at its `message_end` (a failed write counts: it is said in the chat, and the
   * message is in the chat all the same). `cancel` stops the wait (the run that would carry it did not start).
   */
  untilJournaled(message: AgentMessage): { written: Promise<void>; cancel(): void } {
    const written = new Promise<void>((resolve) => this.awaited.set(message, resolve));
    return { written, cancel: () => void this.awaited.delete(message) };
  }

  /** Journals each message at its `message_end` (a subscriber of `agent`'s: the run waits for the write). */
  follow(agent: Agent): void {
    agent.subscribe(async (event) => {
      if (event.type !== "message_end") return;
      const records: TranscriptRecord[] = [{ t: "message", message: event.message }];
      if (this.queuesDirty) {
        this.queuesDirty = false;
        records.push(this.queuesRecord());
      }
      const title = this.chatTitle ?? titleFrom(agent.state.messages);
      if (title && title !== this.chatTitle) {
        this.chatTitle = title;
        records.push({ t: "meta", title });
      }
      await this.record(...records);
      this.awaited.get(event.message)?.();
      this.awaited.delete(event.message);
      this.host.recorded();
    });
  }

  /** Every state event while the session is open: checkpoints, and a run's failure message. */
  stateEvent(event: AgentStateEvent): void {
    if (event.type === "message_update") {
      const type = event.assistantMessageEvent.type;
      this.checkpoints.changed(type === "toolcall_start" || type === "toolcall_end");
    } else if (event.type === "message_end" || event.type === "run_failure" || event.type === "agent_end" || event.type === "reset") {
      // Before the final message is appended: checkpoints already queued stay ahead of it, and none follows it.
      this.checkpoints.end();
    }
    // The Agent's safety net adds its failure message without a message_end: journaled here, or a Retry (which
    // drops it) would drop the user's message from the file instead.
    if (event.type === "run_failure") void this.record({ t: "message", message: event.message });
  }

  /** Saves the streaming reply as it stands (the process is about to end without being asked). */
  saveReply(): void {
    this.checkpoints.save();
  }

  /** No more checkpoints (the session is closing). */
  endReplies(): void {
    this.checkpoints.end();
  }

  /** Closes the transcript, once every write is done. */
  close(): Promise<void> {
    return this.host.writer.close();
  }
}
