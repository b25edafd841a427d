import { useEffect, useState } from "react";
import type { ProviderStatus } from "../../../shared/protocol/app-api";
import type { CustomProvider } from "../../../shared/settings/schema";
import { useServices } from "../../app/ServicesContext";
import { customProviderName, DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS } from "../../../shared/providers/custom-provider";
import { errorText } from "../../../shared/error-text";
import { KeyStatus } from "./ApiKeyRow";

interface CustomProvidersEditorProps {
  providers: readonly CustomProvider[];
  providerStatus: readonly ProviderStatus[];
  /** Saves the whole list; resolves false when main rejected it (the editor then keeps the draft). */
  onSave(list: CustomProvider[]): Promise<boolean>;
  onKeyChanged(): void;
  onError(message: string): void;
}

interface Draft {
  id: string;
  name: string;
  baseUrl: string;
  models: string;
  reasoning: boolean;
  images: boolean;
  /** As typed; empty for the default. */
  contextWindow: string;
  maxTokens: string;
  key: string;
}

const toDraft = ({ id, name, baseUrl, models, reasoning, images, contextWindow, maxTokens }: CustomProvider): Draft => ({
  id, name, baseUrl, models: models.join(", "), reasoning: reasoning ?? false, images: images ?? false,
  contextWindow: contextWindow === undefined ? "" : String(contextWindow), maxTokens: maxTokens === undefined ? "" : String(maxTokens), key: "",
});

/** A token count as typed: empty is the default (undefined); anything but a positive whole number is refused. */
function tokenCount(typed: string, what: string, endpoint: string): number | undefined {
  if (typed.trim() === "") return undefined;
  const n = Number(typed);
  if (!Number.isInteger(n) || n < 1 || n > 100_000_000) throw new Error(`${endpoint}: the ${what} must be a whole number of tokens (1 to 100,000,000), or empty for the default.`);
  return n;
}

/**
 * Edits the list of OpenAI-compatible endpoints as drafts; Save sends the whole list (and any new keys, which main
 * binds to the endpoint's address as saved). Each saved endpoint shows its key's status, from main: saved for its
 * address, not set, or saved for an address it has left; a saved key can be removed at once.
 */
export function CustomProvidersEditor({ providers, providerStatus, onSave, onKeyChanged, onError }: CustomProvidersEditorProps) {
  const { app } = useServices();
  const [drafts, setDrafts] = useState<Draft[]>(() => providers.map(toDraft));
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) setDrafts(providers.map(toDraft));
  }, [providers, dirty]);

  const edit = (i: number, patch: Partial<Draft>) => {
    setDirty(true);
    setDrafts((list) => list.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  };

  const save = async () => {
    let list: CustomProvider[];
    try {
      list = drafts.map((d) => {
        const contextWindow = tokenCount(d.contextWindow, "context window", d.name || d.id);
        const maxTokens = tokenCount(d.maxTokens, "max output tokens", d.name || d.id);
        return {
          id: d.id.trim(),
          name: d.name.trim() || d.id.trim(),
          baseUrl: d.baseUrl.trim(),
          models: d.models.split(/[,\n]/).map((m) => m.trim()).filter(Boolean),
          ...(d.reasoning ? { reasoning: true } : {}),
          ...(d.images ? { images: true } : {}),
          ...(contextWindow !== undefined ? { contextWindow } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
        };
      });
    } catch (e) {
      onError(errorText(e));
      return;
    }
    if (!(await onSave(list))) return;
    try {
      for (const d of drafts) if (d.key.trim()) await app.setApiKey(customProviderName(d.id.trim()), d.key.trim());
      if (drafts.some((d) => d.key.trim())) onKeyChanged();
    } catch (e) {
      onError(errorText(e));
    }
    setDirty(false);
  };

  const add = () => {
    const taken = new Set(drafts.map((d) => d.id));
    let id = "ollama";
    for (let n = 2; taken.has(id); n++) id = `endpoint-${n}`;
    setDirty(true);
    setDrafts((list) => [...list, {
      id, name: id === "ollama" ? "Ollama" : "Local endpoint", baseUrl: "http://127.0.0.1:11434/v1", models: "", reasoning: false, images: false,
      contextWindow: "", maxTokens: "", key: "",
    }]);
  };

  const removeKey = async (id: string) => {
    try {
      await app.setApiKey(customProviderName(id), null);
      onKeyChanged();
    } catch (e) {
      onError(errorText(e));
    }
  };

  return (
    <div className="custom-providers" data-testid="custom-providers">
      {drafts.length === 0 ? <p className="muted">No custom endpoints.</p> : null}
      {drafts.map((d, i) => {
        // Main's word on the saved endpoint with this id; a draft not saved yet has none.
        const status = providers.some((p) => p.id === d.id) ? providerStatus.find((p) => p.provider === customProviderName(d.id)) : undefined;
        const keyStored = status !== undefined && (status.keySource === "settings" || status.keySavedFor !== undefined);
        return (
          <fieldset key={i} className="custom-provider" data-testid="custom-provider">
            <legend>{d.name || d.id || "Endpoint"}</legend>
            <div className="grid-2">
              <label>Name<input value={d.name} onChange={(e) => edit(i, { name: e.target.value })} /></label>
              <label>Id<input value={d.id} onChange={(e) => edit(i, { id: e.target.value })} spellCheck={false} /></label>
              <label className="span-2">Base URL<input value={d.baseUrl} onChange={(e) => edit(i, { baseUrl: e.target.value })} spellCheck={false} /></label>
              <label className="span-2">Model ids (comma separated)<input value={d.models} placeholder="llama3.2, qwen2.5-coder"
                onChange={(e) => edit(i, { models: e.target.value })} spellCheck={false} /></label>
              <label>API key (optional)<input type="password" autoComplete="off" value={d.key} data-testid="endpoint-key-input"
                placeholder={keyStored ? "Replace the saved key" : "Paste API key"} onChange={(e) => edit(i, { key: e.target.value })} /></label>
              <label>Context window (tokens)<input type="number" min={1} step={1} value={d.contextWindow} data-testid="endpoint-context-window"
                placeholder={`${DEFAULT_CONTEXT_WINDOW} (default)`} onChange={(e) => edit(i, { contextWindow: e.target.value })} /></label>
              <label>Max output tokens<input type="number" min={1} step={1} value={d.maxTokens} data-testid="endpoint-max-tokens"
                placeholder={`${DEFAULT_MAX_TOKENS} (default)`} onChange={(e) => edit(i, { maxTokens: e.target.value })} /></label>
              <label className="check inline-check"><input type="checkbox" checked={d.reasoning}
                onChange={(e) => edit(i, { reasoning: e.target.checked })} /> Reasoning models</label>
              <label className="check inline-check"><input type="checkbox" checked={d.images} data-testid="endpoint-images"
                onChange={(e) => edit(i, { images: e.target.checked })} /> Models read images</label>
            </div>
            {status ? (
              <div className="endpoint-key">
                <KeyStatus status={status} />
                {keyStored ? (
                  <button type="button" className="btn btn-ghost" data-testid="endpoint-key-remove" onClick={() => void removeKey(d.id)}>Remove key</button>
                ) : null}
              </div>
            ) : null}
            <button type="button" className="btn btn-ghost danger" onClick={() => {
              setDirty(true);
              setDrafts((list) => list.filter((_, j) => j !== i));
            }}>Remove endpoint</button>
          </fieldset>
        );
      })}
      <div className="row-actions">
        <button type="button" className="btn btn-secondary" onClick={add}>Add endpoint</button>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={!dirty}>Save endpoints</button>
      </div>
    </div>
  );
}
