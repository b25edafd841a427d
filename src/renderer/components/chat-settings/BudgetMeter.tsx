import { memo, useEffect, useRef, useState } from "react";
import { GaugeIcon } from "../common/icons";
import {
  BUDGET_CAP_KINDS,
  BUDGET_WARNING_SHARE,
  chatBudgetProblem,
  costText,
  normalizeChatBudget,
  tokenCount,
  type BudgetCapKind,
  type BudgetCaps,
  type ChatBudget,
} from "../../../shared/agent/budget";
import { capFigure, leadingCap, scopeSpend, type Scope } from "./budget-meter-figures";
import type { BudgetMeter as Meter } from "../../../shared/protocol/budget-meter";
import { errorText } from "../../../shared/error-text";
import { usePopoverDismiss } from "../common/use-popover-dismiss";

interface BudgetMeterProps {
  /** The worker's meter (caps and spend); undefined: no caps. */
  meter: Meter | undefined;
  /** The chat's own budget (its options'). */
  budget: ChatBudget | undefined;
  /** Settings' caps for each run of a chat without its own. */
  runDefaults: BudgetCaps | undefined;
  running: boolean;
  /** Saves the chat's budget (undefined: none); rejects with the reason (the dialog stays open). */
  onSave(budget: ChatBudget | undefined): Promise<void>;
}

const LABELS: Record<BudgetCapKind, string> = { costUsd: "Money ($)", tokens: "Tokens", minutes: "Minutes", toolCalls: "Tool calls" };

/**
 * The chat header's budget: with caps, a meter of the cap nearest its end ("$0.42 / $2.00"), coloured from 80 %;
 * without, a "Budget…" button. Either opens the Budget dialog: what the chat and this run have spent, and the caps of
 * the chat and of each run (empty: none; a run's take Settings' defaults). Counts the run's time live while a time
 * cap is set and the run goes on.
 */
export const BudgetMeter = memo(function BudgetMeter({ meter, budget, runDefaults, running, onSave }: BudgetMeterProps) {
  const [open, setOpen] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const area = useRef<HTMLDivElement>(null);
  const onPanelKey = usePopoverDismiss(open, area, () => setOpen(false));
  const timed = running && meter?.run?.caps.minutes !== undefined && meter.run.startedAt !== undefined;

  useEffect(() => {
    if (!timed) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [timed]);

  useEffect(() => {
    if (!open) return;
    const next: Record<string, string> = {};
    for (const scope of ["chat", "run"] as const) {
      for (const kind of BUDGET_CAP_KINDS) {
        const value = budget?.[scope]?.[kind];
        next[`${scope}.${kind}`] = value === undefined ? "" : String(value);
      }
    }
    setDrafts(next);
    setFailure(null);
    // The focus goes into the dialog, to its first cap (it goes back to the button as the dialog closes).
    area.current?.querySelector<HTMLInputElement>(".budget-field input")?.focus();
    // Drafts start from the chat's budget each time the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const lead = leadingCap(meter, now);
  const level = !lead ? "none" : lead.share >= 1 ? "reached" : lead.share >= BUDGET_WARNING_SHARE ? "warn" : "ok";

  const save = (next: ChatBudget | undefined) => {
    const problem = next ? chatBudgetProblem(next) : undefined;
    if (problem) {
      setFailure(`Budget not saved: ${problem}.`);
      return;
    }
    setSaving(true);
    setFailure(null);
    onSave(next).then(() => setOpen(false), (e: unknown) => setFailure(errorText(e))).finally(() => setSaving(false));
  };

  const submit = () => {
    const next: ChatBudget = {};
    for (const scope of ["chat", "run"] as const) {
      const caps: BudgetCaps = {};
      for (const kind of BUDGET_CAP_KINDS) {
        const text = (drafts[`${scope}.${kind}`] ?? "").trim().replace(/^\$/, "");
        if (text === "") continue;
        const value = Number(text);
        if (!Number.isFinite(value)) {
          setFailure(`Budget not saved: ${LABELS[kind].toLowerCase()} must be a number, or empty for no cap.`);
          return;
        }
        caps[kind] = value;
      }
      next[scope] = caps;
    }
    save(normalizeChatBudget(next));
  };

  const field = (scope: Scope, kind: BudgetCapKind) => {
    if (scope === "chat" && kind === "minutes") return <span key={kind} />;
    const fallback = scope === "run" && runDefaults?.[kind] !== undefined ? `Settings: ${runDefaults[kind]}` : "No cap";
    return (
      <label key={kind} className="budget-field">
        <span>{LABELS[kind]}</span>
        <input type="number" min={0} step={kind === "costUsd" ? 0.01 : kind === "minutes" ? 1 : 1} inputMode="decimal"
          value={drafts[`${scope}.${kind}`] ?? ""} placeholder={fallback} data-testid={`budget-${scope}-${kind}`}
          onChange={(e) => setDrafts((d) => ({ ...d, [`${scope}.${kind}`]: e.target.value }))} />
      </label>
    );
  };

  const spentLine = (scope: Scope) => {
    const spend = scopeSpend(meter, scope, now);
    if (!spend) return null;
    const parts = [`${tokenCount(spend.tokens)} tokens`, `${spend.toolCalls.toLocaleString("en-US")} tool call${spend.toolCalls === 1 ? "" : "s"}`, costText(spend)];
    if (scope === "run") parts.push(`${Math.floor(spend.elapsedMs / 60_000)} min`);
    return <div className="budget-spent" data-testid={`budget-spent-${scope}`}>{scope === "chat" ? "This chat so far" : running ? "This run so far" : "The last run"}: {parts.join(" · ")}</div>;
  };

  const title = lead
    ? BUDGET_CAP_KINDS.flatMap((kind) =>
        (["run", "chat"] as const).flatMap((scope) => {
          const part = meter?.[scope];
          const spend = scopeSpend(meter, scope, now);
          return part && spend && part.caps[kind] !== undefined ? [`${scope === "run" ? "This run" : "This chat"}: ${capFigure(kind, part.caps, spend)}`] : [];
        }),
      ).join("\n")
    : "Budget: set caps on what this chat and each run may spend";

  return (
    <div className="budget-meter" ref={area}>
      <button type="button" className={`budget-meter-button budget-${level}${lead ? "" : " budget-meter-empty"}`} data-testid="budget-meter" data-level={level}
        aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen((o) => !o)} title={title}
        aria-label={lead ? `Budget: ${capFigure(lead.kind, lead.caps, lead.spend)}` : "Budget…"}>
        {lead ? (
          <>
            <span className="context-bar" aria-hidden="true"><span style={{ width: `${Math.min(1, lead.share) * 100}%` }} /></span>
            <span className="budget-figures">{capFigure(lead.kind, lead.caps, lead.spend)}</span>
          </>
        ) : (
          // No cap yet: an icon only, named by its label and tooltip (the header keeps one row down to 600 px).
          <GaugeIcon />
        )}
      </button>
      {open ? (
        <form className="budget-panel" role="dialog" aria-label="Budget" data-testid="budget-dialog" onKeyDown={onPanelKey}
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}>
          <div className="budget-panel-title">Budget</div>
          {spentLine("chat")}
          {spentLine("run")}
          <fieldset className="budget-scope">
            <legend>This chat, all runs together</legend>
            <div className="budget-fields">{BUDGET_CAP_KINDS.map((kind) => field("chat", kind))}</div>
          </fieldset>
          <fieldset className="budget-scope">
            <legend>Each run</legend>
            <div className="budget-fields">{BUDGET_CAP_KINDS.map((kind) => field("run", kind))}</div>
          </fieldset>
          <p className="muted budget-help">
            Reaching a cap stops the run as Stop does, saying why; at 80 % the chat warns once. Subagents count toward these caps.
            Money is counted from the model's pricing: a model without pricing (a custom endpoint, a local model) counts tokens and time, its cost unknown.
          </p>
          {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
          <div className="chat-settings-actions">
            <button type="button" className="link-button" disabled={saving} onClick={() => save(undefined)} data-testid="budget-clear">Remove caps</button>
            <span className="chat-settings-spacer" />
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="budget-save">Save</button>
          </div>
        </form>
      ) : null}
    </div>
  );
});
