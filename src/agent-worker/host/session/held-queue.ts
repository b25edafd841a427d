/**
 * The session's policy for queued messages that outlive their run. The Agent keeps pi's semantics: Stop does not
 * clear its steering and follow-up queues, and its next run, whatever started it, takes what is left in them. In a
 * chat that means a follow-up queued before Stop fires after the next, unrelated prompt. So the session decides,
 * as each run settles:
 *
 * - the user stopped it, it failed, or a tool ended it: what is left in the Agent's queues is *held*: taken out of
 *   the Agent, shown in the chat's queue strip, journaled (`queues.held`), and sent only when the user says so
 *   (`send`, "Send now") or dropped (`discard`). A held message never goes to the agent by itself.
 * - it ended normally: whatever is left was queued too late for it (after its last poll, while it was finishing),
 *   and goes on at once in a new run, as it would have a moment earlier.
 *
 * Messages put back from the journal by a restarted worker keep their place: held ones stay held, and the Agent's
 * queues (a run cut off by a crash) stay queued for Retry, as before.
 */
import type { Agent } from "../../agent/agent";
import type { AgentMessage } from "../../../shared/agent/types";
import type { HeldMessage } from "../../../shared/protocol/held-messages";

export interface HeldQueueHost {
  agent(): Agent;
  /**
   * The held list changed: tell the mirrors, and journal the queues now, or with the next message when that
   * message is the held one being sent (so a crash in between loses nothing).
   */
  changed(journal: "now" | "with-next-message"): void;
  /** Throws a readable Error when the chat cannot start a run (no model chosen). */
  requireModel(): void;
  /** Starts a run with `message`; resolves once the message is accepted (journaled), the run going on. */
  prompt(message: AgentMessage): Promise<void>;
}

export class HeldQueue {
  private held: HeldMessage[];
  /** The user pressed Stop during the current run. */
  private stopped = false;

  constructor(private readonly host: HeldQueueHost, restored: readonly HeldMessage[] = []) {
    this.held = [...restored];
  }

  /** The held messages, oldest first (a copy). */
  list(): HeldMessage[] {
    return [...this.held];
  }

  /** The user pressed Stop: what the run leaves queued is held when it settles. */
  stopping(): void {
    if (this.host.agent().state.isStreaming) this.stopped = true;
  }

  runStarted(): void {
    this.stopped = false;
  }

  /**
   * Called as a run settles (its `run_settled` event, while the Agent still counts it as running): applies the
   * policy above to what the Agent's queues still hold. Never throws.
   */
  runSettled(): void {
    const agent = this.host.agent();
    const stopped = this.stopped;
    this.stopped = false;
    if (!agent.hasQueuedMessages()) return;
    if (stopped || !endedWithReply(agent)) {
      const { steering, followUp } = agent.queuedMessages();
      this.held.push(...steering.map((message) => ({ queue: "steering" as const, message })), ...followUp.map((message) => ({ queue: "followUp" as const, message })));
      // The clear is the one queue change the mirrors and the journal see: it carries the held list with it.
      agent.clearAllQueues();
      return;
    }
    // After this run has fully ended (a microtask: before any command that arrives meanwhile).
    queueMicrotask(() => {
      if (agent.state.isStreaming || !agent.hasQueuedMessages()) return;
      agent.continue().catch(() => undefined); // a run's own failures end in its transcript, not here
    });
  }

  /**
   * "Send now": the held message at `index` goes to the agent. While a run is active it rejoins the queue it came
   * from (so the run takes it); otherwise it starts a run, and this resolves once the message is accepted (journaled;
   * the run goes on). Rejects, changing nothing, when there is no such message or no model to send it to.
   */
  async send(index: number): Promise<void> {
    const item = this.take(index);
    const agent = this.host.agent();
    if (agent.state.isStreaming) {
      this.held.splice(index, 1);
      // The Agent's queue change tells the mirrors and journals both lists, this one already without the message.
      if (item.queue === "steering") agent.steer(item.message);
      else agent.followUp(item.message);
      return;
    }
    this.host.requireModel();
    this.held.splice(index, 1);
    this.host.changed("with-next-message");
    await this.host.prompt(item.message);
  }

  /** "Discard": the held message at `index` is dropped. Throws, changing nothing, when there is none. */
  discard(index: number): void {
    this.take(index);
    this.held.splice(index, 1);
    this.host.changed("now");
  }

  /** Drops every held message (Clear, a reset). */
  clear(): void {
    if (this.held.length === 0) return;
    this.held = [];
    this.host.changed("now");
  }

  private take(index: number): HeldMessage {
    const item = Number.isInteger(index) ? this.held[index] : undefined;
    if (!item) throw new Error(`There is no held message at position ${index}`);
    return item;
  }
}

/**
 * Whether the run that just ended has a reply to follow up on: its last message is an assistant message that did not
 * fail or get cut short. A run ended by a tool's `terminate` ends with a tool result, which has none.
 */
function endedWithReply(agent: Agent): boolean {
  const last = agent.state.messages.at(-1);
  return last?.role === "assistant" && last.stopReason !== "error" && last.stopReason !== "aborted";
}
