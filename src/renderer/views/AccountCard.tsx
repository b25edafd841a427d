import { useState } from "react";
import type { ModelRef, ProviderStatus } from "../../shared/protocol/app-api";
import { providerDisplayName } from "../../shared/providers/provider-names";
import { useServices } from "../context/ServicesContext";
import { AccountSignIn } from "../components/settings/AccountSignIn";

interface AccountCardProps {
  providerStatus: readonly ProviderStatus[];
  busy: boolean;
  run(work: () => Promise<void>): Promise<void>;
  /** After signing in: a model of that provider, to chat with at once. */
  onReady(model?: ModelRef): Promise<void>;
  /** Re-reads the providers' status (after signing out). */
  onRecheck(): Promise<void>;
  onError(message: string): void;
}

/**
 * The welcome setup's "Sign in with an account": a subscription the user already has (GitHub Copilot, ChatGPT,
 * Claude Pro/Max...), by display name as Settings names it, signed in as in Settings (AccountSignIn). Once signed in,
 * the setup ends with one of that provider's models.
 */
export function AccountCard({ providerStatus, busy, run, onReady, onRecheck, onError }: AccountCardProps) {
  const { app } = useServices();
  const accounts = providerStatus
    .filter((p) => p.account !== undefined)
    .map((status) => ({ status, name: providerDisplayName(status.provider) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }));
  const [provider, setProvider] = useState(accounts.some((a) => a.status.provider === "github-copilot") ? "github-copilot" : accounts[0]?.status.provider ?? "");
  const chosen = accounts.find((a) => a.status.provider === provider);
  if (accounts.length === 0) return null;

  const signedIn = () => run(async () => {
    const models = await app.listModels();
    const model = models.find((m) => m.provider === provider);
    await onReady(model ? { provider: model.provider, id: model.id } : undefined);
  });

  return (
    <div className="setup-card setup-account" data-testid="setup-account">
      <h2>Sign in with an account</h2>
      <p className="muted">Use a subscription you already have. The sign-in page opens in your browser; Paddock keeps the account on this computer.</p>
      <label>Account
        <select value={provider} disabled={busy} onChange={(e) => setProvider(e.target.value)} data-testid="setup-account-provider">
          {accounts.map((a) => <option key={a.status.provider} value={a.status.provider}>{a.name}</option>)}
        </select>
      </label>
      {chosen?.status.account ? (
        <AccountSignIn key={provider} provider={provider} name={chosen.name} account={chosen.status.account}
          onChanged={() => void onRecheck()} onSignedIn={() => void signedIn()} onError={onError} />
      ) : null}
    </div>
  );
}
