/**
 * Amazon Bedrock's, Google Vertex AI's and Azure OpenAI's fields beyond a key, on main's side: saving a page's change
 * (non-secret fields to settings, secret ones to the secret store, a Vertex credentials file checked on disk first),
 * what Settings shows of them (values, and only whether each secret is set), and the environment values a worker's
 * request to such a provider carries (`options.env` of pi-ai 1.6.0, which its API modules read before `process.env`).
 *
 * Those values, secrets included, reach a worker only for its model requests, through main's control channel
 * (`getProviderConfig`), and stay in the worker's memory: never in its process environment, so no command a tool runs
 * can print them (shared/security/secret-environment.ts). Electron-free.
 */
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { existsSync } from "node:fs";
import { readRegularFile } from "../../shared-node/regular-file";
import {
  AMBIENT_CREDENTIALS,
  CLOUD_FIELDS,
  cloudChangeProblems,
  cloudEnvironment,
  cloudSecretName,
  isCloudProvider,
  type CloudProviderChange,
  type CloudProviderId,
  type CloudProvidersSettings,
  type CloudStatus,
} from "../../shared/providers/cloud-settings";
import type { SecretStore } from "../broker/secrets";
import type { SettingsStore } from "../broker/settings-store";

/** A service account's key file is a few KB; anything far larger is not one. */
const MAX_CREDENTIALS_BYTES = 256 * 1024;

export interface CloudConfigOptions {
  settings: Pick<SettingsStore, "get" | "setCloudProviders">;
  secrets: Pick<SecretStore, "get" | "set" | "has" | "forget">;
  /** Where gcloud's application default credentials are looked for; default `~/.config/gcloud/...`. */
  applicationDefaultCredentials?: string;
}

export class CloudConfig {
  constructor(private readonly options: CloudConfigOptions) {}

  /**
   * Applies a page's change to `provider`'s fields: every problem in words (bad values, a credentials file that is
   * missing, a link to something else than a regular file, a FIFO, not a JSON key file) rejects the whole change and
   * nothing is saved. Secrets are stored (or, with null or "", removed) first: where the system offers no secure
   * storage that fails, saying so, before any setting changed.
   */
  async save(provider: string, change: CloudProviderChange): Promise<void> {
    if (!isCloudProvider(provider)) throw new Error(`${provider.slice(0, 60)} has no settings beyond its key.`);
    const problems = cloudChangeProblems(provider, change);
    const fields = Object.fromEntries(Object.entries(change.fields).map(([k, v]) => [k, v.trim()]));
    if (problems.length === 0 && fields.credentialsFile) {
      const checked = await checkCredentialsFile(fields.credentialsFile);
      if (typeof checked === "string") fields.credentialsFile = checked;
      else problems.push(checked.problem);
    }
    if (problems.length > 0) throw new Error(problems.join("; "));
    const current: CloudProvidersSettings = this.options.settings.get().cloudProviders ?? {};
    const merged = Object.fromEntries(
      Object.entries({ ...current[provider], ...fields }).filter(([, v]) => typeof v === "string" && v !== ""),
    );
    const next: CloudProvidersSettings = { ...current };
    if (Object.keys(merged).length > 0) (next as Record<string, unknown>)[provider] = merged;
    else delete next[provider];
    for (const [name, value] of Object.entries(change.secrets)) {
      const trimmed = value?.trim();
      this.options.secrets.set(cloudSecretName(provider, name), trimmed ? trimmed : null);
    }
    this.options.settings.setCloudProviders(next);
  }

  /** Settings' view: the non-secret values ("" for unset) and which secrets are set. */
  status(provider: CloudProviderId): CloudStatus {
    const saved = (this.options.settings.get().cloudProviders?.[provider] ?? {}) as Record<string, string | undefined>;
    const fields: Record<string, string> = {};
    const secretsSet: string[] = [];
    for (const field of CLOUD_FIELDS[provider]) {
      if (field.secret) {
        if (this.options.secrets.has(cloudSecretName(provider, field.name))) secretsSet.push(field.name);
      } else {
        fields[field.name] = saved[field.name] ?? "";
      }
    }
    return { fields, secretsSet };
  }

  /**
   * The environment values a worker's request to `modelId` of `provider` carries (empty: none set, or not a cloud
   * provider). Holds secrets: only for the worker's model call.
   */
  environment(provider: string, modelId: string): Record<string, string> {
    if (!isCloudProvider(provider)) return {};
    const fields = this.options.settings.get().cloudProviders?.[provider] as Record<string, string | undefined> | undefined;
    return cloudEnvironment(provider, fields, (field) => this.options.secrets.get(cloudSecretName(provider, field)), modelId);
  }

  /**
   * Whether Settings configure the provider well enough to try without a key: Bedrock with a profile or an access key
   * and its secret; Vertex with project and location (its credentials file, or gcloud's default one, authenticates).
   * Azure always needs its key. Such a provider's `getApiKey` answers pi-ai's AMBIENT_CREDENTIALS marker.
   */
  configured(provider: string): boolean {
    const env = this.environment(provider, "");
    if (provider === "amazon-bedrock") return Boolean(env.AWS_PROFILE || (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY));
    if (provider === "google-vertex") {
      const file = env.GOOGLE_APPLICATION_CREDENTIALS ?? this.options.applicationDefaultCredentials ?? join(homedir(), ".config", "gcloud", "application_default_credentials.json");
      return Boolean(env.GOOGLE_CLOUD_PROJECT && env.GOOGLE_CLOUD_LOCATION && existsSync(file));
    }
    return false;
  }

  /** The key the worker gets when no key is stored: the marker, for a provider configured here. */
  ambientKey(provider: string): string | undefined {
    return this.configured(provider) ? AMBIENT_CREDENTIALS : undefined;
  }
}

/**
 * A Vertex credentials file, checked: the path's real path (links followed, as the SDK will) must be a regular file
 * (never a FIFO, device or folder, which would hang or fail the SDK's read in the worker), at most 256 KB, holding a
 * JSON object with a credential `type` (service_account, authorized_user, external_account...). Answers the real
 * path, which is what is saved (so the file checked is the file read), or the problem in words. Never throws.
 */
export async function checkCredentialsFile(path: string): Promise<string | { problem: string }> {
  const said = `Credentials file ${path.slice(0, 300)}`;
  if (!isAbsolute(path)) return { problem: `${said}: must be a full path` };
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: `${said}: ${code === "ENOENT" ? "there is no such file" : code === "EACCES" ? "cannot be read (permission denied)" : "cannot be read"}` };
  }
  const read = await readRegularFile(real, { maxBytes: MAX_CREDENTIALS_BYTES, real: true });
  if (!read.ok) return { problem: `${said}: is ${read.kind === "missing" ? "missing" : read.reason}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return { problem: `${said}: is not a JSON key file` };
  }
  const type = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as { type?: unknown }).type : undefined;
  if (typeof type !== "string" || type.length === 0) return { problem: `${said}: is not a Google credentials file (it has no "type")` };
  return real;
}
