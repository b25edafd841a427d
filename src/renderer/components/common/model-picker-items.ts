/**
 * What the header's model picker lists, as plain data: the models that match what the user typed, grouped by
 * provider under the provider's name for people (a custom endpoint's own, else `labelOf`'s), and how the arrow
 * keys move through them. No React, no DOM, so the rules are tested on their own
 * (test/unit/renderer/components/common/model-picker-items.test.ts).
 */
import type { ModelOption, ModelRef } from "../../../shared/protocol/app-api";
import { THINKING_LEVELS, type ThinkingLevel } from "../../../shared/agent/types";

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

/** "Use <id> with <provider>": a model id the list lacks, offered for a built-in provider that has a key. */
export interface TypedOffer {
  provider: string;
  id: string;
  /** The provider's name for people. */
  label: string;
}

/** The longest model id a typed offer makes (settings' limit for an added model's id). */
const MAX_TYPED_ID = 200;

/**
 * What typing a model id the list lacks offers: "Use <id> with <provider>" for every built-in provider among
 * `models` (those with a key: main lists no others), or only for the providers the text names (a word of it that is
 * a provider's id, or a word of its name: "claude-opus-5-6 anthropic", "gemini gemini-4-pro"), or for the provider a
 * `provider/` prefix names ("groq/llama-5", offered besides the whole text as an id for every provider, since ids
 * such as OpenRouter's hold slashes). Nothing for ids with spaces left, over MAX_TYPED_ID, or already listed.
 * Custom endpoints and models.json providers are left out: their lists are their own (Settings, the file).
 */
export function typedOffers(query: string, models: readonly ModelOption[], labelOf: (provider: string) => string): TypedOffer[] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const providers = [...new Set(models.filter((m) => m.providerName === undefined && !m.provider.includes(":")).map((m) => m.provider))];
  const names = (p: string) => [p.toLowerCase(), ...labelOf(p).toLowerCase().split(/\s+/)];
  const listed = new Set(models.map(modelKey));
  const offers: TypedOffer[] = [];
  const offer = (provider: string, id: string) => {
    const key = modelKey({ provider, id });
    if (id.length === 0 || id.length > MAX_TYPED_ID || listed.has(key) || offers.some((o) => modelKey(o) === key)) return;
    offers.push({ provider, id, label: labelOf(provider) });
  };
  if (words.length === 1) {
    const [id] = words;
    // A model listed under this very id is what the user means: no offer to make another of it.
    if (models.some((m) => m.id === id)) return [];
    const slash = id.indexOf("/");
    const named = slash > 0 ? providers.find((p) => p === id.slice(0, slash).toLowerCase()) : undefined;
    if (named) offer(named, id.slice(slash + 1));
    // The providers whose models look most like the id first: "claude-opus-5-6" offers Anthropic before OpenAI.
    const likeness = (p: string) => Math.max(0, ...models.filter((m) => m.provider === p).map((m) => sharedStart(m.id, id)));
    for (const p of [...providers].sort((a, b) => likeness(b) - likeness(a))) offer(p, id);
    return offers;
  }
  const naming = words.filter((w) => providers.some((p) => names(p).includes(w.toLowerCase())));
  const rest = words.filter((w) => !naming.includes(w));
  if (rest.length !== 1 || naming.length === 0) return [];
  for (const p of providers) if (naming.some((w) => names(p).includes(w.toLowerCase()))) offer(p, rest[0]);
  return offers;
}

function sharedStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The thinking level a model is actually asked for when the chat's level is `level`: pi-ai's `clampThinkingLevel`
 * rule over the model's `levels` (the level itself if the model has it, else the nearest one above, else below). So
 * a chat left at "max" shows "High" on a model without "max", which is what pi-ai sends it; the chat's own level is
 * kept for the next model that has it.
 */
export function effectiveThinkingLevel(level: ThinkingLevel, levels: readonly ThinkingLevel[]): ThinkingLevel {
  if (levels.includes(level)) return level;
  const at = THINKING_LEVELS.indexOf(level);
  const above = THINKING_LEVELS.slice(at + 1).find((l) => levels.includes(l));
  const below = THINKING_LEVELS.slice(0, Math.max(at, 0)).reverse().find((l) => levels.includes(l));
  return above ?? below ?? levels[0] ?? "off";
}

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
