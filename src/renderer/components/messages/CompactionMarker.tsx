import { memo, useState } from "react";
import type { CompactionMessage } from "../../../shared/agent/compaction";
import { Markdown } from "../markdown/Markdown";
import { shortTokens } from "../common/context-meter-figures";

const WHY: Record<CompactionMessage["reason"], string> = {
  threshold: "automatically, as the context neared the model's limit",
  overflow: "after the provider said the context was too long",
  manual: "when you asked",
};

/**
 * Where older messages were summarised (a compaction marker): one collapsed line, which opens to the summary the
 * model now gets in their place. The messages themselves stay in the chat above it.
 */
export const CompactionMarker = memo(function CompactionMarker({ marker }: { marker: CompactionMessage }) {
  const [open, setOpen] = useState(false);
  const count = marker.summarisedMessages;
  return (
    <div className={`compaction${open ? " compaction-open" : ""}`} data-testid="compaction-marker">
      <button type="button" className="compaction-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="chevron" aria-hidden="true">{open ? "▾" : "▸"}</span>
        <span className="compaction-label">
          Earlier messages summarised ({count.toLocaleString("en-US")} {count === 1 ? "message" : "messages"}, ~{shortTokens(marker.summarisedTokens)} tokens)
        </span>
      </button>
      {open ? (
        <div className="compaction-body" data-testid="compaction-summary">
          <p className="compaction-meta">
            Summarised {WHY[marker.reason]}: the model now gets this summary instead of them, then the newer messages.
            Context ~{shortTokens(marker.tokensBefore)} → ~{shortTokens(marker.tokensAfter)} tokens.
          </p>
          <Markdown text={marker.summary} />
          {marker.files && marker.files.read.length + marker.files.modified.length > 0 ? (
            <p className="compaction-meta">
              {marker.files.modified.length > 0 ? <>Changed: {marker.files.modified.join(", ")}. </> : null}
              {marker.files.read.length > 0 ? <>Read: {marker.files.read.join(", ")}.</> : null}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});
