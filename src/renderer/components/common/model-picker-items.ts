/**
 * What the header's model picker lists, as plain data: the models that match what the user typed, grouped by
 * provider under the provider's name for people (a custom endpoint's own, else `labelOf`'s), and how the arrow
 * keys move through them. No React, no DOM, so the rules are tested on their own
 * (test/unit/renderer/model-picker-items.test.ts).
 */
import type { ModelOption, ModelRef } from "../../../shared/protocol/app-api";

export interface ModelGroup {
  provider: string;
  /** The provider's name for people ("OpenAI", an endpoint's own name). */
  label: string;
  options: ModelOption[];
}

/** One key per model: provider and id together (an id alone repeats across providers). */
export const modelKey = (m: ModelRef): string => JSON.stringify([m.provider, m.id]);

/**
 * The models matching `query`, grouped by provider in the order the providers first appear in `models` (main lists
 * them in its own order: pi-ai's providers, then the custom endpoints), each group's models in their given order.
 * A model matches when every word of the query (case-insensitive) is found in its name, its id or its provider's
 * label, so "son 4" finds "Claude Sonnet 4" and "openai mini" every mini model of OpenAI. An empty query keeps all.
 * Never drops or repeats a model.
 */
export function groupModels(models: readonly ModelOption[], query: string, labelOf: (provider: string) => string): ModelGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, ModelGroup>();
  for (const model of models) {
    let group = groups.get(model.provider);
    const label = group?.label ?? model.providerName ?? labelOf(model.provider);
    const haystack = `${model.name}\n${model.id}\n${label}`.toLowerCase();
    if (!words.every((w) => haystack.includes(w))) continue;
    if (!group) {
      group = { provider: model.provider, label, options: [] };
      groups.set(model.provider, group);
    }
    group.options.push(model);
  }
  return [...groups.values()];
}

/**
 * A model's line under its provider's heading: its name, except a custom endpoint's model (`providerName` set),
 * named by its id, since main's name for it repeats the endpoint's name that the heading shows.
 */
export const optionLabel = (m: ModelOption): string => (m.providerName !== undefined ? m.id : m.name);

/** The groups' models in the order they show: what the arrow keys step through. */
export function flatOptions(groups: readonly ModelGroup[]): ModelOption[] {
  return groups.flatMap((g) => g.options);
}

/** Keys that move through the list; Home and End stay with the search field's caret, as in a text field. */
export type PickerKey = "ArrowDown" | "ArrowUp" | "PageDown" | "PageUp";

/** How far PageUp and PageDown move: about what the list shows at once. */
const PAGE = 8;

/**
 * The option index a navigation key moves to from `active` (-1: none yet) among `count` options: arrows step and
 * stop at the ends (a screen reader user hears where the list ends rather than jumping round), the page keys move
 * by a page. -1 when there is nothing to move to.
 */
export function moveActive(active: number, count: number, key: PickerKey): number {
  if (count === 0) return -1;
  const last = count - 1;
  switch (key) {
    case "ArrowDown":
      return active < 0 ? 0 : Math.min(active + 1, last);
    case "ArrowUp":
      return active < 0 ? last : Math.max(active - 1, 0);
    case "PageDown":
      return Math.min(Math.max(active, 0) + PAGE, last);
    case "PageUp":
      return Math.max((active < 0 ? last : active) - PAGE, 0);
  }
}

export const isPickerKey = (key: string): key is PickerKey =>
  key === "ArrowDown" || key === "ArrowUp" || key === "PageDown" || key === "PageUp";
