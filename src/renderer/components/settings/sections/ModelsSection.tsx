import type { ModelOption } from "../../../../shared/protocol/app-api";
import { THINKING_LEVELS, type ThinkingLevel } from "../../../../shared/agent/types";
import { providerDisplayName } from "../../../../shared/providers/provider-names";
import type { CustomProvider } from "../../../../shared/settings/schema";
import { modelKey } from "../../common/model-picker-items";
import { ApiKeyList } from "../ApiKeyList";
import { AddedModels } from "../AddedModels";
import { ProviderModelLists } from "../ProviderModelLists";
import { PiModelsFile } from "../PiModelsFile";
import { Field, Group } from "../fields";
import type { SettingsSectionProps } from "./section-props";


/**
 * "Models & keys": the default model and thinking level of new chats, the providers' keys, models beyond pi-ai's
 * catalogue (the user's added ones with their limits, "Refresh models" per provider, pi's models.json), the welcome
 * setup.
 */
export function ModelsSection({ settings, models, providerStatus, save, onError, onProvidersChanged, onShowSetup }: SettingsSectionProps) {
  const chosen = settings.defaultModel;
  const chosenKey = chosen ? modelKey(chosen) : "";
  const missing = chosen && !models.some((o) => o.provider === chosen.provider && o.id === chosen.id);
  return (
    <>
      <Group>
        <Field label="Default model for new chats" htmlFor="set-model">
          <select id="set-model" value={chosenKey} onChange={(e) => {
            const m = models.find((o) => modelKey(o) === e.target.value);
            void save({ defaultModel: m ? { provider: m.provider, id: m.id } : null });
          }}>
            <option value="">None (choose per chat)</option>
            {missing ? (
              <option value={chosenKey}>{providerDisplayName(chosen.provider, settings.customProviders)} · {chosen.id} (unavailable)</option>
            ) : null}
            {byProvider(models, settings.customProviders).map(([name, list]) => (
              <optgroup key={name} label={name}>
                {list.map((m) => <option key={modelKey(m)} value={modelKey(m)}>{m.name}</option>)}
              </optgroup>
            ))}
          </select>
        </Field>
        <Field label="Default thinking level" htmlFor="set-thinking" hint="Used by reasoning models; others ignore it.">
          <select id="set-thinking" value={settings.thinkingLevel}
            onChange={(e) => void save({ thinkingLevel: e.target.value as ThinkingLevel })}>
            {THINKING_LEVELS.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </Field>
      </Group>

      <Group title="API keys" description="Keys are stored encrypted by Paddock and never shown again. Keys from environment variables are used when none is set here. Local and other OpenAI-compatible servers are under Endpoints.">
        <ApiKeyList providerStatus={providerStatus} onChanged={onProvidersChanged} onError={onError} />
      </Group>

      <Group title="Models beyond the catalogue" description="Providers serve models newer than the list Paddock ships with. Ask a provider for its own list, or type a model’s id in a chat’s model picker; each added model starts with the limits of its provider’s closest known model, which you can change here.">
        <ProviderModelLists settings={settings} providerStatus={providerStatus} models={models} save={save} onProvidersChanged={onProvidersChanged} />
      </Group>

      <Group title="Added models">
        <AddedModels settings={settings} models={models} save={save} onProvidersChanged={onProvidersChanged} onError={onError} />
        <PiModelsFile onProvidersChanged={onProvidersChanged} />
      </Group>

      <Group>
        <div className="field">
          <div className="field-label">
            <span className="field-label-text">Welcome setup</span>
            <div className="field-hint">The first-run screen: paste a key, add a local model or use an environment variable, each in one step. It shows by itself at first launch, until a model is set up.</div>
          </div>
          <div className="field-control">
            <button type="button" className="btn btn-secondary" onClick={onShowSetup} data-testid="show-setup">Show the welcome setup</button>
          </div>
        </div>
      </Group>
    </>
  );
}

/** `models` grouped under their providers' display names, in the order the providers first appear. */
function byProvider(models: readonly ModelOption[], custom: readonly CustomProvider[]): [string, ModelOption[]][] {
  const groups = new Map<string, ModelOption[]>();
  for (const m of models) {
    const name = providerDisplayName(m.provider, custom);
    groups.set(name, [...(groups.get(name) ?? []), m]);
  }
  return [...groups];
}
