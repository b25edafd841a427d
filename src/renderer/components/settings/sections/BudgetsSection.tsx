import { useState } from "react";
import { BUDGET_CAP_KINDS, budgetCapsProblem, type BudgetCapKind, type BudgetCaps } from "../../../../shared/agent/budget";
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
        <CapField id="set-budget-monthly" label="Monthly cap ($)" hint="Empty: no cap." value={settings.budgets.monthlyCapUsd > 0 ? settings.budgets.monthlyCapUsd : undefined}
          commit={(value) => save({ budgets: { monthlyCapUsd: value ?? 0 } })} onError={onError} />
      </Group>
    </>
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
