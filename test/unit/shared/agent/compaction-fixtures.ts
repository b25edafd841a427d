/** Small transcripts for the compaction tests: messages of known sizes (4 characters a token). */
import type { AssistantMessage, JsonObject, Model, ToolResultMessage, Usage, UserMessage } from "@earendil-works/pi-ai";
import { zeroUsage } from "../../../../src/shared/agent/state";
import type { CompactionMessage } from "../../../../src/shared/agent/compaction";

export const model: Model<"openai-completions"> = {
  id: "tiny",
  name: "Tiny",
  api: "openai-completions",
  provider: "fake",
  baseUrl: "http://127.0.0.1:9/v1",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 2_000,
  maxTokens: 1_000,
};

/** Text of about `tokens` tokens (4 characters each). */
export function words(tokens: number, tag = "x"): string {
  return `${tag} `.repeat(tokens * 2).slice(0, tokens * 4);
}

export function user(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp: 1 };
}

export function usage(input: number, output = 0): Usage {
  return { ...zeroUsage(), input, output, totalTokens: input + output };
}

export function reply(text: string, used?: Usage, stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage {
  return { role: "assistant", content: [{ type: "text", text }], api: model.api, provider: model.provider, model: model.id, usage: used ?? zeroUsage(), stopReason, timestamp: 2 };
}

export function call(id: string, name: string, args: JsonObject, used?: Usage): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "toolCall", id, name, arguments: args }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: used ?? zeroUsage(),
    stopReason: "toolUse",
    timestamp: 2,
  };
}

export function result(id: string, text: string, toolName = "read"): ToolResultMessage {
  return { role: "toolResult", toolCallId: id, toolName, content: [{ type: "text", text }], isError: false, timestamp: 3 };
}

export function marker(fields: Partial<CompactionMessage> & Pick<CompactionMessage, "firstKeptIndex">): CompactionMessage {
  return { role: "compaction", summary: "## Goal\nearlier work", summarisedMessages: fields.firstKeptIndex, summarisedTokens: 900, tokensBefore: 1_800, tokensAfter: 600, reason: "threshold", timestamp: 5, ...fields };
}
