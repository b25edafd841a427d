import { catalogProviders } from "./model-catalog";
/**
 * Custom endpoints' keys and the addresses they may go to. A key is bound to the origin (scheme, host, port) of its
 * endpoint's base URL when it is saved (secrets.ts stores the binding); main hands it out only for that origin. So:
 * - an endpoint whose URL moves to another origin gets no key until one is entered for the new address (Settings
 *   says which address the old key was saved for); moving back finds the old key again;
 * - a removed endpoint's key is removed with it (`orphanedKeys`), so a new endpoint under the same id starts keyless;
 * - a worker still holding a model resolved for the old address gets the key only for that old address, never the
 *   new address's key (main tells `keyOrigin` where the worker's model sends requests).
 * Pure functions over the settings' endpoint list and the secret store; no key ever leaves through them.
 */
import type { ProviderStatus } from "../../shared/protocol/app-api";
import { customProviderId, customProviderName, type CustomProvider } from "../../shared/providers/custom-provider";
import { apiKeySource, resolveApiKey, type EnvKeyLookup, type SecretStore } from "./secrets";

/** The origin (`scheme://host[:port]`) of an endpoint's address; undefined when it is not an http(s) URL. */
export function endpointOrigin(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The endpoint a provider name (`custom:<id>`) stands for, if it is configured. */
export function endpointOf(provider: string, endpoints: readonly CustomProvider[]): CustomProvider | undefined {
  const id = customProviderId(provider);
  return id === undefined ? undefined : endpoints.find((e) => e.id === id);
}

/**
 * The origin a custom endpoint's key would be sent to: that of `sentTo` (the base URL of the model a worker holds),
 * else that of the endpoint's current address; undefined when neither is known (the endpoint is gone), which matches
 * no stored key. Undefined for built-in providers, whose keys are unbound.
 */
export function keyOrigin(provider: string, sentTo: string | undefined, endpoints: readonly CustomProvider[]): string | undefined {
  if (customProviderId(provider) === undefined) return undefined;
  const url = sentTo ?? endpointOf(provider, endpoints)?.baseUrl;
  return url === undefined ? undefined : endpointOrigin(url);
}

/**
 * The key main hands a worker for `provider`'s requests to `sentTo` (the base URL of the worker's model, when main
 * resolved one for it): a built-in provider's as `resolveApiKey` finds it; a custom endpoint's only when it was saved
 * for that origin. The one place keys leave main for a worker.
 */
export function workerApiKey(
  provider: string,
  sentTo: string | undefined,
  secrets: Pick<SecretStore, "get">,
  endpoints: readonly CustomProvider[],
  env?: EnvKeyLookup,
): string | undefined {
  if (!isProviderKeyName(provider)) return undefined;
  return resolveApiKey(provider, secrets, { origin: keyOrigin(provider, sentTo, endpoints), ...(env ? { env } : {}) });
}

/**
 * Whether `name` is a provider's key (pi-ai's providers, custom endpoints): the secret store also holds MCP servers'
 * secrets, which neither a page nor a worker may reach through the key calls.
 */
export function isProviderKeyName(name: string): boolean {
  return customProviderId(name) !== undefined || catalogProviders().includes(name);
}

/** Stored custom-endpoint keys whose endpoint is no longer configured: they go with their endpoint. */
export function orphanedKeys(stored: readonly string[], endpoints: readonly CustomProvider[]): string[] {
  return stored.filter((provider) => customProviderId(provider) !== undefined && endpointOf(provider, endpoints) === undefined);
}

/**
 * Settings' view of an endpoint's key: set for its address, not set, or saved for another address (`keySavedFor`,
 * unused here). Never the key itself.
 */
export function endpointKeyStatus(endpoint: CustomProvider, secrets: Pick<SecretStore, "get" | "boundOrigin">): ProviderStatus {
  const provider = customProviderName(endpoint.id);
  const origin = endpointOrigin(endpoint.baseUrl);
  const status: ProviderStatus = { provider, keySource: apiKeySource(provider, secrets, { origin }), ...(origin ? { origin } : {}) };
  const bound = secrets.boundOrigin(provider);
  return bound !== undefined && bound !== origin ? { ...status, keySavedFor: bound } : status;
}
