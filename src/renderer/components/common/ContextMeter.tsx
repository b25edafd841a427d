import { memo, useRef, useState } from "react";
import { usePopoverDismiss } from "./use-popover-dismiss";
import { errorText } from "../../../shared/error-text";
import { shortTokens, type ContextFigures } from "./context-meter-figures";
import { formatCost, formatTokens } from "../messages/chatItems";
import type { UsageTotals } from "../../../shared/agent/usage";

interface ContextMeterProps {
  figures: ContextFigures;
  /** What the chat's replies have used so far (tokens and cost), said in the panel and the button's tooltip. */
  usage: UsageTotals;
  /** A run is active: "Compact now" waits for it (the worker refuses meanwhile). */
  running: boolean;
  /** Nothing can be sent (disconnected, no model): nor compacted. */
  blocked?: string;
  onCompact(): Promise<void>;
}

/**
 * The chat header's context meter: tokens in context against the model's window ("12.3k / 128k"), coloured as the
 * context nears the point where older messages are summarised. Fixed width, so the header never shifts as it
 * counts. A click opens the figures, what the chat has used so far (tokens, cost), and "Compact now". The chat's
 * usage lives here, not beside the meter, so the header leaves the chat's title room.
 */
export const ContextMeter = memo(function ContextMeter({ figures, usage, running, blocked, onCompact }: ContextMeterProps) {
  const [open, setOpen] = useState(false);
  const [compacting, setCompacting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const area = useRef<HTMLDivElement>(null);
  const onPanelKey = usePopoverDismiss(open, area, () => setOpen(false));

  const { tokens, contextWindow, threshold, level } = figures;
  const share = contextWindow > 0 ? Math.min(1, tokens / contextWindow) : 0;
  const label = contextWindow > 0 ? `${shortTokens(tokens)} / ${shortTokens(contextWindow)}` : `${shortTokens(tokens)} tokens`;
  const percent = contextWindow > 0 ? ` (${Math.round(share * 100)}%)` : "";
  const used = usage.totalTokens > 0
    ? `This chat so far: ${formatTokens(usage.totalTokens)} tokens (${usage.input.toLocaleString("en-US")} in, ${usage.output.toLocaleString("en-US")} out${usage.reasoning > 0 ? `, ${usage.reasoning.toLocaleString("en-US")} of them thinking` : ""}) · ${usage.cost > 0 ? formatCost(usage.cost) : "cost unknown"}${usage.cost > 0 && usage.billedCost === usage.cost ? " billed" : ""}`
    : undefined;
  const cannot = blocked ?? (running ? "Wait for the reply to finish, or stop it." : undefined);

  const compact = () => {
    setFailure(null);
    setCompacting(true);
    onCompact()
      .then(() => setOpen(false), (e: unknown) => setFailure(errorText(e)))
      .finally(() => setCompacting(false));
  };

  return (
    <div className="context-meter" ref={area}>
      <button type="button" className={`context-meter-button context-${level}`} data-testid="context-meter" data-level={level}
        aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen((o) => !o)}
        aria-label={`Context: ${tokens.toLocaleString("en-US")} tokens${contextWindow > 0 ? ` of ${contextWindow.toLocaleString("en-US")}` : ""}`}
        title={`Context: about ${tokens.toLocaleString("en-US")} tokens${contextWindow > 0 ? ` of the model's ${contextWindow.toLocaleString("en-US")}` : ""}${used ? `\n${used}` : ""}`}>
        <span className="context-bar" aria-hidden="true"><span style={{ width: `${share * 100}%` }} /></span>
        <span className="context-figures">{compacting ? "Compacting…" : label}</span>
      </button>
      {open ? (
        <div className="context-panel" role="dialog" aria-label="Context" onKeyDown={onPanelKey}>
          <div className="context-panel-figure" data-testid="context-figure">
            <strong>{tokens.toLocaleString("en-US")}</strong>
            {contextWindow > 0 ? ` of ${contextWindow.toLocaleString("en-US")} tokens${percent}` : " tokens (this model's window is unknown)"}
          </div>
          <p className="muted context-help">
            {figures.fromUsage ? "From the last reply's reported usage, plus an estimate for what came after." : "Estimated at about four characters a token."}
            {threshold > 0 ? ` Past ${threshold.toLocaleString("en-US")} tokens the older messages are summarised automatically, so the chat never overflows.` : ""}
          </p>
          {used ? <div className="context-panel-usage" data-testid="session-usage">{used}</div> : null}
          <button type="button" className="btn btn-primary" onClick={compact} disabled={compacting || cannot !== undefined}
            title={cannot} data-testid="compact-now">
            {compacting ? "Summarising earlier messages…" : "Compact now"}
          </button>
          {cannot && !compacting ? <div className="muted context-help">{cannot}</div> : null}
          <p className="muted context-help">Compacting summarises the older messages for the model. Every message stays in this chat.</p>
          {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
        </div>
      ) : null}
    </div>
  );
});
