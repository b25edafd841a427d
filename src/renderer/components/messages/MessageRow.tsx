import { memo, useState } from "react";
import type { ToolResultMessage, UserMessage } from "@earendil-works/pi-ai";
import type { ToolRun } from "../../../shared/agent/tool-runs";
import { AssistantMessageView } from "./AssistantMessageView";
import type { ChatItem } from "./chatItems";
import { contentText } from "../../../shared/agent/content-text";
import { CompactionMarker } from "./CompactionMarker";
import { attachmentsOf } from "../../../shared/protocol/attachments";
import { MessageAttachments } from "../attachments/AttachmentViews";
import { MessageActionBar } from "./MessageActionBar";
import { MessageEditor } from "./MessageEditor";
import { CollapsibleUserText } from "./CollapsibleUserText";
import { filesRestoredText } from "../changes/chat-changes";
import { profileMarkerText } from "../../../shared/agent/profile-marker";

interface MessageRowProps {
  item: ChatItem;
  toolRuns: Readonly<Record<string, ToolRun>>;
  toolResults: ReadonlyMap<string, ToolResultMessage>;
}

/** One row of the list; `data-testid="message-<role>"` is what e2e tests count and read. */
export const MessageRow = memo(function MessageRow({ item, toolRuns, toolResults }: MessageRowProps) {
  switch (item.kind) {
    case "user":
      return <UserRow message={item.message} index={item.index} />;
    case "assistant": {
      const index = item.streaming ? undefined : item.index;
      return (
        <div className="row row-assistant" data-testid="message-assistant" data-streaming={item.streaming || undefined}>
          <div className="avatar" aria-hidden="true">P</div>
          <AssistantMessageView message={item.message} streaming={item.streaming} toolRuns={toolRuns} toolResults={toolResults}
            actions={index !== undefined ? <MessageActionBar index={index} message={item.message} /> : null} />
        </div>
      );
    }
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
      // pi-ai 1.6.0's system message (an imported chat, pi's own transcripts): instructions given at this point. The
      // chat shows them; the model gets the chat's system prompt, as with pi-agent-core 0.73.1, not these.
      if (item.message.role === "system") {
        const { content } = item.message;
        return (
          <div className="row row-note" data-testid="message-system">
            <span className="badge badge-muted">Instructions</span>{" "}
            {typeof content === "string" ? content : content.map((block) => block.text).join("\n")}
          </div>
        );
      }
      if (item.message.role === "filesRestored") {
        return (
          <div className="row row-note row-files-restored" data-testid="message-filesRestored" title={item.message.paths.join("\n")}>
            <span className="badge badge-muted">Files</span> {filesRestoredText(item.message)}
          </div>
        );
      }
      if (item.message.role === "permissionProfile") {
        return (
          <div className="row row-note row-profile" data-testid="message-permissionProfile">
            <span className="badge badge-muted">Permissions</span> {profileMarkerText(item.message)}
          </div>
        );
      }
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

/** A message of the user's, with its actions; Edit turns the bubble into an editor. */
function UserRow({ message, index }: { message: UserMessage; index: number | undefined }) {
  const [editing, setEditing] = useState(false);
  const text = userText(message);
  return (
    <div className="row row-user" data-testid="message-user">
      {editing && index !== undefined ? (
        <MessageEditor index={index} initialText={text} onClose={() => setEditing(false)} />
      ) : (
        <div className="user-message">
          <div className="user-bubble">
            <MessageAttachments refs={attachmentsOf(message)} />
            {text ? <CollapsibleUserText message={message} text={text} /> : null}
          </div>
          {index !== undefined ? <MessageActionBar index={index} message={message} onEdit={() => setEditing(true)} /> : null}
        </div>
      )}
    </div>
  );
}

function userText(message: UserMessage): string {
  return contentText(message.content, "\n", () => "[image]");
}
