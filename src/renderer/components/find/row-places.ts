import type { AgentMessage } from "../../../shared/agent/types";
import { messageRowKey } from "../messages/chatItems";

/**
 * Where the text of message number `index` is on screen: its own row, or for a tool's result whose call a reply made,
 * that reply's row and the call's card (`part`: the call's id, see RowReveal).
 */
export function rowPlaces(messages: readonly AgentMessage[], firstIndex: number): (index: number) => { key: string; part?: string } {
  const replyOfCall = new Map<string, number>();
  messages.forEach((message, i) => {
    if (message.role !== "assistant" || !Array.isArray(message.content)) return;
    for (const block of message.content) if (block.type === "toolCall") replyOfCall.set(block.id, firstIndex + i);
  });
  return (index) => {
    const message = messages[index - firstIndex];
    const reply = message?.role === "toolResult" ? replyOfCall.get(message.toolCallId) : undefined;
    return reply === undefined || message?.role !== "toolResult" ? { key: messageRowKey(index) } : { key: messageRowKey(reply), part: message.toolCallId };
  };
}
