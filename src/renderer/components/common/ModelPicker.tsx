import { memo } from "react";
import type { ThinkingLevel } from "../../../shared/agent/types";
import type { ModelOption, ModelRef } from "../../../shared/protocol/app-api";
import { isModelChosen } from "../../../shared/agent/state";

interface ModelPickerProps {
  models: readonly ModelOption[];
  current: ModelRef | undefined;
  onChange(model: ModelOption): void;
  disabled?: boolean;
}

const keyOf = (m: ModelRef) => JSON.stringify([m.provider, m.id]);

/** Models grouped by provider; a native select so it is keyboard- and screen-reader-friendly everywhere. */
export const ModelPicker = memo(function ModelPicker({ models, current, onChange, disabled }: ModelPickerProps) {
  const byProvider = new Map<string, ModelOption[]>();
  for (const m of models) {
    const list = byProvider.get(m.provider) ?? [];
    list.push(m);
    byProvider.set(m.provider, list);
  }
  const currentKey = current ? keyOf(current) : "";
  const known = models.some((m) => keyOf(m) === currentKey);
  return (
    <label className="picker">
      <span className="visually-hidden">Model</span>
      <select
        data-testid="model-picker"
        value={currentKey}
        disabled={disabled || models.length === 0}
        onChange={(e) => {
          const chosen = models.find((m) => keyOf(m) === e.target.value);
          if (chosen) onChange(chosen);
        }}
      >
        {!known ? <option value={currentKey}>{current && isModelChosen(current) ? current.id : "Choose a model…"}</option> : null}
        {[...byProvider].map(([provider, list]) => (
          <optgroup key={provider} label={provider}>
            {list.map((m) => (
              <option key={keyOf(m)} value={keyOf(m)}>{m.name}{m.reasoning ? " · reasoning" : ""}</option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
});

interface ThinkingPickerProps {
  levels: readonly ThinkingLevel[];
  current: ThinkingLevel;
  onChange(level: ThinkingLevel): void;
  disabled?: boolean;
}

const LEVEL_LABEL: Record<ThinkingLevel, string> = {
  off: "Thinking off", minimal: "Minimal", low: "Low", medium: "Medium", high: "High", xhigh: "Extra high",
};

/** Reasoning effort, for reasoning models only (the caller decides whether to show it). */
export const ThinkingPicker = memo(function ThinkingPicker({ levels, current, onChange, disabled }: ThinkingPickerProps) {
  const options = levels.includes(current) ? levels : [current, ...levels];
  return (
    <label className="picker">
      <span className="visually-hidden">Thinking level</span>
      <select data-testid="thinking-picker" value={current} disabled={disabled}
        onChange={(e) => onChange(e.target.value as ThinkingLevel)}>
        {options.map((l) => <option key={l} value={l}>{LEVEL_LABEL[l] ?? l}</option>)}
      </select>
    </label>
  );
});
