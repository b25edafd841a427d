import { memo } from "react";
import type { AgentMessage } from "../../../shared/agent/types";
import type { HeldMessage } from "../../../shared/protocol/held-messages";
import { contentText } from "../../../shared/agent/content-text";
import { attachmentsOf } from "../../../shared/protocol/attachments";

interface QueueStripProps {
  steering: readonly AgentMessage[];
  followUp: readonly AgentMessage[];
  /** Messages a Stop (or a failed run) left queued: they wait for the user. */
  held?: readonly HeldMessage[];
  onRemove(queue: "steering" | "followUp", index: number): void;
  onSendHeld?(index: number): void;
  onDiscardHeld?(index: number): void;
}

/**
 * The messages waiting to go to the agent: first those held after a Stop, each with "Send now" and "Discard" (they
 * go nowhere by themselves), then steering (delivered at the next turn), then follow-ups.
 */
export const QueueStrip = memo(function QueueStrip({ steering, followUp, held = [], onRemove, onSendHeld, onDiscardHeld }: QueueStripProps) {
  if (steering.length === 0 && followUp.length === 0 && held.length === 0) return null;
  const entries = [
    ...steering.map((m, i) => ({ queue: "steering" as const, index: i, text: messageText(m) })),
    ...followUp.map((m, i) => ({ queue: "followUp" as const, index: i, text: messageText(m) })),
  ];
  return (
    <div className="queue-strip" data-testid="queue-strip" role="list" aria-label="Queued messages">
      {held.map((h, index) => {
        const text = messageText(h.message);
        return (
          <div key={`held-${index}`} className="queue-item queue-held" role="listitem" data-testid="queued-held">
            <span className="queue-kind" title="Queued before the run stopped: it waits until you send or discard it">Not sent</span>
            <span className="queue-text" dir="auto" title={text}>{text}</span>
            <button type="button" className="btn btn-secondary btn-compact" onClick={() => onSendHeld?.(index)}
              aria-label={`Send now: ${text}`} data-testid="held-send">Send now</button>
            <button type="button" className="btn btn-secondary btn-compact" onClick={() => onDiscardHeld?.(index)}
              aria-label={`Discard: ${text}`} data-testid="held-discard">Discard</button>
          </div>
        );
      })}
      {entries.map((e) => (
        <div key={`${e.queue}-${e.index}`} className={`queue-item queue-${e.queue}`} role="listitem"
          data-testid={`queued-${e.queue}`}>
          <span className="queue-kind">{e.queue === "steering" ? "Steer" : "Follow-up"}</span>
          <span className="queue-text" dir="auto" title={e.text}>{e.text}</span>
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
