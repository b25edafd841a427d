import { type AssistantMessage, type ToolResultMessage } from "@earendil-works/pi-ai";
import { validateToolArguments } from "./tool-validation";
import type {
  AgentContext,
  AgentLoopConfig,
  AgentTool,
  AgentToolCall,
  AgentToolResult,
} from "../../shared/agent/types";
import type { AgentEventSink } from "./assistant-response";
import { errorText } from "../../shared/error-text";

/** The outcome of one call once every hook has had its say. */
interface SettledCall {
  toolCall: AgentToolCall;
  result: AgentToolResult<any>;
  isError: boolean;
}

/** A call that passed lookup, validation and `beforeToolCall`, ready to run. */
interface ReadyCall {
  toolCall: AgentToolCall;
  tool: AgentTool<any>;
  args: unknown;
}

export interface ToolBatchOutcome {
  /** One toolResult message per call, in the assistant's order. */
  messages: ToolResultMessage[];
  /** True when every result of the batch asked to end the run. */
  terminate: boolean;
}

/**
 * Runs the tool calls of one assistant message. Every call yields exactly one `tool_execution_start`, one
 * `tool_execution_end` and one toolResult message; an unknown tool, invalid arguments, a block by `beforeToolCall`,
 * a throwing tool or a throwing `afterToolCall` become error results, never exceptions.
 *
 * The batch runs sequentially when the config asks for it or when any called tool is marked "sequential".
 *
 * This is pi-agent-core 0.73.1's tool execution (agent-loop.js executeToolCalls and what it calls), step for step:
 * a block's result has `details: {}`, a thrown error's too, and a returned result counts as a success whatever it
 * carries; `afterToolCall` is the one way to change an executed call's result. Paddock's extras (a parked question,
 * a denial's or a failure's details, pi 1.6.0's `isError` result) live session-side, in the tool wrapper and
 * `afterToolCall` of agent-worker/host/session/tool-call-guard.ts. differential.test.ts runs both on the same model.
 */
export async function executeToolBatch(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: AgentEventSink,
): Promise<ToolBatchOutcome> {
  const toolCalls = assistantMessage.content.filter((block): block is AgentToolCall => block.type === "toolCall");
  const forcesSequential = toolCalls.some((call) => findTool(context, call.name)?.executionMode === "sequential");
  const run = config.toolExecution === "sequential" || forcesSequential ? runSequentially : runConcurrently;
  return run(toolCalls, context, assistantMessage, config, signal, emit);
}

type BatchRunner = (
  toolCalls: AgentToolCall[],
  context: AgentContext,
  assistantMessage: AssistantMessage,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: AgentEventSink,
) => Promise<ToolBatchOutcome>;

/** Each call is prepared, run, finalized and reported (end event and result message) before the next starts. */
const runSequentially: BatchRunner = async (toolCalls, context, assistantMessage, config, signal, emit) => {
  const settled: SettledCall[] = [];
  const messages: ToolResultMessage[] = [];
  for (const toolCall of toolCalls) {
    await emitStart(toolCall, emit);
    const prepared = await prepareCall(context, assistantMessage, toolCall, config, signal);
    const outcome =
      "ready" in prepared
        ? await finalizeCall(context, assistantMessage, prepared.ready, await runTool(prepared.ready, signal, emit), config, signal)
        : prepared.settled;
    await emitEnd(outcome, emit);
    const message = toResultMessage(outcome);
    await emitResultMessage(message, emit);
    settled.push(outcome);
    messages.push(message);
  }
  return { messages, terminate: allAskToTerminate(settled) };
};

/**
 * Preparation (start event, validation, `beforeToolCall`) happens in the assistant's order; calls that may run then
 * run together and report `tool_execution_end` as they finish; the result messages follow in the assistant's order.
 */
const runConcurrently: BatchRunner = async (toolCalls, context, assistantMessage, config, signal, emit) => {
  const pending: (SettledCall | (() => Promise<SettledCall>))[] = [];
  for (const toolCall of toolCalls) {
    await emitStart(toolCall, emit);
    const prepared = await prepareCall(context, assistantMessage, toolCall, config, signal);
    if ("settled" in prepared) {
      await emitEnd(prepared.settled, emit);
      pending.push(prepared.settled);
      continue;
    }
    pending.push(async () => {
      const executed = await runTool(prepared.ready, signal, emit);
      const outcome = await finalizeCall(context, assistantMessage, prepared.ready, executed, config, signal);
      await emitEnd(outcome, emit);
      return outcome;
    });
  }
  // Nothing starts before every call is prepared: a block decision never races a running sibling.
  const settled = await Promise.all(pending.map((entry) => (typeof entry === "function" ? entry() : entry)));
  const messages: ToolResultMessage[] = [];
  for (const outcome of settled) {
    const message = toResultMessage(outcome);
    await emitResultMessage(message, emit);
    messages.push(message);
  }
  return { messages, terminate: allAskToTerminate(settled) };
};

function findTool(context: AgentContext, name: string): AgentTool<any> | undefined {
  return context.tools?.find((tool) => tool.name === name);
}

function allAskToTerminate(settled: SettledCall[]): boolean {
  return settled.length > 0 && settled.every((call) => call.result.terminate === true);
}

/** Lookup, `prepareArguments`, validation and `beforeToolCall`; anything that fails settles the call as an error. */
async function prepareCall(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  toolCall: AgentToolCall,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
): Promise<Prepared> {
  const tool = findTool(context, toolCall.name);
  if (!tool) return { settled: errorOutcome(toolCall, `Tool ${toolCall.name} not found`) };
  try {
    const args = validateToolArguments(tool, withPreparedArguments(tool, toolCall));
    if (config.beforeToolCall) {
      const decision = await config.beforeToolCall({ assistantMessage, toolCall, args, context }, signal);
      if (decision?.block) return { settled: errorOutcome(toolCall, decision.reason || "Tool execution was blocked") };
    }
    return { ready: { toolCall, tool, args } };
  } catch (error) {
    return { settled: errorOutcome(toolCall, errorText(error)) };
  }
}

/** A prepared call: ready to run, or settled (not found, invalid, blocked). */
type Prepared = { ready: ReadyCall } | { settled: SettledCall };

function withPreparedArguments(tool: AgentTool<any>, toolCall: AgentToolCall): AgentToolCall {
  if (!tool.prepareArguments) return toolCall;
  const prepared = tool.prepareArguments(toolCall.arguments) as AgentToolCall["arguments"];
  return prepared === toolCall.arguments ? toolCall : { ...toolCall, arguments: prepared };
}

/**
 * Runs the tool. Progress reports become `tool_execution_update` events at once; they are all awaited before the
 * call counts as executed, so no update can arrive after its `tool_execution_end`.
 */
async function runTool(
  call: ReadyCall,
  signal: AbortSignal | undefined,
  emit: AgentEventSink,
): Promise<{ result: AgentToolResult<any>; isError: boolean }> {
  const updates: Promise<void>[] = [];
  const onUpdate = (partialResult: AgentToolResult<any>): void => {
    updates.push(
      Promise.resolve(
        emit({
          type: "tool_execution_update",
          toolCallId: call.toolCall.id,
          toolName: call.toolCall.name,
          args: call.toolCall.arguments,
          partialResult,
        }),
      ),
    );
  };
  try {
    const result = await call.tool.execute(call.toolCall.id, call.args, signal, onUpdate);
    await Promise.all(updates);
    return { result, isError: false };
  } catch (error) {
    await Promise.all(updates);
    return { result: errorResult(errorText(error)), isError: true };
  }
}

/** Applies `afterToolCall` field by field; a throwing hook turns the call into an error result. */
async function finalizeCall(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  call: ReadyCall,
  executed: { result: AgentToolResult<any>; isError: boolean },
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
): Promise<SettledCall> {
  let { result, isError } = executed;
  if (config.afterToolCall) {
    try {
      const override = await config.afterToolCall(
        { assistantMessage, toolCall: call.toolCall, args: call.args, result, isError, context },
        signal,
      );
      if (override) {
        result = {
          content: override.content ?? result.content,
          details: override.details ?? result.details,
          terminate: override.terminate ?? result.terminate,
        };
        isError = override.isError ?? isError;
      }
    } catch (error) {
      result = errorResult(errorText(error));
      isError = true;
    }
  }
  return { toolCall: call.toolCall, result, isError };
}

function errorResult(text: string): AgentToolResult<any> {
  return { content: [{ type: "text", text }], details: {} };
}

function errorOutcome(toolCall: AgentToolCall, text: string): SettledCall {
  return { toolCall, result: errorResult(text), isError: true };
}

function toResultMessage(call: SettledCall): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.toolCall.id,
    toolName: call.toolCall.name,
    content: call.result.content,
    details: call.result.details,
    isError: call.isError,
    timestamp: Date.now(),
  };
}

async function emitStart(toolCall: AgentToolCall, emit: AgentEventSink): Promise<void> {
  await emit({ type: "tool_execution_start", toolCallId: toolCall.id, toolName: toolCall.name, args: toolCall.arguments });
}

async function emitEnd(call: SettledCall, emit: AgentEventSink): Promise<void> {
  await emit({
    type: "tool_execution_end",
    toolCallId: call.toolCall.id,
    toolName: call.toolCall.name,
    result: call.result,
    isError: call.isError,
  });
}

async function emitResultMessage(message: ToolResultMessage, emit: AgentEventSink): Promise<void> {
  await emit({ type: "message_start", message });
  await emit({ type: "message_end", message });
}
