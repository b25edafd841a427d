import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { ThinkingLevel } from "../../../shared/agent/types";
import type { ModelOption, ModelRef } from "../../../shared/protocol/app-api";
import { isModelChosen } from "../../../shared/agent/state";
import { providerDisplayName } from "../../../shared/providers/provider-names";
import { flatOptions, groupModels, isPickerKey, modelKey, moveActive, optionLabel, typedOffers, type TypedOffer } from "./model-picker-items";
import { shortTokens } from "./context-meter-figures";
import { usePopoverDismiss } from "./use-popover-dismiss";

interface ModelPickerProps {
  models: readonly ModelOption[];
  current: ModelRef | undefined;
  onChange(model: ModelOption): void;
  /**
   * A model id the list lacks was chosen for a built-in provider ("Use claude-opus-5-6 with Anthropic"): the caller
   * adds it (settings' added models) and switches to it. Absent: no such offers.
   */
  onUseTyped?(model: ModelRef): void;
  disabled?: boolean;
}

/** The popover's width (it matches .model-picker-popover): it opens toward whichever side has room for it. */
const POPOVER_REM = 22;

/**
 * The header's model picker: a button of fixed width (the header never moves as the chosen name or the counters
 * beside it change) that opens a search field over the models, grouped by provider under their names for people.
 * The WAI-ARIA combobox pattern: focus stays in the field while ↑/↓ (and PageUp/PageDown) move the active option
 * (aria-activedescendant), typing filters, Enter chooses, Esc closes and gives focus back to the button, as does a
 * choice; Tab or a click elsewhere just closes. Choosing the current model again changes nothing. Typing an id the
 * list lacks adds options after the list, "Use <id> with <provider>" (typedOffers), reached by the same keys.
 */
export const ModelPicker = memo(function ModelPicker({ models, current, onChange, onUseTyped, disabled }: ModelPickerProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(-1);
  const [alignStart, setAlignStart] = useState(false);
  const area = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  const optionId = (i: number) => `${id}-option-${i}`;

  const groups = useMemo(() => (open ? groupModels(models, query, providerDisplayName) : []), [open, models, query]);
  const options = useMemo(() => flatOptions(groups), [groups]);
  const offers = useMemo(() => (open && onUseTyped ? typedOffers(query, models, providerDisplayName) : []), [open, onUseTyped, query, models]);
  const count = options.length + offers.length;
  const indexOf = useMemo(() => new Map(options.map((m, i) => [m, i])), [options]);
  const currentKey = current ? modelKey(current) : "";
  const chosen = models.find((m) => modelKey(m) === currentKey);
  const shown = chosen?.name ?? (current && isModelChosen(current) ? current.id : "Choose a model…");

  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery("");
    if (refocus) button.current?.focus();
  };
  // A press outside closes without taking focus back: the user is going somewhere else.
  const onPopoverKey = usePopoverDismiss(open, area, () => close(false));

  const openPicker = () => {
    const all = flatOptions(groupModels(models, "", providerDisplayName));
    setActive(Math.max(0, all.findIndex((m) => modelKey(m) === currentKey)));
    setQuery("");
    const rect = button.current?.getBoundingClientRect();
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    setAlignStart(rect !== undefined && rect.right < POPOVER_REM * rem + 8);
    setOpen(true);
  };
  const choose = (model: ModelOption) => {
    close(true);
    if (modelKey(model) !== currentKey) onChange(model);
  };
  const chooseTyped = (offer: TypedOffer) => {
    close(true);
    onUseTyped?.({ provider: offer.provider, id: offer.id });
  };

  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);
  const activeId = open && active >= 0 ? optionId(active) : undefined;
  // Again when the list changes under the same index (typing): the option there is another one.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId, groups]);

  const onFieldKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const key = e.key;
    if (isPickerKey(key)) {
      e.preventDefault();
      setActive((a) => moveActive(a, count, key));
    } else if (e.key === "Enter") {
      e.preventDefault();
      const model = options[active];
      const offer = offers[active - options.length];
      if (model) choose(model);
      else if (offer) chooseTyped(offer);
    } else if (e.key === "Tab") close(false);
  };
  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && !open) {
      e.preventDefault();
      openPicker();
    }
  };

  const listboxId = `${id}-listbox`;
  const hasOptions = count > 0;
  return (
    <div className="model-picker" ref={area}>
      <button type="button" ref={button} className="model-picker-button" data-testid="model-picker" title={shown}
        aria-haspopup="dialog" aria-expanded={open} disabled={disabled || models.length === 0}
        onClick={() => (open ? close(false) : openPicker())} onKeyDown={onButtonKey}>
        <span className="visually-hidden">Model: </span>
        <span className="model-picker-current" dir="auto">{shown}</span>
        <span className="model-picker-chevron" aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className={`model-picker-popover${alignStart ? " align-start" : ""}`} role="dialog" aria-label="Choose a model"
          data-testid="model-picker-popover" onKeyDown={onPopoverKey}>
          <input ref={field} className="model-picker-search" type="text" dir="auto" value={query} placeholder="Search models"
            role="combobox" aria-label="Search models" aria-autocomplete="list" aria-expanded={hasOptions}
            aria-controls={hasOptions ? listboxId : undefined}
            aria-activedescendant={hasOptions ? activeId : undefined}
            autoComplete="off" spellCheck={false} data-testid="model-picker-search"
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onFieldKey} />
          {hasOptions ? (
            <div className="model-picker-list" id={listboxId} role="listbox" aria-label="Models">
              {groups.map((group, g) => (
                <div key={group.provider} role="group" aria-labelledby={`${id}-group-${g}`} className="model-picker-group">
                  <div id={`${id}-group-${g}`} className="model-picker-group-label" role="presentation" dir="auto">{group.label}</div>
                  {group.options.map((m) => {
                    const i = indexOf.get(m) ?? -1;
                    const key = modelKey(m);
                    return (
                      <div key={key} id={optionId(i)} role="option" aria-selected={i === active} data-value={key}
                        className={`model-picker-option${i === active ? " active" : ""}${key === currentKey ? " current" : ""}`}
                        onMouseMove={() => i !== active && setActive(i)}
                        // Keeps focus in the search field, where the keys work.
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => choose(m)}>
                        <span className="model-picker-check" aria-hidden="true">{key === currentKey ? "✓" : ""}</span>
                        <span className="model-picker-name" dir="auto">{optionLabel(m)}</span>
                        {key === currentKey ? <span className="visually-hidden"> (current)</span> : null}
                        <span className="model-picker-meta">
                          {m.origin === "added" ? "added · " : m.origin === "pi" ? "pi’s models.json · " : ""}{m.reasoning ? "reasoning · " : ""}{m.contextWindow > 0 ? `${shortTokens(m.contextWindow)} context` : ""}
                        </span>
                      </div>
                    );
                  })}
                </div>
              ))}
              {offers.length > 0 ? (
                <div role="group" aria-labelledby={`${id}-group-typed`} className="model-picker-group model-picker-typed" data-testid="model-picker-typed">
                  <div id={`${id}-group-typed`} className="model-picker-group-label" role="presentation">Not in the list</div>
                  {offers.map((offer, o) => {
                    const i = options.length + o;
                    return (
                      <div key={modelKey(offer)} id={optionId(i)} role="option" aria-selected={i === active} data-typed={modelKey(offer)}
                        className={`model-picker-option${i === active ? " active" : ""}`}
                        onMouseMove={() => i !== active && setActive(i)}
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => chooseTyped(offer)}>
                        <span className="model-picker-check" aria-hidden="true">+</span>
                        <span className="model-picker-name" dir="auto">Use <strong>{offer.id}</strong> with {offer.label}</span>
                      </div>
                    );
                  })}
                </div>
              ) : null}
            </div>
          ) : (
            <div className="model-picker-empty">No model matches “{query}”.</div>
          )}
          <div className="visually-hidden" role="status" aria-live="polite">
            {query ? `${options.length} ${options.length === 1 ? "model" : "models"}${offers.length > 0 ? `, or use “${offers[0].id}” as a new model id` : ""}` : ""}
          </div>
        </div>
      ) : null}
    </div>
  );
});

interface ThinkingPickerProps {
  levels: readonly ThinkingLevel[];
  current: ThinkingLevel;
  onChange(level: ThinkingLevel): void;
  disabled?: boolean;
}

const LEVEL_LABEL: Record<ThinkingLevel, string> = {
  off: "Thinking off", minimal: "Minimal", low: "Low", medium: "Medium", high: "High", xhigh: "Extra high", max: "Maximum",
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
