import { memo } from "react";
import type { AgentMessage } from "../../../shared/agent/types";
import { contentText } from "../../../shared/agent/content-text";
import { attachmentsOf } from "../../../shared/protocol/attachments";

interface QueueStripProps {
  steering: readonly AgentMessage[];
  followUp: readonly AgentMessage[];
  onRemove(queue: "steering" | "followUp", index: number): void;
}

/** The messages waiting to go to the agent: steering first (delivered at the next turn), then follow-ups. */
export const QueueStrip = memo(function QueueStrip({ steering, followUp, onRemove }: QueueStripProps) {
  if (steering.length === 0 && followUp.length === 0) return null;
  const entries = [
    ...steering.map((m, i) => ({ queue: "steering" as const, index: i, text: messageText(m) })),
    ...followUp.map((m, i) => ({ queue: "followUp" as const, index: i, text: messageText(m) })),
  ];
  return (
    <div className="queue-strip" data-testid="queue-strip" role="list" aria-label="Queued messages">
      {entries.map((e) => (
        <div key={`${e.queue}-${e.index}`} className={`queue-item queue-${e.queue}`} role="listitem"
          data-testid={`queued-${e.queue}`}>
          <span className="queue-kind">{e.queue === "steering" ? "Steer" : "Follow-up"}</span>
          <span className="queue-text" title={e.text}>{e.text}</span>
          <button type="button" className="icon-button" onClick={() => onRemove(e.queue, e.index)}
            aria-label={`Remove queued ${e.queue === "steering" ? "steering" : "follow-up"} message: ${e.text}`}
            data-testid="queue-remove">✕</button>
        </div>
      ))}
    </div>
  );
});

function messageText(message: AgentMessage): string {
  if (message.role !== "user") return String(message.role);
  const text = contentText(message.content, " ", () => "[image]");
  const files = attachmentsOf(message).map((a) => `[${a.name}]`).join(" ");
  return files ? `${files} ${text}`.trim() : text;
}
