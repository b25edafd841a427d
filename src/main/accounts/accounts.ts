/**
 * Main's one view of how a built-in provider is signed in beyond a plain key: a signed-in account (account-tokens.ts,
 * sign-in.ts), or a cloud provider's fields (cloud-config.ts). It answers what Settings show for a provider, the key
 * a worker's request gets, and the request's provider config. Which credential is used, first to last: a key saved in
 * Settings, a signed-in account, the cloud fields (pi-ai's AMBIENT_CREDENTIALS marker), the environment. Signing in
 * removes a saved key and saving a key signs out (one credential per provider, as in pi). Electron-free.
 */
import { randomUUID } from "node:crypto";
import type { AccountInfo, SignInState } from "../../shared/protocol/accounts";
import type { ProviderStatus } from "../../shared/protocol/app-api";
import type { ProviderRequestConfig } from "../../shared/protocol/control-protocol";
import { isCloudProvider, type CloudProviderChange } from "../../shared/providers/cloud-settings";
import { customProviderId } from "../../shared/providers/custom-provider";
import type { SecretStore } from "../broker/secrets";
import type { SettingsStore } from "../broker/settings-store";
import { AccountTokens } from "./account-tokens";
import { CloudConfig } from "./cloud-config";
import { piOAuthFlows, SIGN_IN_TERMS, type OAuthFlows } from "./oauth-providers";
import { SignIns } from "./sign-in";

/** Where this installation's id (sent by sign-ins that ask for one) is kept. */
const DEVICE_ID_SECRET = "accounts:device-id";

export interface AccountsOptions {
  settings: Pick<SettingsStore, "get" | "setCloudProviders">;
  secrets: SecretStore;
  /** The sign-in flows; default pi-ai's (oauth-providers.ts). Tests give stand-ins. */
  flows?: () => OAuthFlows;
  openExternal?(url: string): void;
  /** A sign-in's states, for every page. */
  onSignInState(state: SignInState): void;
  /** Something the user should hear of once (a refresh that failed). */
  notify?(text: string): void;
  now?: () => number;
  applicationDefaultCredentials?: string;
}

export class Accounts {
  readonly cloud: CloudConfig;
  readonly tokens: AccountTokens;
  readonly signIns: SignIns;
  readonly #flows: () => OAuthFlows;
  #deviceId: string | undefined;

  constructor(private readonly options: AccountsOptions) {
    this.#flows = options.flows ?? piOAuthFlows;
    this.cloud = new CloudConfig({
      settings: options.settings,
      secrets: options.secrets,
      ...(options.applicationDefaultCredentials ? { applicationDefaultCredentials: options.applicationDefaultCredentials } : {}),
    });
    this.tokens = new AccountTokens({
      secrets: options.secrets,
      flows: this.#flows,
      ...(options.now ? { now: options.now } : {}),
      onRefreshFailed: (_provider, reason) => options.notify?.(`${reason}.`),
    });
    this.signIns = new SignIns({
      flows: this.#flows,
      tokens: this.tokens,
      onState: options.onSignInState,
      // One credential per provider: the account replaces a saved key.
      onSignedIn: (provider) => options.secrets.set(provider, null),
      deviceId: () => this.#installationId(),
      ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    });
  }

  /** Learns the signed-in accounts' addresses (see `requestModel`); at start. */
  async warmUp(): Promise<void> {
    await Promise.all([...this.#flows().keys()].filter((p) => this.tokens.signedIn(p)).map((p) => this.tokens.learnAddress(p)));
  }

  /**
   * `model` as a worker's requests should see it: for a signed-in account whose flow names its own API address
   * (GitHub Copilot Business or Enterprise), that address; otherwise `model` itself.
   */
  requestModel<M extends { provider: string; baseUrl: string }>(model: M): M {
    const url = this.tokens.baseUrl(model.provider);
    return url && url !== model.baseUrl ? { ...model, baseUrl: url } : model;
  }

  /** Whether `provider` offers an account sign-in. */
  hasSignIn(provider: string): boolean {
    return this.#flows().has(provider);
  }

  /** Settings' view of a built-in provider's account and cloud fields (never a token or secret). */
  status(provider: string): Pick<ProviderStatus, "account" | "cloud"> {
    const flow = this.#flows().get(provider);
    const account: AccountInfo | undefined = flow && {
      name: flow.name,
      ...(flow.loginLabel ? { loginLabel: flow.loginLabel } : {}),
      subscription: flow.isSubscription === true,
      ...(SIGN_IN_TERMS[provider] ? { terms: SIGN_IN_TERMS[provider] } : {}),
      signedIn: this.tokens.signedIn(provider),
      ...(this.tokens.expired(provider) ? { expired: this.tokens.expired(provider) } : {}),
    };
    return { ...(account ? { account } : {}), ...(isCloudProvider(provider) ? { cloud: this.cloud.status(provider) } : {}) };
  }

  /** Whether a credential of its own (an account, the cloud fields) makes the provider usable without a key. */
  configured(provider: string): boolean {
    return this.tokens.signedIn(provider) || this.cloud.configured(provider);
  }

  /**
   * The key for a worker's request to a built-in `provider`, in the order above; `otherwise` is the saved key or
   * the environment's (endpoint-keys.ts's `workerApiKey`). Custom endpoints go straight to `otherwise`.
   */
  async workerKey(provider: string, otherwise: () => string | undefined): Promise<string | undefined> {
    if (customProviderId(provider) !== undefined || this.options.secrets.get(provider) !== undefined) return otherwise();
    if (this.tokens.signedIn(provider)) {
      const token = await this.tokens.apiKey(provider);
      if (token !== undefined) return token;
    }
    return this.cloud.ambientKey(provider) ?? otherwise();
  }

  /** The provider config a worker's request to `modelId` carries (the cloud fields as pi-ai's env values). */
  requestConfig(provider: string, modelId: string): ProviderRequestConfig | undefined {
    const env = this.cloud.environment(provider, modelId);
    return Object.keys(env).length > 0 ? { env } : undefined;
  }

  saveCloud(provider: string, change: CloudProviderChange): Promise<void> {
    return this.cloud.save(provider, change);
  }

  /** A saved key replaces a signed-in account (one credential per provider). */
  keySaved(provider: string): void {
    if (this.tokens.signedIn(provider)) this.tokens.signOut(provider);
  }

  signOut(provider: string): void {
    if (!this.hasSignIn(provider)) throw new Error(`${provider.slice(0, 60)} has no account sign-in.`);
    this.tokens.signOut(provider);
  }

  /** The installation's stable id (kept with the secrets; a fresh one per run where nothing can be stored). */
  #installationId(): string {
    this.#deviceId ??= this.options.secrets.get(DEVICE_ID_SECRET);
    if (this.#deviceId === undefined) {
      this.#deviceId = randomUUID();
      try {
        this.options.secrets.set(DEVICE_ID_SECRET, this.#deviceId);
      } catch {
        // No secure storage here: the id lives for this run.
      }
    }
    return this.#deviceId;
  }
}
