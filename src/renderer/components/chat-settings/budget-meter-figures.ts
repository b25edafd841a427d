/** The budget meter's figures (BudgetMeter.tsx), pure: which cap it shows and how. */
import { BUDGET_CAP_KINDS, capShare, costText, dollars, tokenCount, type BudgetCapKind, type BudgetCaps, type BudgetSpend } from "../../../shared/agent/budget";
import type { BudgetMeter as Meter } from "../../../shared/protocol/budget-meter";

export type Scope = "chat" | "run";

/** One figure against its cap: "$0.42 / $2.00", "12k / 50k tokens", "3 / 10 min", "4 / 50 calls". */
export function capFigure(kind: BudgetCapKind, caps: BudgetCaps, spend: BudgetSpend): string {
  const cap = caps[kind] ?? 0;
  switch (kind) {
    case "costUsd":
      return `${spend.costUnknown && spend.cost === 0 ? "cost unknown" : costText(spend)} / ${dollars(cap)}`;
    case "tokens":
      return `${tokenCount(spend.tokens)} / ${tokenCount(cap)} tokens`;
    case "minutes":
      return `${Math.floor(spend.elapsedMs / 60_000)} / ${cap.toLocaleString("en-US")} min`;
    case "toolCalls":
      return `${spend.toolCalls.toLocaleString("en-US")} / ${cap.toLocaleString("en-US")} calls`;
  }
}

/** The cap nearest its end, of either scope: what the meter shows. */
export function leadingCap(meter: Meter | undefined, now: number): { scope: Scope; kind: BudgetCapKind; share: number; caps: BudgetCaps; spend: BudgetSpend } | undefined {
  let best: ReturnType<typeof leadingCap>;
  for (const scope of ["run", "chat"] as const) {
    const part = meter?.[scope];
    if (!part) continue;
    const spend = scopeSpend(meter, scope, now)!;
    for (const kind of BUDGET_CAP_KINDS) {
      const share = capShare(part.caps, kind, spend);
      if (share !== undefined && (!best || share > best.share)) best = { scope, kind, share, caps: part.caps, spend };
    }
  }
  return best;
}

/** A scope's spend, the run's wall time counted to `now` while it runs. */
export function scopeSpend(meter: Meter | undefined, scope: Scope, now: number): BudgetSpend | undefined {
  const part = meter?.[scope];
  if (!part) return undefined;
  if (scope === "run" && meter?.run?.startedAt !== undefined) return { ...part.spend, elapsedMs: Math.max(part.spend.elapsedMs, now - meter.run.startedAt) };
  return part.spend;
}

