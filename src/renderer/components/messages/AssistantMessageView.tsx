import { memo, type ReactNode } from "react";
import type { AssistantMessage, ToolResultMessage } from "@earendil-works/pi-ai";
import type { ToolRun } from "../../../shared/agent/tool-runs";
import { Markdown } from "../markdown/Markdown";
import { ThinkingBlock } from "./ThinkingBlock";
import { ToolCard } from "./ToolCard";
import { formatTokens, spentCost } from "./chatItems";
import { isInterruptedReply } from "../../../shared/agent/unfinished-reply";

interface AssistantMessageViewProps {
  message: AssistantMessage;
  streaming: boolean;
  toolRuns: Readonly<Record<string, ToolRun>>;
  toolResults: ReadonlyMap<string, ToolResultMessage>;
  /** The message's action bar (MessageActionBar), shown under the footer once the reply is done. */
  actions?: ReactNode;
}

/** An assistant reply: thinking, text and tool calls in the order the model produced them, then usage and cost. */
export const AssistantMessageView = memo(function AssistantMessageView(props: AssistantMessageViewProps) {
  const { message, streaming, toolRuns, toolResults, actions } = props;
  const lastIndex = message.content.length - 1;
  const empty = message.content.every((b) => (b.type === "text" ? !b.text : b.type === "thinking" ? !b.thinking : false));
  return (
    <div className="assistant-message">
      {message.content.map((block, i) => {
        const live = streaming && i === lastIndex;
        switch (block.type) {
          case "thinking":
            return <ThinkingBlock key={i} text={block.thinking} redacted={block.redacted} live={live} />;
          case "text":
            return <Markdown key={i} text={block.text} streaming={live} />;
          case "toolCall":
            return (
              <ToolCard key={block.id || i} call={block} run={toolRuns[block.id]} result={toolResults.get(block.id)}
                argsStreaming={live} />
            );
          default:
            return null;
        }
      })}
      {streaming && empty ? <TypingDots /> : null}
      {!streaming ? <MessageFooter message={message} /> : null}
      {!streaming ? actions : null}
    </div>
  );
});

function TypingDots() {
  return (
    <div className="typing" aria-hidden="true">
      <span /><span /><span />
    </div>
  );
}

function MessageFooter({ message }: { message: AssistantMessage }) {
  const usage = message.usage;
  return (
    <div className="message-footer">
      {message.stopReason === "aborted" ? <span className="badge badge-muted">Stopped</span> : null}
      {/* Why, when Paddock stopped it (a budget reached: "Stopped at the $2.00 budget: …", read after the badge). */}
      {message.stopReason === "aborted" && message.errorMessage ? (
        <span className="footer-stop-reason" data-testid="stop-reason" title={message.errorMessage}>{message.errorMessage.replace(/^Stopped /, "")}</span>
      ) : null}
      {message.stopReason === "length" ? <span className="badge badge-warn">Cut off (length limit)</span> : null}
      {isInterruptedReply(message) ? (
        <span className="badge badge-warn" title={message.errorMessage}>Interrupted</span>
      ) : message.stopReason === "error" ? (
        <span className="badge badge-error" title={message.errorMessage}>Error{message.errorMessage ? `: ${message.errorMessage}` : ""}</span>
      ) : null}
      <span className="footer-model">{message.model}</span>
      {usage && usage.totalTokens > 0 ? (
        <span className="footer-usage" title={`input ${usage.input} · output ${usage.output} · cache read ${usage.cacheRead} · cache write ${usage.cacheWrite}`}>
          {formatTokens(usage.input)} in · {formatTokens(usage.output)} out · {spentCost(usage.cost?.total)}
        </span>
      ) : null}
    </div>
  );
}
