import { useState } from "react";
import type { ModelRef, ProviderStatus } from "../../shared/protocol/app-api";
import type { Settings } from "../../shared/settings/schema";
import { useServices } from "../context/ServicesContext";
import { customProviderId } from "../../shared/providers/custom-provider";
import { providerDisplayName } from "../../shared/providers/provider-names";
import { LocalModelCard } from "./LocalModelCard";
import { AccountCard } from "./AccountCard";
import { errorText } from "../../shared/error-text";

interface SetupViewProps {
  settings: Settings;
  providerStatus: readonly ProviderStatus[];
  /** Called after a key or endpoint was added; `model` is a suggested default when the setup knows one. */
  onReady(model?: ModelRef): Promise<void>;
  /** Re-reads provider status (after the user set an environment variable and restarted, say). */
  onRecheck(): Promise<void>;
  onSkip(): void;
}

/** A few providers' usual variables, named as Settings names them. */
const ENV_VARS: [string, string][] = [
  ["anthropic", "ANTHROPIC_API_KEY"],
  ["openai", "OPENAI_API_KEY"],
  ["google", "GEMINI_API_KEY"],
  ["openrouter", "OPENROUTER_API_KEY"],
];

/** First launch with no usable model: four ways to get chatting, each one step. */
export function SetupView({ settings, providerStatus, onReady, onRecheck, onSkip }: SetupViewProps) {
  const { app } = useServices();
  // By display name, as Settings lists them (one source: shared/providers/provider-names.ts).
  const keyProviders = providerStatus
    .map((p) => p.provider)
    .filter((p) => customProviderId(p) === undefined)
    .map((id) => ({ id, name: providerDisplayName(id) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.id.localeCompare(b.id));
  const [provider, setProvider] = useState(keyProviders.some((p) => p.id === "anthropic") ? "anthropic" : keyProviders[0]?.id ?? "");
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const saveKey = () => run(async () => {
    await app.setApiKey(provider, key.trim());
    setKey("");
    await onReady();
  });

  return (
    <section className="setup" data-testid="setup-view" aria-labelledby="setup-title">
      <div className="setup-inner">
        <div className="empty-logo" aria-hidden="true">P</div>
        <h1 id="setup-title">Welcome to Paddock</h1>
        <p className="muted">Connect a model to start chatting. You can change this any time in Settings.</p>
        {error ? <div className="notice notice-error" role="alert">{error}</div> : null}

        <div className="setup-cards">
          <form className="setup-card" onSubmit={(e) => {
            e.preventDefault();
            if (key.trim() && provider) void saveKey();
          }}>
            <h2>Paste an API key</h2>
            <p className="muted">Stored encrypted on this computer; Paddock never shows it again.</p>
            <label>Provider
              <select value={provider} onChange={(e) => setProvider(e.target.value)} data-testid="setup-provider">
                {keyProviders.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
              </select>
            </label>
            <label>API key
              <input type="password" autoComplete="off" spellCheck={false} value={key} placeholder="sk-…"
                onChange={(e) => setKey(e.target.value)} data-testid="setup-key" />
            </label>
            <button type="submit" className="btn btn-primary" disabled={busy || !key.trim() || !provider}>Save key and start</button>
          </form>

          <AccountCard providerStatus={providerStatus} busy={busy} run={run} onReady={onReady} onRecheck={onRecheck} onError={setError} />

          <LocalModelCard settings={settings} busy={busy} run={run} onReady={onReady} />

          <div className="setup-card">
            <h2>Use an environment variable</h2>
            <p className="muted">
              If you already export a key in your shell, Paddock picks it up at launch. Set one of these, restart
              Paddock from that shell, then check again:
            </p>
            <ul className="env-list">
              {ENV_VARS.map(([id, env]) => <li key={env}><span>{providerDisplayName(id)}</span> <code>{env}</code></li>)}
            </ul>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void run(onRecheck)}>Check again</button>
          </div>
        </div>
        <button type="button" className="link-button" onClick={onSkip}>Skip for now</button>
      </div>
    </section>
  );
}
