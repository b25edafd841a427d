import { type AssistantMessage, type Context } from "@earendil-works/pi-ai";
import { streamSimple } from "./stream-simple";
import type { AgentContext, AgentEvent, AgentLoopConfig, StreamFn } from "../../shared/agent/types";

/** Where the loop sends its events; awaited, so a slow listener holds the loop back. */
export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;

/**
 * One model request: transformContext, then convertToLlm, then getApiKey, then the stream. The partial message
 * lives in `context.messages` while it streams (hooks that look at the context see it) and is replaced there by the
 * final message, which is returned. Emits message_start, message_update per content event, message_end.
 *
 * message_start/message_update carry a shallow copy of the partial, message_end the final message itself.
 * Throws only when a hook or the stream function breaks its no-throw contract.
 */
export async function streamAssistantResponse(
  context: AgentContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: AgentEventSink,
  streamFn: StreamFn | undefined,
): Promise<AssistantMessage> {
  const visible = config.transformContext ? await config.transformContext(context.messages, signal) : context.messages;
  const llmContext: Context = {
    systemPrompt: context.systemPrompt,
    messages: await config.convertToLlm(visible),
    tools: context.tools,
  };
  // Asked per request: OAuth tokens may expire during a long tool phase.
  const apiKey = (config.getApiKey ? await config.getApiKey(config.model.provider) : undefined) || config.apiKey;
  const response = await (streamFn ?? streamSimple)(config.model, llmContext, { ...config, apiKey, signal });

  let streamedPartial = false;
  for await (const event of response) {
    if (event.type === "start") {
      context.messages.push(event.partial);
      streamedPartial = true;
      await emit({ type: "message_start", message: { ...event.partial } });
    } else if (event.type === "done" || event.type === "error") {
      break;
    } else if (streamedPartial) {
      context.messages[context.messages.length - 1] = event.partial;
      await emit({ type: "message_update", assistantMessageEvent: event, message: { ...event.partial } });
    }
  }

  const finalMessage = await response.result();
  if (streamedPartial) {
    context.messages[context.messages.length - 1] = finalMessage;
  } else {
    context.messages.push(finalMessage);
    await emit({ type: "message_start", message: { ...finalMessage } });
  }
  await emit({ type: "message_end", message: finalMessage });
  return finalMessage;
}
