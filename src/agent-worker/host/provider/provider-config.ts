/**
 * What a model request carries besides its key: the cloud providers' settings (Bedrock's region and credentials,
 * Vertex's project, location and credentials file, Azure's address, deployment and API version), which main gives as
 * pi-ai 1.6.0's provider-scoped environment values (`options.env`, read by its API modules before `process.env`).
 *
 * Main is asked with the key, before each request to such a provider (`fetch`), and the answer is kept for that provider and model
 * until the next: the stream function, which must answer synchronously, adds it to the request's options. The values
 * (secrets among them) live only in this object and the request: never in the worker's environment, so no command a
 * tool runs can print them (shared/security/secret-environment.ts).
 */
import type { Api, Model, SimpleStreamOptions } from "@earendil-works/pi-ai";
import type { ProviderRequestConfig } from "../../../shared/protocol/control-protocol";
import { AMBIENT_CREDENTIALS, isCloudProvider } from "../../../shared/providers/cloud-settings";

export class ProviderConfigs {
  readonly #latest = new Map<string, Record<string, string>>();

  constructor(private readonly fetch: (provider: string, modelId: string) => Promise<ProviderRequestConfig | undefined>) {}

  /** Asks main for the request config of `modelId` of `provider` and keeps it (none, on any failure). */
  async refresh(provider: string, modelId: string): Promise<void> {
    if (!isCloudProvider(provider)) return; // the others have nothing but a key: no round trip
    const config = await this.fetch(provider, modelId).catch(() => undefined);
    const key = keyOf(provider, modelId);
    if (config && Object.keys(config.env).length > 0) this.#latest.set(key, config.env);
    else this.#latest.delete(key);
  }

  /**
   * The request's options for `model`: the kept environment values beneath any the caller set, and without pi-ai's
   * AMBIENT_CREDENTIALS marker as the key (main's answer for credentials that are not a key): Vertex skips it, but
   * Bedrock would send it as a bearer token, in place of the profile or access key it should sign with.
   */
  options<T extends SimpleStreamOptions | undefined>(model: Model<Api>, options: T): T {
    const env = this.#latest.get(keyOf(model.provider, model.id));
    const ambient = options?.apiKey === AMBIENT_CREDENTIALS;
    if (!env && !ambient) return options;
    const { apiKey, ...rest } = options ?? {};
    return { ...rest, ...(ambient ? {} : { apiKey }), ...(env ? { env: { ...env, ...options?.env } } : {}) } as T;
  }
}

function keyOf(provider: string, modelId: string): string {
  return `${provider}\u0000${modelId}`;
}
