/**
 * A run that fails where waiting helps (a rate limit, a server error, a dropped connection: provider/retry-policy.ts)
 * asks again by itself, as pi coding-agent's AgentSession does around its Agent (`_handleRetryableError`): the failed
 * reply leaves the chat, the session waits (the provider's Retry-After, else a growing backoff), then `continue()`
 * asks the model again from the same context. Up to Settings' number of retries; then the last failure stays, once.
 *
 * The wait happens in an `agent_end` listener, so the run is still the Agent's: the chat shows it working, Stop (the
 * run's one AbortController) ends the wait, and the run ends as stopped. The retry is a new run that starts as this
 * one settles (pi: `agent.continue()` after the event); the session's status and held queue do not count that settle
 * as an end (`takeOver`), and neither does the page: the wait stays shown until the retry's run has started. The
 * failed reply leaves the Agent's state at once, so no mirror keeps showing it and no later request carries its
 * partial content; the journal drops it only once the wait is over, so a worker that dies during the wait leaves the
 * failure in the transcript, with Retry.
 */
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { Agent } from "../../agent/agent";
import type { AgentEvent } from "../../../shared/agent/types";
import type { RetryWait } from "../../../shared/protocol/retry-wait";
import type { TranscriptRecord } from "../../../shared-node/session-files/transcript-store";
import { retryableFailure, retryDelayMs, type RetryLimits } from "../provider/retry-policy";

export interface RunRetriesHost {
  agent(): Agent;
  /** Settings' limits now; undefined or 0 attempts: no retries. */
  limits(): RetryLimits | undefined;
  /** The wait began (the mirrors are told, the page counts down) or ended (undefined). */
  shown(wait: RetryWait | undefined): void;
  /** Appends to the transcript; resolves once written. */
  journal(record: TranscriptRecord): Promise<void>;
}

export class RunRetries {
  /** Retries made since the last reply that did not fail (or the user's last message). */
  private attempt = 0;
  private wait: RetryWait | undefined;
  /** A retry is to start as the current run settles. */
  private retryNext = false;
  /** The run now starting is a retry (not the user's): the count goes on. */
  private retrying = false;

  constructor(private readonly host: RunRetriesHost) {
    host.agent().subscribe((event, signal) => this.onEvent(event, signal));
  }

  /** The run now starting is a retry of the last one (asked as its `run_start` is handled, before runStarted). */
  get retryStarting(): boolean {
    return this.retrying;
  }

  /** The wait under way, for snapshots; undefined when none. */
  get current(): RetryWait | undefined {
    return this.wait;
  }

  /** A run started: the user's own (a prompt, Retry, an edit) counts its retries afresh; a retry ends the wait. */
  runStarted(): void {
    if (!this.retrying) this.attempt = 0;
    this.retrying = false;
    this.endWait();
  }

  /**
   * The run settled (its `run_settled` event, the Agent still busy). Returns true when a retry takes over: it starts
   * once this run has fully ended, and the settle is no end for the session (no status, nothing held).
   */
  takeOver(): boolean {
    if (!this.retryNext) return false;
    this.retryNext = false;
    this.retrying = true;
    const agent = this.host.agent();
    queueMicrotask(() => {
      agent.continue().catch((error: unknown) => {
        this.retrying = false;
        this.endWait();
        console.error("Paddock: a retry could not start:", error);
      });
    });
    return true;
  }

  private async onEvent(event: AgentEvent, signal: AbortSignal): Promise<void> {
    if (event.type === "message_end" && event.message.role === "assistant" && event.message.stopReason !== "error") this.attempt = 0;
    if (event.type !== "agent_end" || signal.aborted) return;
    const agent = this.host.agent();
    const failed = agent.state.messages.at(-1);
    const why = retryableFailure(failed);
    const limits = this.host.limits();
    if (!why || !limits || failed?.role !== "assistant") {
      this.attempt = 0;
      return;
    }
    const error = failed.errorMessage ?? "";
    const delayMs = this.attempt < limits.attempts ? retryDelayMs(this.attempt + 1, error, limits.maxWaitMs) : undefined;
    if (delayMs === undefined) {
      await this.givenUp(failed, this.attempt);
      this.attempt = 0;
      return;
    }
    this.attempt += 1;
    agent.dropLastMessages(1);
    this.wait = { ...why, attempt: this.attempt, attempts: limits.attempts, delayMs, until: Date.now() + delayMs, error };
    this.host.shown(this.wait);
    await sleep(delayMs, signal);
    await this.host.journal({ t: "drop", count: 1 });
    if (signal.aborted) {
      this.endWait();
      // Stopped while waiting: the run ends as stopped, with what the failed attempt had said.
      this.attempt = 0;
      const stopped: AssistantMessage = { ...failed, stopReason: "aborted", timestamp: Date.now() };
      delete stopped.errorMessage;
      agent.appendMessage(stopped);
      await this.host.journal({ t: "message", message: stopped });
      return;
    }
    // The wait is shown until the retry's run starts (runStarted): between this run's end and that start, the chat
    // is still at work, not failed or idle.
    this.retryNext = true;
  }

  /**
   * The last failure after `retries` retries stays as the run's end, saying they were made, so its Retry is known to
   * ask again after them ("503 Service Unavailable. Paddock retried 3 times."). None made: it stays as it is.
   */
  private async givenUp(failed: AssistantMessage, retries: number): Promise<void> {
    if (retries === 0) return;
    const agent = this.host.agent();
    const said: AssistantMessage = { ...failed, errorMessage: `${failed.errorMessage ?? ""} ${retriedText(retries)}`.trim() };
    agent.dropLastMessages(1);
    agent.appendMessage(said);
    await this.host.journal({ t: "drop", count: 1 });
    await this.host.journal({ t: "message", message: said });
  }

  private endWait(): void {
    if (!this.wait) return;
    this.wait = undefined;
    this.host.shown(undefined);
  }
}

/** What a failure's text gets once retrying it gave up: "Paddock retried 3 times." */
export function retriedText(retries: number): string {
  return `Paddock retried ${retries === 1 ? "once" : `${retries} times`}.`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
