/**
 * Keeps a session's context inside its model's window, as pi's coding agent does, but from inside the run:
 * - `transformContext` (the Agent's hook, before every model request): once the context passes the window minus the
 *   reserve, the older turns are summarised by the chat's own model (a request of its own, stopped by the run's
 *   Stop) and the model is sent the summary and the kept messages. The transcript keeps every message: the summary
 *   joins it as a marker (see shared/agent/compaction.ts), journaled, so a restarted worker sends the same context.
 * - `guardOverflow` (around the session's stream function): a provider that answers "context overflow" before
 *   sending anything gets the request again, once, after a compaction; a second overflow fails with a clear message.
 * - `compactNow`: the user's "Compact now", between runs.
 * Queued steering and follow-up messages are not in the context, so no compaction touches them.
 */
import {
  createAssistantMessageEventStream,
  isContextOverflow,
  type AssistantMessage,
  type AssistantMessageEvent,
  type AssistantMessageEventStream,
  type Context,
  type Message,
  type Model,
  type SimpleStreamOptions,
} from "@earendil-works/pi-ai";
import type { AgentMessage, StreamFn, ThinkingLevel } from "../../../shared/agent/types";
import { compactedView, type CompactionMessage, type CompactionReason } from "../../../shared/agent/compaction";
import {
  compactionSettings,
  contextTokens,
  estimateTokens,
  PI_KEEP_RECENT_TOKENS,
  PI_RESERVE_TOKENS,
  type CompactionSettings,
} from "../../../shared/agent/context-tokens";
import { fileLists, planCompaction, summaryMaxTokens, summaryRequest } from "./compaction-plan";
import { zeroUsage } from "../../../shared/agent/state";
import { errorText } from "../../../shared/error-text";


/** What the compactor needs of its session. */
export interface CompactorSession {
  /** The transcript as the Agent holds it, markers included. */
  messages(): AgentMessage[];
  model(): Model<any>;
  thinkingLevel(): ThinkingLevel;
  apiKey(provider: string): Promise<string | undefined>;
  /** The session's conversion for the model (unfinished replies as said, attachments loaded, and so on). */
  convertToLlm(messages: AgentMessage[]): Message[] | Promise<Message[]>;
  /** Puts the marker at the end of the transcript (Agent, mirrors, journal); resolves once it is on disk. */
  append(marker: CompactionMessage): Promise<void>;
  /** Tells the user something went wrong (an automatic compaction that failed). */
  notify(text: string): void;
}

/** The text of a reply that overflowed again after a compaction, or could not be compacted: says what to do. */
export function overflowFailure(contextWindow: number, why: string): string {
  const window = contextWindow > 0 ? ` (${contextWindow.toLocaleString("en-US")} tokens)` : "";
  return `Context overflow: the conversation is too long for this model's context window${window} ${why}. Pick a model with a larger context window, or start a new chat.`;
}

/**
 * Runs skipped before automatic compaction is tried again after its n-th failure in a row (the last entry from then
 * on): a model that keeps failing to summarise (an empty summary, an endpoint that refuses the request) is not asked
 * on every run, and the chat is not given the same notice each time.
 */
export const COMPACTION_BACKOFF_RUNS = [0, 1, 3, 7, 15, 31] as const;

export class ContextCompactor {
  /** Markers added during the current run, after the message each followed: the loop's own list lacks them. */
  private runMarkers: { after: AgentMessage; marker: CompactionMessage }[] = [];
  /** The loop's messages at its latest request (transformContext's input), for an overflow's retry. */
  private loopMessages: AgentMessage[] | undefined;
  /** An automatic compaction failed in this run: not tried again in it (one notice, one wasted request). */
  private failedThisRun = false;
  /** Runs started so far, counting the backoff in. */
  private runs = 0;
  /**
   * Automatic compaction's failures in a row (reset by any compaction made, or another model), the run from which it
   * is tried again, and the reason last told the user: a failure for the same reason again is not told again.
   */
  private failures: { count: number; retryAtRun: number; model: string; told: string } | undefined;
  /** The manual compaction under way, which Stop ends. */
  private manual: AbortController | undefined;

  constructor(
    private readonly session: CompactorSession,
    /** One model request, as the session makes them (its timeouts, no SDK retries). */
    private readonly request: StreamFn,
  ) {}

  /** A run began: its loop starts from the transcript as it is, markers included. */
  runStarted(): void {
    this.runMarkers = [];
    this.loopMessages = undefined;
    this.failedThisRun = false;
    this.runs++;
  }

  /** Whether automatic compaction waits out its backoff in this run (another model is tried at once). */
  private backingOff(): boolean {
    const failures = this.failures;
    if (!failures) return false;
    if (failures.model !== modelKey(this.session.model())) {
      this.failures = undefined;
      return false;
    }
    return this.runs < failures.retryAtRun;
  }

  /** An automatic compaction failed: counted, backed off, and told unless it failed for the same reason last time. */
  private autoCompactionFailed(error: unknown): void {
    this.failedThisRun = true;
    const text = `Could not summarise earlier messages: ${errorText(error)}`;
    const count = (this.failures?.count ?? 0) + 1;
    const skip = COMPACTION_BACKOFF_RUNS[Math.min(count, COMPACTION_BACKOFF_RUNS.length) - 1];
    const told = this.failures?.told;
    this.failures = { count, retryAtRun: this.runs + 1 + skip, model: modelKey(this.session.model()), told: text };
    if (text !== told) this.session.notify(text);
  }

  /**
   * The Agent's transformContext. Never throws: a compaction that fails is reported (once for one reason: it is not
   * tried again in this run, and then only after a backoff of runs, `COMPACTION_BACKOFF_RUNS`) and the request goes
   * out as it would have (a provider's overflow then gets its own
   * chance); one stopped by the user ends quietly, the request then ending as stopped.
   */
  readonly transformContext = async (messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]> => {
    this.loopMessages = messages;
    try {
      let path = this.pathOf(messages);
      const window = this.session.model().contextWindow;
      if (window > 0 && !signal?.aborted && !this.failedThisRun && !this.backingOff()) {
        const settings = compactionSettings(window);
        if (contextTokens(compactedView(path)).tokens > window - settings.reserveTokens) {
          const made = await this.compact(path, "threshold", signal, true).catch((error: unknown) => {
            if (!signal?.aborted) this.autoCompactionFailed(error);
            return undefined;
          });
          if (typeof made === "object") path = this.pathOf(messages);
        }
      }
      return compactedView(path).messages;
    } catch (error) {
      console.error("transformContext failed; the context goes out uncompacted", error);
      return messages.filter((m) => m.role !== "compaction");
    }
  };

  /**
   * `request` made to survive a provider's context overflow: when the first thing a request yields is such an
   * error (nothing has reached the loop yet), the context is compacted and the request made once more; an overflow
   * then, or a compaction that cannot be made, ends the reply with `overflowFailure`'s text. Never throws; the
   * returned stream always ends.
   */
  guardOverflow(): StreamFn {
    return (model, context, options) =>
      handOffStream(
        this.choose(model, context, options).catch((error: unknown) => {
          const out = createAssistantMessageEventStream();
          out.push(failed(model, `Context overflow handling failed: ${errorText(error)}`));
          return streamSource(out);
        }),
      );
  }

  /**
   * Makes the request and looks at its first event. Almost always that is no overflow, and the loop then reads the
   * provider's stream itself: a stream re-pushed event by event through a second queue costs a reply of 12,500
   * chunks a fifth of its throughput. Only an overflow gets a stream of its own, carrying the retry.
   */
  private async choose(model: Model<any>, context: Context, options: SimpleStreamOptions | undefined): Promise<StreamSource> {
    const signal = options?.signal;
    const first = await this.request(model, context, options);
    const events = first[Symbol.asyncIterator]();
    const head = await events.next();
    const overflowed = !head.done && head.value.type === "error" && isContextOverflow(head.value.error, model.contextWindow);
    if (!overflowed || signal?.aborted || !this.loopMessages) return { head, events, result: () => first.result() };
    const out = createAssistantMessageEventStream();
    const original = (head.value as Extract<AssistantMessageEvent, { type: "error" }>).error;
    this.retryAfterOverflow(out, original, model, context, options).catch((error: unknown) =>
      out.push(failed(model, `Context overflow handling failed: ${errorText(error)}`)),
    );
    return streamSource(out);
  }

  private async retryAfterOverflow(out: AssistantMessageEventStream, original: AssistantMessage, model: Model<any>, context: Context, options: SimpleStreamOptions | undefined): Promise<void> {
    const signal = options?.signal;
    let retry: Context;
    try {
      retry = { ...context, messages: await this.compactAfterOverflow(signal) };
    } catch (error) {
      if (signal?.aborted) out.push({ type: "error", reason: "aborted", error: { ...original, stopReason: "aborted" } });
      else out.push(failedLike(original, overflowFailure(model.contextWindow, `and summarising earlier messages did not help (${errorText(error).replace(/\.$/, "")})`)));
      return;
    }
    for await (const event of await this.request(model, retry, options)) {
      if (event.type === "error" && isContextOverflow(event.error, model.contextWindow)) {
        out.push(failedLike(event.error, overflowFailure(model.contextWindow, `even after summarising earlier messages (the provider said: ${event.error.errorMessage ?? "overflow"})`)));
        return;
      }
      out.push(event);
    }
  }

  /** Compacts after an overflow; resolves with what the model is sent now. Rejects when nothing could be compacted. */
  private async compactAfterOverflow(signal: AbortSignal | undefined): Promise<Message[]> {
    const loop = this.loopMessages!;
    const made = await this.compact(this.pathOf(loop), "overflow", signal, true);
    if (typeof made === "string") throw new Error(made);
    return await this.session.convertToLlm(compactedView(this.pathOf(loop)).messages);
  }

  /**
   * "Compact now", between runs. Rejects with the reason when there is nothing to compact, when summarising fails,
   * when stopped (`abortManual`), or when the chat changed meanwhile (a message sent while summarising wins: the
   * summary would leave it out). One at a time.
   */
  async compactNow(): Promise<void> {
    if (this.manual) throw new Error("Already compacting this chat.");
    const controller = new AbortController();
    this.manual = controller;
    try {
      const made = await this.compact(this.session.messages(), "manual", controller.signal, false);
      if (typeof made === "string") throw new Error(made);
    } finally {
      this.manual = undefined;
    }
  }

  /** Stop: a manual compaction under way ends without a marker. */
  abortManual(): void {
    this.manual?.abort();
  }

  /**
   * Summarises `path` (the transcript as the loop sees it, markers in place) and appends the marker. Resolves with
   * the marker, or with the reason there was nothing to compact; rejects when the summary could not be made, when
   * stopped, or when the transcript changed meanwhile.
   */
  private async compact(path: AgentMessage[], reason: CompactionReason, signal: AbortSignal | undefined, inRun: boolean): Promise<CompactionMessage | string> {
    const model = this.session.model();
    const settings: CompactionSettings =
      model.contextWindow > 0 ? compactionSettings(model.contextWindow) : { reserveTokens: PI_RESERVE_TOKENS, keepRecentTokens: PI_KEEP_RECENT_TOKENS };
    const plan = planCompaction(path, settings, reason);
    if (typeof plan === "string") return plan;
    const transcript = this.session.messages();
    const firstKept = path[plan.firstKeptIndex];
    const level = this.session.thinkingLevel();
    const apiKey = await this.session.apiKey(model.provider);
    const conversation = await this.session.convertToLlm(plan.summarise);
    const stream = await this.request(model, summaryRequest(plan, conversation), {
      maxTokens: summaryMaxTokens(settings, model.maxTokens),
      ...(signal ? { signal } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...(model.reasoning && level !== "off" ? { reasoning: level } : {}),
    });
    const reply: AssistantMessage = await stream.result();
    if (signal?.aborted || reply.stopReason === "aborted") throw new Error("Compaction was stopped.");
    if (reply.stopReason === "error") throw new Error(`the model could not write the summary: ${reply.errorMessage ?? "unknown error"}`);
    const summary = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("\n").trim();
    if (!summary) throw new Error("the model wrote an empty summary");
    if (this.session.messages() !== transcript) throw new Error("the chat changed while it was being summarised; nothing was compacted");
    // Session-wide index: the loop's path lines up with the transcript, but the transcript is what indices mean.
    const firstKeptIndex = transcript.lastIndexOf(firstKept);
    if (firstKeptIndex === -1) throw new Error("the kept messages are no longer in the chat; nothing was compacted");
    const files = fileLists(plan);
    const marker: CompactionMessage = {
      role: "compaction",
      summary,
      firstKeptIndex,
      summarisedMessages: plan.summarisedMessages,
      summarisedTokens: plan.summarisedTokens,
      tokensBefore: plan.tokensBefore,
      tokensAfter: 0,
      reason,
      ...(files.read.length + files.modified.length > 0 ? { files } : {}),
      usage: reply.usage,
      timestamp: Date.now(),
    };
    marker.tokensAfter = plan.tokensKept + estimateTokens(marker);
    this.failures = undefined;
    if (inRun) this.runMarkers.push({ after: path[path.length - 1], marker });
    await this.session.append(marker);
    return marker;
  }

  /** The loop's messages with this run's markers put back where they were added: the transcript, as it stands. */
  private pathOf(loop: AgentMessage[]): AgentMessage[] {
    let path = loop;
    for (const { after, marker } of this.runMarkers) {
      if (path.includes(marker)) continue;
      const at = path.lastIndexOf(after);
      if (at !== -1) path = [...path.slice(0, at + 1), marker, ...path.slice(at + 1)];
    }
    return path;
  }
}

/** Which model a failure was with: another model's summary is tried at once. */
function modelKey(model: Model<any>): string {
  return `${model.provider}/${model.id}`;
}

/** A failed reply like `base` (its model and usage) carrying `text`. */
function failedLike(base: AssistantMessage, text: string): AssistantMessageEvent {
  return { type: "error", reason: "error", error: { ...base, stopReason: "error", errorMessage: text } };
}

/** A failed reply from nothing (a bug in the guard itself). */
function failed(model: Model<any>, text: string): AssistantMessageEvent {
  const usage = zeroUsage();
  return {
    type: "error",
    reason: "error",
    error: { role: "assistant", content: [], api: model.api, provider: model.provider, model: model.id, usage, stopReason: "error", errorMessage: text, timestamp: Date.now() },
  };
}

/** Where a guarded request's events come from once its first one is known. */
interface StreamSource {
  /** The first event, already read from `events` (absent: `events` starts at the beginning). */
  head?: IteratorResult<AssistantMessageEvent>;
  events: AsyncIterator<AssistantMessageEvent>;
  result(): Promise<AssistantMessage>;
}

function streamSource(stream: AssistantMessageEventStream): StreamSource {
  return { events: stream[Symbol.asyncIterator](), result: () => stream.result() };
}

/**
 * The stream `guardOverflow` returns at once, before it knows which stream the events will come from: iterating it
 * iterates that stream directly (after handing back the event already read), with no queue of its own. The loop uses
 * a stream only by iterating it and asking its `result()` (agent/assistant-response.ts); pi-ai exports the stream
 * class as a type only, so this is that shape, cast.
 */
function handOffStream(chosen: Promise<StreamSource>): AssistantMessageEventStream {
  let source: StreamSource | undefined;
  const events: AsyncIterator<AssistantMessageEvent> = {
    next: () => {
      if (source) return source.events.next();
      return chosen.then((picked) => {
        source = picked;
        return picked.head ?? picked.events.next();
      });
    },
  };
  const stream = { [Symbol.asyncIterator]: () => events, result: () => chosen.then((picked) => picked.result()) };
  return stream as unknown as AssistantMessageEventStream;
}
