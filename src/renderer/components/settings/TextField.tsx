import { useId, type InputHTMLAttributes } from "react";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  label: string;
  value: string;
  onChange(value: string): void;
  /** What is wrong, in words; shown under the field and tied to it (aria-invalid, aria-describedby). */
  error?: string;
  /** A quiet note under the field while nothing is wrong. */
  hint?: string;
  className?: string;
  /** data-testid of the input. */
  testId?: string;
}

/**
 * A labelled input that says what is wrong with its value right under it. Screen readers hear the problem with the
 * field (aria-describedby) and know it is invalid (aria-invalid); the message itself is not an alert, so typing is
 * not interrupted at every keystroke.
 */
export function TextField({ label, value, onChange, error, hint, className, testId, ...input }: TextFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className={`text-field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined} data-testid={testId} {...input} />
      {note ? <span id={noteId} className={error ? "field-error" : "field-hint"} data-testid={error && testId ? `${testId}-error` : undefined}>{note}</span> : null}
    </div>
  );
}
