/**
 * The stateless loop: it owns nothing but a private copy of the context, reports everything as events and returns
 * the messages the run added. AgentMessages are converted to pi-ai messages only at the model-call boundary.
 */
import { EventStream, type ToolResultMessage } from "@earendil-works/pi-ai";
import type {
  AgentContext,
  AgentEvent,
  AgentLoopConfig,
  AgentMessage,
  StreamFn,
} from "../../shared/agent/types";
import { type AgentEventSink, streamAssistantResponse } from "./assistant-response";
import { executeToolBatch } from "./tool-execution";

export type { AgentEventSink } from "./assistant-response";

/**
 * Starts a run with new prompt messages and returns its events as a stream whose result is the new messages.
 * The stream ends with `agent_end`. Hooks must keep their no-throw contracts: a throw leaves the stream open.
 */
export function agentLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
  const stream = createEventStream();
  void runAgentLoop(prompts, context, config, (event) => stream.push(event), signal, streamFn).then((messages) =>
    stream.end(messages),
  );
  return stream;
}

/**
 * Continues from the context as it is (a retry, or after tool results), without adding a message.
 * Throws at once when the context is empty or ends with an assistant message. The last message must convert to
 * a user or toolResult message, which cannot be checked before `convertToLlm` runs.
 */
export function agentLoopContinue(
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
  assertContinuable(context);
  const stream = createEventStream();
  void runAgentLoopContinue(context, config, (event) => stream.push(event), signal, streamFn).then((messages) =>
    stream.end(messages),
  );
  return stream;
}

/** Every run opens with these two events; the first turn's own turn_start is this one. */
async function emitRunStart(emit: AgentEventSink): Promise<void> {
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
}

/**
 * Runs a prompt to the end, awaiting `emit` for every event. The prompts are reported inside the first turn.
 * Resolves with the prompts plus every message the run produced.
 */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  emit: AgentEventSink,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): Promise<AgentMessage[]> {
  const newMessages = [...prompts];
  const loopContext: AgentContext = { ...context, messages: [...context.messages, ...prompts] };
  await emitRunStart(emit);
  for (const prompt of prompts) {
    await emit({ type: "message_start", message: prompt });
    await emit({ type: "message_end", message: prompt });
  }
  await runTurns(loopContext, newMessages, config, signal, emit, streamFn);
  return newMessages;
}

/** Like `runAgentLoop` without new messages; rejects when the context cannot be continued (see agentLoopContinue). */
export async function runAgentLoopContinue(
  context: AgentContext,
  config: AgentLoopConfig,
  emit: AgentEventSink,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): Promise<AgentMessage[]> {
  assertContinuable(context);
  const newMessages: AgentMessage[] = [];
  // The messages array is shared with the caller's context on purpose (pi does the same): the Agent hands in a copy.
  const loopContext: AgentContext = { ...context };
  await emitRunStart(emit);
  await runTurns(loopContext, newMessages, config, signal, emit, streamFn);
  return newMessages;
}

function assertContinuable(context: AgentContext): void {
  if (context.messages.length === 0) {
    throw new Error("Cannot continue: no messages in context");
  }
  if (context.messages[context.messages.length - 1].role === "assistant") {
    throw new Error("Cannot continue from message role: assistant");
  }
}

function createEventStream(): EventStream<AgentEvent, AgentMessage[]> {
  return new EventStream<AgentEvent, AgentMessage[]>(
    (event) => event.type === "agent_end",
    (event) => (event.type === "agent_end" ? event.messages : []),
  );
}

/**
 * Turns until the model stops asking for tools and both queues are empty, or a turn fails, or a tool batch
 * terminates, or `shouldStopAfterTurn` says stop. The first turn's `turn_start` was already emitted by the caller.
 * Emits `agent_end` exactly once, last.
 */
async function runTurns(
  context: AgentContext,
  newMessages: AgentMessage[],
  initialConfig: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: AgentEventSink,
  streamFn: StreamFn | undefined,
): Promise<void> {
  let config = initialConfig;
  let loopContext = context;
  let firstTurn = true;
  // Messages typed while the run was being set up count as steering for the first request.
  let injected = (await config.getSteeringMessages?.()) || [];

  for (;;) {
    let wantsTools = true;
    while (wantsTools || injected.length > 0) {
      if (firstTurn) firstTurn = false;
      else await emit({ type: "turn_start" });

      for (const message of injected) {
        await emit({ type: "message_start", message });
        await emit({ type: "message_end", message });
        loopContext.messages.push(message);
        newMessages.push(message);
      }

      const message = await streamAssistantResponse(loopContext, config, signal, emit, streamFn);
      newMessages.push(message);
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        await emit({ type: "turn_end", message, toolResults: [] });
        await emit({ type: "agent_end", messages: newMessages });
        return;
      }

      const toolResults: ToolResultMessage[] = [];
      wantsTools = false;
      if (message.content.some((block) => block.type === "toolCall")) {
        const batch = await executeToolBatch(loopContext, message, config, signal, emit);
        toolResults.push(...batch.messages);
        wantsTools = !batch.terminate;
        for (const result of toolResults) {
          loopContext.messages.push(result);
          newMessages.push(result);
        }
      }
      await emit({ type: "turn_end", message, toolResults });

      const turn = { message, toolResults, context: loopContext, newMessages };
      if (await config.shouldStopAfterTurn?.(turn)) {
        await emit({ type: "agent_end", messages: newMessages });
        return;
      }
      if (config.prepareNextTurn) {
        ({ config, context: loopContext } = applyNextTurnUpdate(config, loopContext, await config.prepareNextTurn(turn)));
      }
      injected = (await config.getSteeringMessages?.()) || [];
    }

    // The agent would stop here; follow-ups, if any, start another turn.
    injected = (await config.getFollowUpMessages?.()) || [];
    if (injected.length === 0) break;
  }
  await emit({ type: "agent_end", messages: newMessages });
}

/** Folds what `prepareNextTurn` returned into the config and context used from the next request on. */
function applyNextTurnUpdate(
  config: AgentLoopConfig,
  context: AgentContext,
  update: Awaited<ReturnType<NonNullable<AgentLoopConfig["prepareNextTurn"]>>>,
): { config: AgentLoopConfig; context: AgentContext } {
  if (!update) return { config, context };
  const next: AgentLoopConfig = { ...config };
  if (update.model) next.model = update.model;
  if ("reasoning" in update) next.reasoning = update.reasoning;
  // The loop appends to its context; a replacement gets its own messages array so the hook's copy stays untouched.
  const nextContext = update.context ? { ...update.context, messages: [...update.context.messages] } : context;
  return { config: next, context: nextContext };
}
