import { memo, useState } from "react";

interface ThinkingBlockProps {
  text: string;
  redacted?: boolean;
  /** True while the model is still thinking in this block: it shows open until the user closes it. */
  live: boolean;
}

/** The model's reasoning, collapsed by default once finished. Plain text: reasoning is rarely meant as markdown. */
export const ThinkingBlock = memo(function ThinkingBlock({ text, redacted, live }: ThinkingBlockProps) {
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = choice ?? live;
  const label = redacted ? "Reasoning (redacted)" : live ? "Thinking…" : "Thought process";
  return (
    <div className={`thinking${live ? " thinking-live" : ""}`} data-testid="thinking-block">
      <button type="button" className="thinking-toggle" aria-expanded={open} onClick={() => setChoice(!open)}>
        <span className="chevron" aria-hidden="true">{open ? "▾" : "▸"}</span> {label}
        {!open && text ? <span className="thinking-size"> · {text.length.toLocaleString()} chars</span> : null}
      </button>
      {open && !redacted ? <div className="thinking-body" dir="auto">{text}</div> : null}
    </div>
  );
});
