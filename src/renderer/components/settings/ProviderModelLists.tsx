import { useState } from "react";
import type { ModelOption, ProviderStatus } from "../../../shared/protocol/app-api";
import type { ProviderModelList } from "../../../shared/protocol/model-lists";
import type { Settings, SettingsPatch } from "../../../shared/settings/schema";
import { providerDisplayName } from "../../../shared/providers/provider-names";
import { errorText } from "../../../shared/error-text";
import { useServices } from "../../context/ServicesContext";

interface ProviderModelListsProps {
  settings: Settings;
  providerStatus: readonly ProviderStatus[];
  models: readonly ModelOption[];
  save(patch: SettingsPatch): Promise<boolean>;
  onProvidersChanged(): void;
}

/**
 * "Refresh models" for each built-in provider that has a key: main asks the provider which models it serves
 * (AppApi.refreshModels) and the ones pi-ai's catalogue lacks are listed, each added to the picker with one click
 * (as a typed id is: settings' added models). The catalogue's own are counted, not repeated: the picker has them.
 */
export function ProviderModelLists({ settings, providerStatus, save, onProvidersChanged }: ProviderModelListsProps) {
  const providers = providerStatus.filter((s) => s.keySource !== "none" && !s.provider.includes(":")).map((s) => s.provider);
  if (providers.length === 0) {
    return <p className="card-empty">Enter a provider’s key above to ask it which models it serves.</p>;
  }
  const add = async (provider: string, id: string) => {
    const added = settings.addedModels ?? [];
    if (added.some((m) => m.provider === provider && m.id === id)) return;
    if (await save({ addedModels: [...added, { provider, id }] })) onProvidersChanged();
  };
  return (
    <>
      {providers.map((provider) => (
        <ProviderRow key={provider} provider={provider} settings={settings} onAdd={(id) => void add(provider, id)} />
      ))}
    </>
  );
}

function ProviderRow({ provider, settings, onAdd }: { provider: string; settings: Settings; onAdd(id: string): void }) {
  const { app } = useServices();
  const [result, setResult] = useState<ProviderModelList | undefined>();
  const [busy, setBusy] = useState(false);
  const name = providerDisplayName(provider);
  const refresh = async () => {
    setBusy(true);
    try {
      setResult(await app.refreshModels(provider));
    } catch (e) {
      setResult({ ok: false, message: `The list could not be asked for: ${errorText(e)}`, models: [] });
    } finally {
      setBusy(false);
    }
  };
  const isAdded = (id: string) => (settings.addedModels ?? []).some((m) => m.provider === provider && m.id === id);
  const unknown = result?.models.filter((m) => !m.known) ?? [];
  const known = (result?.models.length ?? 0) - unknown.length;
  return (
    <div className="field provider-models" data-testid="provider-models" data-provider={provider}>
      <div className="provider-models-head">
        <span className="field-label-text">{name}</span>
        <button type="button" className="btn btn-secondary" data-testid="refresh-models" disabled={busy} onClick={() => void refresh()}>
          {busy ? "Asking…" : "Refresh models"}
        </button>
      </div>
      <div className={`provider-models-status${result && !result.ok ? " problem" : ""}`} role="status" data-testid="refresh-result">
        {result ? `${result.message}${result.ok ? ` ${unknown.length === 0 ? "Pi-ai’s catalogue knows them all." : `${unknown.length} ${unknown.length === 1 ? "is" : "are"} not in the catalogue${known > 0 ? `; the other ${known} ${known === 1 ? "is" : "are"} in the picker already` : ""}.`}` : ""}` : ""}
      </div>
      {unknown.length > 0 ? (
        <ul className="provider-models-list" aria-label={`${name} models not in the catalogue`}>
          {unknown.map((m) => (
            <li key={m.id} data-testid="listed-model" data-id={m.id}>
              <span className="listed-model-id" dir="auto">{m.id}</span>
              {m.name ? <span className="muted" dir="auto"> · {m.name}</span> : null}
              <span className="key-status listed-model-new">new</span>
              {m.added || isAdded(m.id) ? (
                <span className="key-status key-settings" data-testid="listed-model-added">added</span>
              ) : (
                <button type="button" className="btn btn-ghost btn-small" data-testid="listed-model-add" onClick={() => onAdd(m.id)}
                  aria-label={`Add ${m.id} to the model picker`}>Add</button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
