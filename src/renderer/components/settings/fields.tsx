import { useState, type ReactNode } from "react";

/**
 * The building blocks of Settings' sections: a titled card of fields, a labelled field, a checkbox, and a number
 * field saved when the user leaves it.
 */

/** A card of fields, optionally titled (a heading one level below its section's). */
export function Group({ title, description, children }: { title?: string; description?: string; children: ReactNode }) {
  return (
    <div className="settings-group">
      {title ? <h3>{title}</h3> : null}
      {description ? <p className="muted group-description">{description}</p> : null}
      <div className="settings-card">{children}</div>
    </div>
  );
}

export function Field({ label, htmlFor, hint, children }: { label: string; htmlFor: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <div className="field-label">
        <label htmlFor={htmlFor}>{label}</label>
        {hint ? <div className="field-hint">{hint}</div> : null}
      </div>
      <div className="field-control">{children}</div>
    </div>
  );
}

export function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <label className="field check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

interface NumberFieldProps {
  id: string;
  label: string;
  hint?: string;
  testId?: string;
  /** The saved value, shown while the user is not editing. */
  value: number;
  min: number;
  max?: number;
  /**
   * What is wrong with `n` in words, or null when it may be saved; a blank field arrives as NaN. Without it, `n` must
   * be a whole number from `min` to `max`, and `invalid` says so.
   */
  check?(n: number): string | null;
  invalid?: string;
  /** Saves `n`; false when main refused it (the caller has shown why). */
  commit(n: number): Promise<boolean>;
  onError(message: string): void;
}

/**
 * A number typed freely and saved when the field is left: a value `check` refuses is reported through `onError`
 * and kept in the field to correct; nothing is saved for it. The field shows the saved value again once saved.
 */
export function NumberField({ id, label, hint, testId, value, min, max, check, invalid, commit, onError }: NumberFieldProps) {
  const wholeInRange = (n: number) => (Number.isInteger(n) && n >= min && n <= (max ?? Infinity) ? null
    : invalid ?? `A whole number from ${min}${max === undefined ? " up" : ` to ${max}`}, please.`);
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <input id={id} type="number" min={min} max={max} step={1} data-testid={testId} value={draft ?? String(value)}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (draft === null) return;
          const n = draft.trim() === "" ? NaN : Number(draft);
          const problem = (check ?? wholeInRange)(n);
          if (problem) {
            onError(problem);
            return;
          }
          void commit(n).then((ok) => ok && setDraft(null));
        }} />
    </Field>
  );
}
