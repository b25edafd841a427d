import { memo } from "react";
import type { ToolResultMessage, UserMessage } from "@mariozechner/pi-ai";
import type { ToolRun } from "../../../shared/agent/tool-runs";
import { AssistantMessageView } from "./AssistantMessageView";
import type { ChatItem } from "./chatItems";
import { contentText } from "../../../shared/agent/content-text";
import { CompactionMarker } from "./CompactionMarker";
import { attachmentsOf } from "../../../shared/protocol/attachments";
import { MessageAttachments } from "../attachments/AttachmentViews";

interface MessageRowProps {
  item: ChatItem;
  toolRuns: Readonly<Record<string, ToolRun>>;
  toolResults: ReadonlyMap<string, ToolResultMessage>;
}

/** One row of the list; `data-testid="message-<role>"` is what e2e tests count and read. */
export const MessageRow = memo(function MessageRow({ item, toolRuns, toolResults }: MessageRowProps) {
  switch (item.kind) {
    case "user":
      return (
        <div className="row row-user" data-testid="message-user">
          <div className="user-bubble">
            <MessageAttachments refs={attachmentsOf(item.message)} />
            {userText(item.message)}
          </div>
        </div>
      );
    case "assistant":
      return (
        <div className="row row-assistant" data-testid="message-assistant" data-streaming={item.streaming || undefined}>
          <div className="avatar" aria-hidden="true">P</div>
          <AssistantMessageView message={item.message} streaming={item.streaming} toolRuns={toolRuns} toolResults={toolResults} />
        </div>
      );
    case "history":
      return (
        <div className="row row-history" role="status">
          Loading {item.count.toLocaleString()} earlier {item.count === 1 ? "message" : "messages"}…
        </div>
      );
    case "toolResult":
      return (
        <div className="row row-note" data-testid="message-toolResult">
          <span className={item.message.isError ? "badge badge-error" : "badge badge-muted"}>{item.message.toolName}</span>{" "}
          {contentText(item.message.content, "\n", () => "[image]")}
        </div>
      );
    default:
      if (item.message.role === "compaction") {
        return (
          <div className="row row-compaction">
            <CompactionMarker marker={item.message} />
          </div>
        );
      }
      return (
        <div className="row row-note" data-testid={`message-${String(item.message.role)}`}>
          {String(item.message.role)}
        </div>
      );
  }
});

function userText(message: UserMessage): string {
  return contentText(message.content, "\n", () => "[image]");
}
