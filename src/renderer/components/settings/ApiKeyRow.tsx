import { useState } from "react";
import type { ProviderStatus } from "../../../shared/protocol/app-api";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";
import { isCloudProvider } from "../../../shared/providers/cloud-settings";
import { AccountSignIn } from "./AccountSignIn";
import { CloudFields } from "./CloudFields";

interface ApiKeyRowProps {
  status: ProviderStatus;
  /** The provider's display name (shared/providers/provider-names.ts): the row's label. */
  name: string;
  onChanged(): void;
  onError(message: string): void;
}

const SOURCE_LABEL: Record<ProviderStatus["keySource"], string> = {
  settings: "Key saved",
  environment: "From environment",
  pi: "From pi's models.json",
  none: "Not set",
};

/**
 * Where a provider's key stands, in words: saved (for a custom endpoint, for which address), from the environment,
 * from pi's models.json, not set, or saved for an address the endpoint has left (that key is not used). Never the key.
 */
export function KeyStatus({ status }: { status: ProviderStatus }) {
  if (status.keySavedFor !== undefined) {
    return (
      <span className="key-status key-moved" data-testid="key-status">
        Key was saved for {status.keySavedFor}; enter it again for {status.origin ?? "the new address"}
      </span>
    );
  }
  const label = status.keySource === "settings" && status.origin
    ? `Key saved for ${status.origin}`
    : status.setUpBy === "account"
      ? (status.account?.expired ? "Sign-in expired" : "Signed in")
      : status.setUpBy === "cloud"
        ? "Set up"
        : SOURCE_LABEL[status.keySource];
  const expired = status.setUpBy === "account" && status.account?.expired !== undefined;
  return <span className={`key-status ${expired ? "key-moved" : `key-${status.keySource}`}`} data-testid="key-status">{label}</span>;
}

/**
 * A write-only key field: the key goes to main and is never read back; only whether one is set is shown. Below it,
 * where the provider has them, its account sign-in (AccountSignIn) and its fields beyond a key (CloudFields).
 */
export function ApiKeyRow({ status, name, onChanged, onError }: ApiKeyRowProps) {
  const { app } = useServices();
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const id = `key-${status.provider}`;

  const store = async (key: string | null) => {
    setBusy(true);
    try {
      await app.setApiKey(status.provider, key);
      setDraft("");
      onChanged();
    } catch (e) {
      onError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const extras = status.account || (status.cloud && isCloudProvider(status.provider)) ? (
    <div className="provider-extras" data-testid={`provider-extras-${status.provider}`}>
      {status.account ? (
        <AccountSignIn provider={status.provider} name={name} account={status.account} onChanged={onChanged} onError={onError} />
      ) : null}
      {status.cloud && isCloudProvider(status.provider) ? (
        <CloudFields provider={status.provider} name={name} status={status.cloud} onChanged={onChanged} />
      ) : null}
    </div>
  ) : null;

  return (
    <>
      <form className="field key-row" data-testid={`api-key-${status.provider}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.trim()) void store(draft.trim());
        }}>
        <div className="field-label">
          <label htmlFor={id}>{name}</label>
          <KeyStatus status={status} />
        </div>
        <div className="field-control key-control">
          <input id={id} type="password" autoComplete="off" spellCheck={false} value={draft}
            placeholder={status.keySource === "none" || status.setUpBy !== undefined ? "Paste API key" : "Replace key"}
            onChange={(e) => setDraft(e.target.value)} />
          <button type="submit" className="btn btn-secondary" disabled={busy || !draft.trim()}>Save</button>
          {status.keySource === "settings" && status.setUpBy === undefined ? (
            <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void store(null)}>Remove</button>
          ) : null}
        </div>
      </form>
      {extras}
    </>
  );
}
