import { useEffect, useState } from "react";
import {
  BUDGET_CAP_KINDS, budgetCapsProblem, monthSpendText, unpricedSpendText, type BudgetCapKind, type BudgetCaps, type MonthSpend,
} from "../../../../shared/agent/budget";
import { errorText } from "../../../../shared/error-text";
import { useServices } from "../../../context/ServicesContext";
import { Field, Group } from "../fields";
import type { SettingsSectionProps } from "./section-props";

const RUN_FIELDS: Record<BudgetCapKind, { label: string; hint: string }> = {
  costUsd: { label: "Money per run ($)", hint: "From the model's pricing. A model without pricing (a custom endpoint, a local model) cannot reach it: its cost is unknown." },
  tokens: { label: "Tokens per run", hint: "In and out, as the provider reports them." },
  minutes: { label: "Minutes per run", hint: "Wall time from the message that started the run." },
  toolCalls: { label: "Tool calls per run", hint: "A subagent's own calls count toward its parent's run." },
};

/**
 * "Budgets": each run's caps in chats that set none of their own (a chat's Budget…, in its header), and the month's
 * cap across all chats, which stops new runs when reached. Empty: no cap.
 */
export function BudgetsSection({ settings, save, onError }: SettingsSectionProps) {
  const run = settings.budgets.run;
  const saveRun = (kind: BudgetCapKind, value: number | undefined) => {
    const next: BudgetCaps = { ...run };
    if (value === undefined) delete next[kind];
    else next[kind] = value;
    const problem = budgetCapsProblem(next, "default run budget");
    if (problem) {
      onError(`Not saved: ${problem}.`);
      return Promise.resolve(false);
    }
    return save({ budgets: { run: next } });
  };
  return (
    <>
      <Group title="Each run" description="Caps for every run of a chat that has no budget of its own (a chat's Budget…, in its header). Reaching one stops the run as Stop does, saying why; at 80 % the chat warns once. Empty: no cap.">
        {BUDGET_CAP_KINDS.map((kind) => (
          <CapField key={kind} id={`set-budget-${kind}`} label={RUN_FIELDS[kind].label} hint={RUN_FIELDS[kind].hint} value={run[kind]}
            commit={(value) => saveRun(kind, value)} onError={onError} />
        ))}
      </Group>
      <Group title="This month" description="What all chats may spend in a calendar month (local time), counted from the models' pricing. Once reached, no new run starts until the month ends or the cap is raised here.">
        <MonthSpent capUsd={settings.budgets.monthlyCapUsd} />
        <CapField id="set-budget-monthly" label="Monthly cap ($)" hint="Empty: no cap." value={settings.budgets.monthlyCapUsd > 0 ? settings.budgets.monthlyCapUsd : undefined}
          commit={(value) => save({ budgets: { monthlyCapUsd: value ?? 0 } })} onError={onError} />
      </Group>
    </>
  );
}

/** This month's running total against the cap, live while Settings are open; tokens at a cost unknown beside it. */
function MonthSpent({ capUsd }: { capUsd: number }) {
  const services = useServices();
  const [spend, setSpend] = useState<MonthSpend | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const stop = services.onEvent((event) => {
      if (event.type === "monthly-spend") setSpend(event.spend);
    });
    services.app.getMonthlySpend().then((s) => live && setSpend((now) => now ?? s), (e: unknown) => live && setProblem(errorText(e)));
    return () => {
      live = false;
      stop();
    };
  }, [services]);
  const share = spend && capUsd > 0 ? Math.min(1, spend.costUsd / capUsd) : undefined;
  const unpriced = spend ? unpricedSpendText(spend) : undefined;
  return (
    <div className="field field-wide" data-testid="month-spend">
      <div className="field-label">
        <span className="field-label-text">Spent this month</span>
        <div className="field-hint">Across all chats and their subagents, from the models' pricing; it updates as replies land.</div>
      </div>
      <div className="field-control month-spend">
        {problem ? <span className="field-error" role="alert">This month's spending could not be read: {problem}</span> : null}
        {spend ? (
          <>
            <div data-testid="month-spend-total">{monthSpendText(spend, capUsd)}</div>
            {share !== undefined ? (
              <div className={`month-spend-bar${share >= 1 ? " month-spend-bar-full" : share >= 0.8 ? " month-spend-bar-near" : ""}`}
                role="meter" aria-label="This month's spending against the monthly cap" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)}>
                <span style={{ width: `${share * 100}%` }} />
              </div>
            ) : null}
            {unpriced ? <div className="muted month-spend-unpriced" data-testid="month-spend-unpriced">{unpriced}</div> : null}
          </>
        ) : null}
      </div>
    </div>
  );
}

/** A cap: a positive number, or empty for none; saved when the field is left. */
function CapField({ id, label, hint, value, commit, onError }: {
  id: string; label: string; hint: string; value: number | undefined;
  commit(value: number | undefined): Promise<boolean>; onError(message: string): void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <input id={id} type="number" min={0} step="any" placeholder="No cap" data-testid={id} value={draft ?? (value === undefined ? "" : String(value))}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (draft === null) return;
          const text = draft.trim();
          const n = text === "" ? undefined : Number(text);
          if (n !== undefined && !(Number.isFinite(n) && n > 0)) {
            onError(`${label} must be more than 0, or empty for no cap.`);
            return;
          }
          void commit(n).then((ok) => ok && setDraft(null));
        }} />
    </Field>
  );
}
