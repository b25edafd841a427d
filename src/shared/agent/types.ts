/**
 * The Agent's public types. Shapes and names match `@mariozechner/pi-agent-core` 0.73 so code written against pi
 * compiles against ours with only the import path changed. Type-only imports: this file is loaded by the worker,
 * the renderer and tests alike.
 */
import type {
  Api,
  AssistantMessage,
  AssistantMessageEvent,
  AssistantMessageEventStream,
  Context,
  ImageContent,
  Message,
  Model,
  SimpleStreamOptions,
  TextContent,
  Tool,
  ToolResultMessage,
} from "@earendil-works/pi-ai";
import type { Static, TSchema } from "typebox";

/**
 * The function the loop calls to talk to a model (pi-ai's `streamSimple` by default).
 *
 * Contract: never throws and never rejects for request, model or runtime failures. Failures travel inside the
 * returned stream as protocol events ending in an AssistantMessage whose stopReason is "error" or "aborted".
 */
export type StreamFn = (
  model: Model<Api>,
  context: Context,
  options?: SimpleStreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

/**
 * How the tool calls of one assistant message run.
 * - "sequential": prepare, run and finalize each call before starting the next.
 * - "parallel": prepare every call in order, then run the allowed ones concurrently; `tool_execution_end` comes in
 *   completion order, the toolResult messages afterwards in the assistant's order.
 */
export type ToolExecutionMode = "sequential" | "parallel";

/** One tool-call block of an assistant message. */
export type AgentToolCall = Extract<AssistantMessage["content"][number], { type: "toolCall" }>;

/**
 * What `beforeToolCall` may answer: `block: true` turns the call into an error result carrying `reason` (its
 * `details` are `{}`, as pi's).
 */
export interface BeforeToolCallResult {
  block?: boolean;
  reason?: string;
}

/**
 * What `afterToolCall` may override. Each field present replaces the executed result's field as a whole (no deep
 * merge); absent fields keep the executed values.
 */
export interface AfterToolCallResult {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
  /** Ask to end the run after this batch; honoured only when every result of the batch asks. */
  terminate?: boolean;
}

export interface BeforeToolCallContext {
  /** The assistant message that asked for the call. */
  assistantMessage: AssistantMessage;
  /** The call block exactly as the assistant produced it. */
  toolCall: AgentToolCall;
  /** Arguments after `prepareArguments` and schema validation. */
  args: unknown;
  /** The loop's context at preparation time. */
  context: AgentContext;
}

export interface AfterToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: AgentToolCall;
  args: unknown;
  /** The executed result, before any override. */
  result: AgentToolResult<any>;
  /** Whether the executed result currently counts as an error. */
  isError: boolean;
  context: AgentContext;
}

export interface ShouldStopAfterTurnContext {
  /** The assistant message that closed the turn. */
  message: AssistantMessage;
  /** The tool results that `turn_end` carried. */
  toolResults: ToolResultMessage[];
  /** The loop's context, with this turn's assistant message and tool results already appended. */
  context: AgentContext;
  /** What the loop would return if it stopped now (prompt runs include the prompts; continuations do not). */
  newMessages: AgentMessage[];
}

/** Input of `prepareNextTurn` (our addition, pi 0.66's hook): the same view as `shouldStopAfterTurn` gets. */
export type PrepareNextTurnContext = ShouldStopAfterTurnContext;

/** Reasoning levels a model request can carry ("off" is expressed by leaving reasoning undefined). */
export type ReasoningLevel = Exclude<ThinkingLevel, "off">;

/**
 * What `prepareNextTurn` may replace for the following turns. A field that is absent keeps its value; `reasoning`
 * counts as present when the key exists, so `{ reasoning: undefined }` switches reasoning off.
 */
export interface NextTurnUpdate {
  model?: Model<any>;
  reasoning?: ReasoningLevel | undefined;
  context?: AgentContext;
}

export interface AgentLoopConfig extends SimpleStreamOptions {
  model: Model<any>;
  /**
   * Turns the transcript into what the model understands, before every model call. Messages the model must not
   * see (UI notes, say) are dropped here.
   *
   * Contract: must not throw or reject; return a safe fallback instead. A throw ends the low-level loop without a
   * normal event sequence (the Agent's safety net then closes the run).
   */
  convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /**
   * Runs before `convertToLlm` on every call, at the AgentMessage level (pruning, injecting context).
   *
   * Contract: must not throw or reject; return the messages unchanged as a fallback.
   */
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  /**
   * Asked for the provider's key before every model call, so short-lived tokens stay fresh across long tool runs.
   *
   * Contract: must not throw or reject; answer undefined when there is no key.
   */
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  /**
   * Asked after each turn, once `turn_end` has been emitted. True ends the run (`agent_end`) before the queues are
   * polled and before any further model call.
   *
   * Contract: must not throw or reject.
   */
  shouldStopAfterTurn?: (context: ShouldStopAfterTurnContext) => boolean | Promise<boolean>;
  /**
   * Our addition (pi 0.66's hook). Asked at every turn boundary after `shouldStopAfterTurn` chose to go on, before
   * the queues are polled and before the next model request. Whatever it returns replaces the model, reasoning
   * level or context for the following turns. It is asked even when no further request follows.
   *
   * Contract: must not throw or reject; answer undefined to change nothing.
   */
  prepareNextTurn?: (context: PrepareNextTurnContext) => Promise<NextTurnUpdate | undefined>;
  /**
   * Steering messages to add before the next model call. Polled at the start of a run and after each turn.
   *
   * Contract: must not throw or reject; answer [] when there are none.
   */
  getSteeringMessages?: () => Promise<AgentMessage[]>;
  /**
   * Follow-up messages, polled only when the agent would otherwise stop; any answer starts another turn.
   *
   * Contract: must not throw or reject; answer [] when there are none.
   */
  getFollowUpMessages?: () => Promise<AgentMessage[]>;
  /** Default "parallel". */
  toolExecution?: ToolExecutionMode;
  /**
   * Asked after a call's arguments validate and before the tool runs; may block it. Receives the run's signal and
   * is responsible for honouring it.
   */
  beforeToolCall?: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
  /**
   * Asked after a tool ran, before `tool_execution_end`; may override parts of the result (see AfterToolCallResult).
   * A throw turns the call into an error result.
   */
  afterToolCall?: (context: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
}

/** How a queue drains into the run: one message per turn, or all waiting messages at once. */
export type QueueMode = "one-at-a-time" | "all";

/** Every reasoning effort, lowest first: the one list settings, the protocol and the UI offer. */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/**
 * Requested reasoning effort. "xhigh" and "max" (pi-ai 1.6.0) exist only on some model families (see pi-ai's model
 * metadata, `getSupportedThinkingLevels`); pi-agent-core 0.73.1 knows levels up to "xhigh".
 */
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/**
 * Apps add their own message kinds by declaration merging:
 * `declare module "<this module>" { interface CustomAgentMessages { note: NoteMessage } }`.
 * Every such message must have a `role`; the default `convertToLlm` drops roles the model does not know.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty here, filled by declaration merging
export interface CustomAgentMessages {}

/** A transcript entry: a pi-ai message or one of the app's custom messages. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

/**
 * The Agent's public state. `tools` and `messages` are accessors so that assigning an array stores a copy.
 * The readonly fields change only through the reducer, driven by the run.
 */
export interface AgentState {
  systemPrompt: string;
  /** The model used for the next model request. */
  model: Model<any>;
  /** The reasoning level used for the next model request. */
  thinkingLevel: ThinkingLevel;
  set tools(tools: AgentTool<any>[]);
  get tools(): AgentTool<any>[];
  set messages(messages: AgentMessage[]);
  get messages(): AgentMessage[];
  /** True from the start of a run until every `agent_end` listener has settled. */
  readonly isStreaming: boolean;
  /** The message being streamed right now, if any. */
  readonly streamingMessage?: AgentMessage;
  /** Ids of the tool calls running right now; a new Set on every change. */
  readonly pendingToolCalls: ReadonlySet<string>;
  /** The error of the latest failed or aborted turn, if any. */
  readonly errorMessage?: string;
}

/** A tool's final or partial result. */
export interface AgentToolResult<T> {
  /** What the model gets to see. */
  content: (TextContent | ImageContent)[];
  /** Structured data for logs and the UI. */
  details: T;
  /** Ask to end the run after this batch; honoured only when every result of the batch asks. */
  terminate?: boolean;
}

/** How a running tool reports progress (becomes `tool_execution_update`). */
export type AgentToolUpdateCallback<T = any> = (partialResult: AgentToolResult<T>) => void;

export interface AgentTool<TParameters extends TSchema = TSchema, TDetails = any> extends Tool<TParameters> {
  /** Name for display. */
  label: string;
  /** Repairs raw arguments before validation (legacy shapes, say). Must return arguments matching the schema. */
  prepareArguments?: (args: unknown) => Static<TParameters>;
  /** Runs the call. Failures are thrown, not encoded in `content`; the loop turns a throw into an error result. */
  execute: (
    toolCallId: string,
    params: Static<TParameters>,
    signal?: AbortSignal,
    onUpdate?: AgentToolUpdateCallback<TDetails>,
  ) => Promise<AgentToolResult<TDetails>>;
  /** "sequential" makes every batch containing this tool run sequentially. */
  executionMode?: ToolExecutionMode;
}

/** What the loop works on: its own copy, so the caller's arrays are never touched. */
export interface AgentContext {
  systemPrompt: string;
  messages: AgentMessage[];
  tools?: AgentTool<any>[];
}

/**
 * Everything a run reports, in order. `agent_end` is the last event of a run; the Agent is idle only once every
 * listener for it has settled.
 */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: any; partialResult: any }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: any; isError: boolean };
