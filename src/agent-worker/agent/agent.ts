import {
  type AssistantMessage,
  type ImageContent,
  type Message,
  type SimpleStreamOptions,
  type TextContent,
  type ThinkingBudgets,
  type Transport,
} from "@earendil-works/pi-ai";
import {
  type AgentStateData,
  type AgentStateEvent,
  createAgentStateData,
  reduceAgentState,
  zeroUsage,
} from "../../shared/agent/state";
import { streamSimple } from "./stream-simple";
import type {
  AfterToolCallContext,
  AfterToolCallResult,
  AgentContext,
  AgentEvent,
  AgentLoopConfig,
  AgentMessage,
  AgentState,
  AgentTool,
  BeforeToolCallContext,
  BeforeToolCallResult,
  StreamFn,
  ThinkingLevel,
  ToolExecutionMode,
} from "../../shared/agent/types";
import { runAgentLoop, runAgentLoopContinue } from "./agent-loop";
import { PendingQueue, type QueueMode } from "./pending-queue";
import { createStateView } from "./state-view";
import { errorText } from "../../shared/error-text";

type Listener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;

/** What `onQueueChange` reports: why, and both queues as they are now. */
export interface QueueChange {
  reason: "enqueue" | "drain" | "remove" | "clear";
  steering: readonly AgentMessage[];
  followUp: readonly AgentMessage[];
}

export interface AgentOptions {
  initialState?: Partial<Omit<AgentState, "pendingToolCalls" | "isStreaming" | "streamingMessage" | "errorMessage">> & Pick<AgentStateData, "branches">;
  convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  streamFn?: StreamFn;
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  onPayload?: SimpleStreamOptions["onPayload"];
  onResponse?: SimpleStreamOptions["onResponse"];
  beforeToolCall?: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
  afterToolCall?: (context: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  sessionId?: string;
  thinkingBudgets?: ThinkingBudgets;
  transport?: Transport;
  maxRetryDelayMs?: number;
  toolExecution?: ToolExecutionMode;
  /**
   * Our addition. Called synchronously after every reduction (loop events and runtime events alike), before any
   * listener runs, with the data as it now is. The worker host forwards state changes from here.
   * Contract: must not throw. A throw is logged once and ignored; it never breaks a run.
   */
  onStateEvent?: (event: AgentStateEvent, state: Readonly<AgentStateData>) => void;
  /**
   * Our addition. Called after every change of the steering or follow-up queue (steer, followUp, a drain by the
   * loop or by continue(), clear*, reset). Drains and clears that remove nothing are not changes.
   * Contract: must not throw. A throw is logged once and ignored.
   */
  onQueueChange?: (change: QueueChange) => void;
}

interface ActiveRun {
  promise: Promise<void>;
  resolve: () => void;
  abortController: AbortController;
}

/** Keeps only what a model understands; custom messages need an app-supplied convertToLlm to reach it. */
function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
  return messages.filter(
    (message): message is Message =>
      message.role === "user" || message.role === "assistant" || message.role === "toolResult",
  );
}

function toReasoning(level: ThinkingLevel): Exclude<ThinkingLevel, "off"> | undefined {
  return level === "off" ? undefined : level;
}

/**
 * A stateful shell over the stateless loop: it owns the transcript, runs one prompt at a time, queues steering and
 * follow-up messages, lets the caller abort, and tells subscribers about everything in order.
 *
 * Every state change goes through `reduceAgentState`; listeners are awaited one after another and always see the
 * state already reduced for their event. The Agent stays streaming until the `agent_end` listeners have settled.
 */
export class Agent {
  private stateData: AgentStateData;
  private toolList: AgentTool<any>[];
  private readonly stateView: AgentState;
  private readonly listeners = new Set<Listener>();
  private readonly steeringQueue: PendingQueue;
  private readonly followUpQueue: PendingQueue;
  private activeRun?: ActiveRun;
  private readonly silencedHooks = new Set<string>();

  convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  streamFn: StreamFn;
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  onPayload?: SimpleStreamOptions["onPayload"];
  onResponse?: SimpleStreamOptions["onResponse"];
  beforeToolCall?: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
  afterToolCall?: (context: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
  /** Forwarded to providers for cache-aware backends. */
  sessionId?: string;
  /** Per-level thinking token budgets forwarded to the stream function. */
  thinkingBudgets?: ThinkingBudgets;
  /** Preferred transport forwarded to the stream function. */
  transport: Transport;
  /** Cap on provider-requested retry delays. */
  maxRetryDelayMs?: number;
  /** How the tool calls of one assistant message run. */
  toolExecution: ToolExecutionMode;
  /** See AgentOptions.onStateEvent. */
  onStateEvent?: AgentOptions["onStateEvent"];
  /** See AgentOptions.onQueueChange. */
  onQueueChange?: AgentOptions["onQueueChange"];

  constructor(options: AgentOptions = {}) {
    const initial = options.initialState;
    this.stateData = createAgentStateData({
      systemPrompt: initial?.systemPrompt,
      model: initial?.model,
      thinkingLevel: initial?.thinkingLevel,
      messages: initial?.messages,
      branches: initial?.branches,
    });
    this.toolList = initial?.tools?.slice() ?? [];
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the view's accessors have their own `this`
    const agent = this;
    this.stateView = createStateView({
      get data() {
        return agent.stateData;
      },
      patch(patch) {
        agent.apply({ type: "state_patch", patch });
      },
      get tools() {
        return agent.toolList;
      },
      set tools(tools) {
        agent.toolList = tools;
      },
    });
    this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
    this.transformContext = options.transformContext;
    this.streamFn = options.streamFn ?? streamSimple;
    this.getApiKey = options.getApiKey;
    this.onPayload = options.onPayload;
    this.onResponse = options.onResponse;
    this.beforeToolCall = options.beforeToolCall;
    this.afterToolCall = options.afterToolCall;
    this.steeringQueue = new PendingQueue(options.steeringMode ?? "one-at-a-time");
    this.followUpQueue = new PendingQueue(options.followUpMode ?? "one-at-a-time");
    this.sessionId = options.sessionId;
    this.thinkingBudgets = options.thinkingBudgets;
    this.transport = options.transport ?? "auto";
    this.maxRetryDelayMs = options.maxRetryDelayMs;
    this.toolExecution = options.toolExecution ?? "parallel";
    this.onStateEvent = options.onStateEvent;
    this.onQueueChange = options.onQueueChange;
  }

  /**
   * Adds a listener; returns the function that removes it. Listeners are awaited in subscription order, get the
   * run's AbortSignal, and are part of the run: the Agent is idle only after the `agent_end` listeners settle.
   */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The live state. Assigning `tools` or `messages` stores a copy; `messages.push()` mutates the current array. */
  get state(): AgentState {
    return this.stateView;
  }

  /** Our addition: the current plain data (no tools), for snapshots. Replaced, never mutated, by each change. */
  get data(): Readonly<AgentStateData> {
    return this.stateData;
  }

  set steeringMode(mode: QueueMode) {
    this.steeringQueue.mode = mode;
  }

  get steeringMode(): QueueMode {
    return this.steeringQueue.mode;
  }

  set followUpMode(mode: QueueMode) {
    this.followUpQueue.mode = mode;
  }

  get followUpMode(): QueueMode {
    return this.followUpQueue.mode;
  }

  /** Queues a message for after the current turn's tool calls, before the next model call. */
  steer(message: AgentMessage): void {
    this.steeringQueue.enqueue(message);
    this.reportQueues("enqueue");
  }

  /** Queues a message for when the agent would otherwise stop. */
  followUp(message: AgentMessage): void {
    this.followUpQueue.enqueue(message);
    this.reportQueues("enqueue");
  }

  /**
   * Our addition: removes the newest `count` messages from the transcript in one state event that says only that
   * (assigning `state.messages` would carry the whole transcript to every mirror). For use between runs.
   */
  dropLastMessages(count: number): void {
    if (count > 0) this.apply({ type: "drop_last_messages", count });
  }

  /**
   * Our addition: adds a message the loop did not produce (a compaction marker) to the end of the transcript, as
   * one small state event. Listeners are not called: it is no loop event. For use between runs, or from a hook
   * between turns (transformContext), never while a message streams.
   */
  appendMessage(message: AgentMessage): void {
    this.apply({ type: "append_message", message });
  }

  /**
   * Our addition: a branch, a switch between versions or a delete on the transcript (shared/agent/branches.ts), as
   * one small state event: no message travels, the mirrors hold them already. Between runs only (the caller checks).
   */
  changePath(event: Extract<AgentStateEvent, { type: "branch" | "switch_branch" | "delete_messages" }>): void {
    this.apply(event);
  }

  /**
   * Our addition: removes one waiting message (index oldest first) and reports the change once. Returns false,
   * changing nothing, when that queue has no message at `index`.
   */
  removeQueued(queue: "steering" | "followUp", index: number): boolean {
    const removed = (queue === "steering" ? this.steeringQueue : this.followUpQueue).removeAt(index);
    if (removed === undefined) return false;
    this.reportQueues("remove");
    return true;
  }

  clearSteeringQueue(): void {
    if (this.steeringQueue.clear() > 0) this.reportQueues("clear");
  }

  clearFollowUpQueue(): void {
    if (this.followUpQueue.clear() > 0) this.reportQueues("clear");
  }

  clearAllQueues(): void {
    const dropped = this.steeringQueue.clear() + this.followUpQueue.clear();
    if (dropped > 0) this.reportQueues("clear");
  }

  hasQueuedMessages(): boolean {
    return this.steeringQueue.size > 0 || this.followUpQueue.size > 0;
  }

  /** Our addition: copies of both queues, oldest first. */
  queuedMessages(): { steering: AgentMessage[]; followUp: AgentMessage[] } {
    return { steering: this.steeringQueue.snapshot(), followUp: this.followUpQueue.snapshot() };
  }

  /** The current run's abort signal; undefined when idle. */
  get signal(): AbortSignal | undefined {
    return this.activeRun?.abortController.signal;
  }

  /** Aborts the current run (provider stream, running tools, listeners); does nothing when idle. */
  abort(): void {
    this.activeRun?.abortController.abort();
  }

  /** Resolves once the current run and its `agent_end` listeners are done; at once when idle. */
  waitForIdle(): Promise<void> {
    return this.activeRun?.promise ?? Promise.resolve();
  }

  /** Clears the transcript, runtime state and both queues. Listeners, tools, system prompt and model stay. */
  reset(): void {
    this.apply({ type: "reset" });
    this.clearAllQueues();
  }

  /** Starts a run from text (with optional images), one message, or several messages. Rejects while a run is active. */
  prompt(message: AgentMessage | AgentMessage[]): Promise<void>;
  prompt(input: string, images?: ImageContent[]): Promise<void>;
  async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
    if (this.activeRun) {
      throw new Error(
        "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
      );
    }
    await this.runPrompts(toPromptMessages(input, images));
  }

  /**
   * Continues the transcript. After a user or toolResult message it asks the model again. After an assistant
   * message it runs queued steering (without polling steering again before the first request), else queued
   * follow-ups, else rejects.
   */
  async continue(): Promise<void> {
    if (this.activeRun) {
      throw new Error("Agent is already processing. Wait for completion before continuing.");
    }
    const last = this.stateData.messages[this.stateData.messages.length - 1];
    if (!last) {
      throw new Error("No messages to continue from");
    }
    if (last.role !== "assistant") {
      await this.runExclusive((signal) =>
        runAgentLoopContinue(this.contextSnapshot(), this.loopConfig(), (event) => this.dispatch(event), signal, this.streamFn),
      );
      return;
    }
    const steering = this.drainQueue(this.steeringQueue);
    if (steering.length > 0) {
      await this.runPrompts(steering, { skipInitialSteeringPoll: true });
      return;
    }
    const followUps = this.drainQueue(this.followUpQueue);
    if (followUps.length > 0) {
      await this.runPrompts(followUps);
      return;
    }
    throw new Error("Cannot continue from message role: assistant");
  }

  private runPrompts(messages: AgentMessage[], options: { skipInitialSteeringPoll?: boolean } = {}): Promise<void> {
    return this.runExclusive((signal) =>
      runAgentLoop(
        messages,
        this.contextSnapshot(),
        this.loopConfig(options.skipInitialSteeringPoll === true),
        (event) => this.dispatch(event),
        signal,
        this.streamFn,
      ),
    );
  }

  private contextSnapshot(): AgentContext {
    return {
      systemPrompt: this.stateData.systemPrompt,
      messages: this.stateData.messages.slice(),
      tools: this.toolList.slice(),
    };
  }

  private loopConfig(skipInitialSteeringPoll = false): AgentLoopConfig {
    let skipSteeringPoll = skipInitialSteeringPoll;
    return {
      model: this.stateData.model,
      reasoning: toReasoning(this.stateData.thinkingLevel),
      sessionId: this.sessionId,
      onPayload: this.onPayload,
      onResponse: this.onResponse,
      transport: this.transport,
      thinkingBudgets: this.thinkingBudgets,
      maxRetryDelayMs: this.maxRetryDelayMs,
      toolExecution: this.toolExecution,
      beforeToolCall: this.beforeToolCall,
      afterToolCall: this.afterToolCall,
      convertToLlm: this.convertToLlm,
      transformContext: this.transformContext,
      getApiKey: this.getApiKey,
      // A model or thinking level set on `state` during a run applies from the next request on.
      prepareNextTurn: async () => ({
        model: this.stateData.model,
        reasoning: toReasoning(this.stateData.thinkingLevel),
      }),
      getSteeringMessages: async () => {
        if (skipSteeringPoll) {
          skipSteeringPoll = false;
          return [];
        }
        return this.drainQueue(this.steeringQueue);
      },
      getFollowUpMessages: async () => this.drainQueue(this.followUpQueue),
    };
  }

  /**
   * The run lifecycle: one AbortController per run, streaming on, the run, the safety net for anything it throws,
   * then settlement. Resolves when the run has settled; rejects only if a listener throws while the safety net
   * reports the failure.
   */
  private async runExclusive(run: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
    const abortController = new AbortController();
    let resolve = (): void => {};
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    this.activeRun = { promise, resolve, abortController };
    this.apply({ type: "run_start" });
    try {
      await run(abortController.signal);
    } catch (error) {
      await this.reportRunFailure(error, abortController.signal.aborted);
    } finally {
      this.apply({ type: "run_settled" });
      this.activeRun?.resolve();
      this.activeRun = undefined;
    }
  }

  /** The safety net: the transcript gets an assistant message carrying the error, and the run ends normally. */
  private async reportRunFailure(error: unknown, aborted: boolean): Promise<void> {
    const model = this.stateData.model;
    const failure: AssistantMessage = {
      role: "assistant",
      content: [{ type: "text", text: "" }],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: zeroUsage(),
      stopReason: aborted ? "aborted" : "error",
      errorMessage: errorText(error),
      timestamp: Date.now(),
    };
    this.apply({ type: "run_failure", message: failure });
    await this.dispatch({ type: "agent_end", messages: [failure] });
  }

  /**
   * Reduces the state for a loop event, then awaits every listener in order. Listeners exist only inside a run:
   * an event outside one is a broken invariant and throws (after reducing, as pi does).
   */
  private async dispatch(event: AgentEvent): Promise<void> {
    this.apply(event);
    const signal = this.activeRun?.abortController.signal;
    if (!signal) {
      throw new Error("Agent listener invoked outside active run");
    }
    for (const listener of this.listeners) {
      await listener(event, signal);
    }
  }

  /** The only writer of `stateData`. */
  private apply(event: AgentStateEvent): void {
    this.stateData = reduceAgentState(this.stateData, event);
    const hook = this.onStateEvent;
    if (hook) this.callHook("onStateEvent", () => hook(event, this.stateData));
  }

  private drainQueue(queue: PendingQueue): AgentMessage[] {
    const drained = queue.drain();
    if (drained.length > 0) this.reportQueues("drain");
    return drained;
  }

  private reportQueues(reason: QueueChange["reason"]): void {
    const hook = this.onQueueChange;
    if (!hook) return;
    this.callHook("onQueueChange", () =>
      hook({ reason, steering: this.steeringQueue.snapshot(), followUp: this.followUpQueue.snapshot() }),
    );
  }

  /** Our hooks must not throw; if one does, the first failure is logged and the run carries on regardless. */
  private callHook(name: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      if (this.silencedHooks.has(name)) return;
      this.silencedHooks.add(name);
      console.error(`Agent: ${name} threw (its contract is to never throw); further failures are not logged.`, error);
    }
  }
}

function toPromptMessages(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): AgentMessage[] {
  if (Array.isArray(input)) return input;
  if (typeof input !== "string") return [input];
  const content: (TextContent | ImageContent)[] = [{ type: "text", text: input }];
  if (images && images.length > 0) content.push(...images);
  return [{ role: "user", content, timestamp: Date.now() }];
}
