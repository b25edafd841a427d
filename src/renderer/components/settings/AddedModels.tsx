import type { ModelOption } from "../../../shared/protocol/app-api";
import type { AddedModel, Settings, SettingsPatch } from "../../../shared/settings/schema";
import { ENDPOINT_LIMITS } from "../../../shared/settings/endpoint-limits";
import { providerDisplayName } from "../../../shared/providers/provider-names";
import { modelKey } from "../common/model-picker-items";
import { Check, NumberField } from "./fields";

interface AddedModelsProps {
  settings: Settings;
  /** Main's list: an added model's limits as they are now (its own, else its closest catalogue model's). */
  models: readonly ModelOption[];
  save(patch: SettingsPatch): Promise<boolean>;
  onProvidersChanged(): void;
  onError(message: string): void;
}

/**
 * The models the user added to built-in providers (typed in the model picker, or added from "Refresh models"), each
 * with the limits a custom endpoint's models have: context window, output limit, images, thinking. Each starts as
 * its provider's closest catalogue model; a change is saved at once (a number when its field is left) and applies to
 * chats that pick the model from then on.
 */
export function AddedModels({ settings, models, save, onProvidersChanged, onError }: AddedModelsProps) {
  const added = settings.addedModels ?? [];
  const change = async (target: AddedModel, changes: Partial<AddedModel> | null): Promise<boolean> => {
    const list = changes === null
      ? added.filter((m) => modelKey(m) !== modelKey(target))
      : added.map((m) => (modelKey(m) === modelKey(target) ? { ...m, ...changes } : m));
    const ok = await save({ addedModels: list });
    if (ok) onProvidersChanged();
    return ok;
  };
  if (added.length === 0) {
    return <p className="card-empty added-models-empty">None yet. Type a model’s id in a chat’s model picker (“Use … with Anthropic”), or add one from a provider’s list above.</p>;
  }
  return (
    <>
      {added.map((m, i) => {
        const shown = models.find((o) => modelKey(o) === modelKey(m));
        const id = `added-${i}`;
        return (
          <fieldset key={modelKey(m)} className="added-model" data-testid="added-model" data-value={modelKey(m)}>
            <legend>
              <span dir="auto" className="added-model-id">{m.id}</span> <span className="muted">· {providerDisplayName(m.provider)}</span>
            </legend>
            <NumberField id={`${id}-context`} label="Context window" hint="Tokens the model reads at once." testId="added-context"
              value={shown?.contextWindow ?? m.contextWindow ?? 0} min={1} max={ENDPOINT_LIMITS.tokens}
              commit={(n) => change(m, { contextWindow: n })} onError={onError} />
            <NumberField id={`${id}-output`} label="Output limit" hint="Most tokens in one reply." testId="added-max-tokens"
              value={shown?.maxTokens ?? m.maxTokens ?? 0} min={1} max={ENDPOINT_LIMITS.tokens}
              commit={(n) => change(m, { maxTokens: n })} onError={onError} />
            <Check label="Reads images" checked={shown?.images ?? m.images ?? false} onChange={(v) => void change(m, { images: v })} />
            <Check label="Thinks (a reasoning model)" checked={shown?.reasoning ?? m.reasoning ?? false} onChange={(v) => void change(m, { reasoning: v })} />
            <div className="field added-model-actions">
              <button type="button" className="btn btn-ghost" data-testid="added-remove" onClick={() => void change(m, null)}>
                Remove {m.id}
              </button>
            </div>
          </fieldset>
        );
      })}
    </>
  );
}
