/**
 * Signed-in accounts' tokens, held by main in its secret store (encrypted at rest, like keys) as pi-ai's
 * `OAuthCredential` JSON under `oauth:<provider>`, and handed out as a request key: refreshed here, in main, before
 * use when expired (one refresh at a time per provider, so two chats starting together do not both spend a refresh
 * token that rotates), then turned into request auth by the flow's `toAuth`. A worker receives only the access token,
 * through `getApiKey`; never the refresh token.
 *
 * One credential per provider, as in pi's auth storage: signing in replaces a saved API key, saving a key signs out
 * (app-service.ts). Electron-free.
 */
import type { OAuthAuth, OAuthCredential } from "@earendil-works/pi-ai";
import type { SecretStore } from "../broker/secrets";
import { providerDisplayName } from "../../shared/providers/provider-names";
import type { OAuthFlows } from "./oauth-providers";

/** The secret store's name for a provider's signed-in account. */
export function accountSecretName(provider: string): string {
  return `oauth:${provider}`;
}

export interface AccountTokensOptions {
  secrets: Pick<SecretStore, "get" | "set" | "has">;
  flows: () => OAuthFlows;
  now?: () => number;
  /** Told when a refresh fails (the user must sign in again), in words. */
  onRefreshFailed?(provider: string, reason: string): void;
}

export class AccountTokens {
  readonly #refreshing = new Map<string, Promise<OAuthCredential | undefined>>();
  /** Providers whose last refresh failed, and why (cleared by signing in or out). */
  readonly #expired = new Map<string, string>();
  /** Where an account's requests go, when its flow says (`toAuth`'s baseUrl: GitHub Copilot's plan or enterprise). */
  readonly #baseUrls = new Map<string, string>();

  constructor(private readonly options: AccountTokensOptions) {}

  signedIn(provider: string): boolean {
    return this.options.secrets.has(accountSecretName(provider));
  }

  /** Why the account's token could not be refreshed (it must sign in again); undefined when it is fine. */
  expired(provider: string): string | undefined {
    return this.#expired.get(provider);
  }

  /** Stores a fresh sign-in's credential. */
  store(provider: string, credential: OAuthCredential): void {
    this.options.secrets.set(accountSecretName(provider), JSON.stringify(credential));
    this.#expired.delete(provider);
    void this.learnAddress(provider);
  }

  signOut(provider: string): void {
    this.options.secrets.set(accountSecretName(provider), null);
    this.#expired.delete(provider);
    this.#baseUrls.delete(provider);
  }

  /**
   * The address a signed-in account's requests go to when it is not the catalogue's (GitHub Copilot Business or
   * Enterprise: its token names its own API host); undefined otherwise, or before it is known. Learnt from the stored
   * credential (`learnAddress`, at start and sign-in) and with every key handed out.
   */
  baseUrl(provider: string): string | undefined {
    return this.#baseUrls.get(provider);
  }

  /** Learns `provider`'s address from its stored credential, as its flow's `toAuth` derives it (no network). */
  async learnAddress(provider: string): Promise<void> {
    const flow = this.options.flows().get(provider);
    const credential = this.#read(provider);
    if (!flow || !credential) return;
    try {
      this.#remember(provider, await flow.toAuth(credential));
    } catch {
      // The flow could not say: requests go to the catalogue's address.
    }
  }

  #remember(provider: string, auth: { baseUrl?: string }): void {
    if (auth.baseUrl) this.#baseUrls.set(provider, auth.baseUrl);
    else this.#baseUrls.delete(provider);
  }

  /**
   * The key a worker's request to `provider` uses: the account's access token (what the flow's `toAuth` gives as the
   * key), refreshed first when it has expired. Undefined when nobody is signed in, the stored credential cannot be
   * read, the refresh fails (then `expired` says why), or the flow gives no key. Never throws.
   */
  async apiKey(provider: string): Promise<string | undefined> {
    const flow = this.options.flows().get(provider);
    if (!flow || !this.signedIn(provider)) return undefined;
    const credential = await this.#current(provider, flow);
    if (!credential) return undefined;
    try {
      const auth = await flow.toAuth(credential);
      this.#remember(provider, auth);
      return auth.apiKey;
    } catch {
      return undefined;
    }
  }

  /** The stored credential, refreshed (and stored) when expired; concurrent callers share one refresh. */
  async #current(provider: string, flow: OAuthAuth): Promise<OAuthCredential | undefined> {
    const stored = this.#read(provider);
    if (!stored) return undefined;
    const now = (this.options.now ?? Date.now)();
    if (now < stored.expires) return stored;
    let pending = this.#refreshing.get(provider);
    if (!pending) {
      pending = (async () => {
        try {
          const fresh = await flow.refresh(stored, AbortSignal.timeout(30_000));
          // Signed out (or in again) while refreshing: what is stored now wins.
          if (this.#read(provider)?.refresh !== stored.refresh) return this.#read(provider);
          this.store(provider, { ...fresh, type: "oauth" });
          return fresh;
        } catch (error) {
          const reason = `Signing in to ${providerDisplayName(provider)} has expired; sign in again (${error instanceof Error ? error.message.slice(0, 200) : "the refresh failed"})`;
          this.#expired.set(provider, reason);
          this.options.onRefreshFailed?.(provider, reason);
          return undefined;
        } finally {
          this.#refreshing.delete(provider);
        }
      })();
      this.#refreshing.set(provider, pending);
    }
    return pending;
  }

  /** The stored credential when it is one (a damaged entry reads as none). */
  #read(provider: string): OAuthCredential | undefined {
    const text = this.options.secrets.get(accountSecretName(provider));
    if (text === undefined) return undefined;
    try {
      const value = JSON.parse(text) as Partial<OAuthCredential>;
      if (typeof value.access === "string" && typeof value.refresh === "string" && typeof value.expires === "number") {
        return { ...value, type: "oauth" } as OAuthCredential;
      }
    } catch {
      // fall through: unreadable
    }
    return undefined;
  }
}
