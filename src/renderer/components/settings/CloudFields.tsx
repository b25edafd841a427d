import { useState } from "react";
import { CLOUD_FIELDS, type CloudProviderId, type CloudStatus } from "../../../shared/providers/cloud-settings";
import { errorText } from "../../../shared/error-text";
import { useServices } from "../../context/ServicesContext";

interface CloudFieldsProps {
  provider: CloudProviderId;
  /** The provider's display name (provider-names.ts). */
  name: string;
  status: CloudStatus;
  onChanged(): void;
}

/** What the fields are for, in a line. */
const SUMMARY: Record<CloudProviderId, string> = {
  "amazon-bedrock": "Region, and a profile or an access key (or the API key above, a Bedrock bearer token)",
  "google-vertex": "Project, location and credentials (the API key above is optional)",
  azure: "Resource or base URL, deployment and API version (with the API key above)",
};

/**
 * A cloud provider's fields beyond its key (shared/providers/cloud-settings.ts): plain fields show their values,
 * secret ones are write-only (the page learns only whether each is set) and can be removed. Saved together by main,
 * which checks them (a credentials file must be a regular JSON key file) and says every problem in words; nothing is
 * saved then, and what was typed stays.
 */
export function CloudFields({ provider, name, status, onChanged }: CloudFieldsProps) {
  const { app } = useServices();
  const fields = CLOUD_FIELDS[provider];
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...status.fields }));
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const configured = Object.values(status.fields).some(Boolean) || status.secretsSet.length > 0;

  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const secretChange: Record<string, string | null> = {};
      for (const name of removed) secretChange[name] = null;
      for (const [name, value] of Object.entries(secrets)) if (value.trim()) secretChange[name] = value.trim();
      await app.setCloudProvider(provider, { fields: values, secrets: secretChange });
      setSecrets({});
      setRemoved(new Set());
      setSaved(true);
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="cloud-fields" data-testid={`cloud-${provider}`} open={configured || undefined}>
      <summary>{name} settings <span className="muted">· {SUMMARY[provider]}</span></summary>
      <form onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}>
        <div className="grid-2">
          {fields.map((field) => {
            const id = `cloud-${provider}-${field.name}`;
            if (!field.secret) {
              return (
                <label key={field.name} htmlFor={id}>
                  {field.label}
                  <input id={id} type="text" autoComplete="off" spellCheck={false} value={values[field.name] ?? ""}
                    placeholder={field.placeholder} onChange={(e) => setValues((v) => ({ ...v, [field.name]: e.target.value }))} />
                  {field.hint ? <span className="field-hint">{field.hint}</span> : null}
                </label>
              );
            }
            const isSet = status.secretsSet.includes(field.name) && !removed.has(field.name);
            return (
              <label key={field.name} htmlFor={id}>
                <span>
                  {field.label}{" "}
                  {isSet ? <span className="key-status key-settings" data-testid={`secret-set-${field.name}`}>Saved</span> : null}
                </span>
                <span className="cloud-secret">
                  <input id={id} type="password" autoComplete="off" spellCheck={false} value={secrets[field.name] ?? ""}
                    placeholder={isSet ? "Type to replace" : field.placeholder ?? "Not set"}
                    onChange={(e) => setSecrets((s) => ({ ...s, [field.name]: e.target.value }))} />
                  {isSet ? (
                    <button type="button" className="btn btn-ghost" onClick={() => setRemoved((r) => new Set(r).add(field.name))}>Remove</button>
                  ) : null}
                </span>
                {field.hint ? <span className="field-hint">{field.hint}</span> : null}
              </label>
            );
          })}
        </div>
        {error ? <div className="notice notice-error" role="alert" data-testid="cloud-error">{error}</div> : null}
        <div className="row-actions">
          {saved && !error ? <span className="muted" data-testid="cloud-saved">Saved.</span> : null}
          <button type="submit" className="btn btn-secondary" disabled={busy}>Save {name} settings</button>
        </div>
      </form>
    </details>
  );
}
