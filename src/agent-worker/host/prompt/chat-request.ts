/**
 * What a chat's own options (chat-options.ts) make of its requests: the instructions it runs with and the sampling
 * parameters each model request carries.
 */
import type { Model } from "@earendil-works/pi-ai";
import type { ChatOptions } from "../../../shared/protocol/chat-options";

/**
 * The chat's instructions: its own, else Settings' default; undefined when neither says anything (a chat without a
 * workspace then has no system prompt, one with a workspace Paddock's default for working there).
 */
export function chatInstructions(options: ChatOptions, settingsDefault: string | undefined): string | undefined {
  for (const text of [options.systemPrompt, settingsDefault]) if (text !== undefined && text.trim() !== "") return text.trim();
  return undefined;
}

/**
 * The request options the chat sets for `model`: its temperature, and its limit on output tokens capped at the
 * model's own maximum (a provider refuses a request asking for more). Nothing the chat leaves to the defaults.
 */
export function requestParameters(options: ChatOptions, model: Pick<Model<any>, "maxTokens">): { temperature?: number; maxTokens?: number } {
  const out: { temperature?: number; maxTokens?: number } = {};
  if (options.temperature !== undefined) out.temperature = options.temperature;
  if (options.maxTokens !== undefined) out.maxTokens = model.maxTokens > 0 ? Math.min(options.maxTokens, model.maxTokens) : options.maxTokens;
  return out;
}
