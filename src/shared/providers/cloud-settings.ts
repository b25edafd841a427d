/**
 * The cloud providers that need more than a key (Amazon Bedrock, Google Vertex AI, Azure OpenAI): their fields, which
 * of them are secret, and the pi-ai 1.6.0 setting each one becomes. pi-ai's API modules read these as provider-scoped
 * environment values (`options.env`, which wins over `process.env`): `bedrock-converse-stream.js` reads `AWS_REGION`,
 * `AWS_PROFILE`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`; `google-vertex.js` reads
 * `GOOGLE_CLOUD_PROJECT`, `GOOGLE_CLOUD_LOCATION`, `GOOGLE_APPLICATION_CREDENTIALS`; `azure-openai-config.js` reads
 * `AZURE_OPENAI_BASE_URL`, `AZURE_OPENAI_RESOURCE_NAME`, `AZURE_OPENAI_API_VERSION`, `AZURE_OPENAI_DEPLOYMENT_NAME_MAP`.
 *
 * Non-secret fields live in settings (`cloudProviders`); secret ones only in main's secret store, under
 * `cloudSecretName(provider, field)`. A page sees the non-secret values and whether each secret is set, never a secret.
 * Pure: no Node, DOM or Electron, so main, the page and the schema share the one list.
 */
import { Type, type Static } from "typebox";

/** What pi-ai's providers take in place of a key when the credentials are not a key (ambient, a profile, a file). */
export const AMBIENT_CREDENTIALS = "<authenticated>";

export const CLOUD_PROVIDERS = ["amazon-bedrock", "google-vertex", "azure"] as const;
export type CloudProviderId = (typeof CLOUD_PROVIDERS)[number];

export interface CloudField {
  /** The field's name in settings (or in the secret's name). */
  name: string;
  label: string;
  /** Secret: kept only in main's secret store, write-only in the page. */
  secret: boolean;
  /** The pi-ai environment value the field becomes (Azure's deployment is mapped per model, see `cloudEnvironment`). */
  env: string;
  placeholder?: string;
  /** A line under the field, in words. */
  hint?: string;
}

export const CLOUD_FIELDS: Readonly<Record<CloudProviderId, readonly CloudField[]>> = {
  "amazon-bedrock": [
    { name: "region", label: "Region", secret: false, env: "AWS_REGION", placeholder: "us-east-1" },
    { name: "profile", label: "AWS profile", secret: false, env: "AWS_PROFILE", placeholder: "default", hint: "A profile from ~/.aws/config; or the access key below" },
    { name: "accessKeyId", label: "Access key ID", secret: false, env: "AWS_ACCESS_KEY_ID", placeholder: "AKIA…" },
    { name: "secretAccessKey", label: "Secret access key", secret: true, env: "AWS_SECRET_ACCESS_KEY" },
    { name: "sessionToken", label: "Session token", secret: true, env: "AWS_SESSION_TOKEN", hint: "Only for temporary credentials" },
  ],
  "google-vertex": [
    { name: "project", label: "Project", secret: false, env: "GOOGLE_CLOUD_PROJECT", placeholder: "my-project-123" },
    { name: "location", label: "Location", secret: false, env: "GOOGLE_CLOUD_LOCATION", placeholder: "us-central1" },
    {
      name: "credentialsFile", label: "Credentials file", secret: false, env: "GOOGLE_APPLICATION_CREDENTIALS",
      placeholder: "/home/me/service-account.json", hint: "A service account's JSON key file; empty: gcloud's application default credentials",
    },
  ],
  azure: [
    { name: "resourceName", label: "Resource name", secret: false, env: "AZURE_OPENAI_RESOURCE_NAME", placeholder: "my-resource", hint: "Or a base URL below" },
    { name: "baseUrl", label: "Base URL", secret: false, env: "AZURE_OPENAI_BASE_URL", placeholder: "https://my-resource.openai.azure.com/openai/v1" },
    {
      name: "deployment", label: "Deployment", secret: false, env: "AZURE_OPENAI_DEPLOYMENT_NAME_MAP", placeholder: "my-gpt-deployment",
      hint: "One deployment for every model, or model=deployment pairs separated by commas",
    },
    { name: "apiVersion", label: "API version", secret: false, env: "AZURE_OPENAI_API_VERSION", placeholder: "v1" },
  ],
};

/** Whether `provider` is one of the providers with fields of their own. */
export function isCloudProvider(provider: string): provider is CloudProviderId {
  return (CLOUD_PROVIDERS as readonly string[]).includes(provider);
}

/** The secret store's name for a cloud provider's secret field (never a provider key name, so no page can read it). */
export function cloudSecretName(provider: CloudProviderId, field: string): string {
  return `cloud:${provider}:${field}`;
}

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** Settings' `cloudProviders`: each provider's non-secret fields ("" or absent: not set). */
export const CloudProvidersSettingsSchema = Type.Object(
  {
    "amazon-bedrock": Type.Optional(Type.Object({ region: Text(64), profile: Text(128), accessKeyId: Text(128) }, { additionalProperties: false })),
    "google-vertex": Type.Optional(Type.Object({ project: Text(128), location: Text(64), credentialsFile: Text(4096) }, { additionalProperties: false })),
    azure: Type.Optional(Type.Object({ resourceName: Text(128), baseUrl: Text(2048), deployment: Text(2048), apiVersion: Text(64) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type CloudProvidersSettings = Static<typeof CloudProvidersSettingsSchema>;

/** What Settings shows of a cloud provider: its non-secret values ("" for unset), and which secrets are set. Never a secret. */
export interface CloudStatus {
  fields: Record<string, string>;
  secretsSet: string[];
}

/** A page's change to one provider's fields: a value per field ("" clears), and for a secret field a new value or null (remove). */
export interface CloudProviderChange {
  fields: Record<string, string>;
  secrets: Record<string, string | null>;
}

const PATTERNS: Record<string, [RegExp, string]> = {
  region: [/^[a-z]{2}(-[a-z]+)+-\d+$/, "an AWS region such as us-east-1"],
  profile: [/^[\w.+@-]+$/, "a profile name (letters, digits, . _ + @ -)"],
  accessKeyId: [/^[A-Z0-9]{16,128}$/, "an access key ID (capital letters and digits)"],
  project: [/^([a-z0-9.-]+:)?[a-z][a-z0-9-]{4,61}[a-z0-9]$/, "a project ID (lower-case letters, digits and -)"],
  location: [/^[a-z]+(-[a-z0-9]+)*$/, "a location such as us-central1 or global"],
  resourceName: [/^[A-Za-z0-9][A-Za-z0-9-]{0,126}$/, "a resource name (letters, digits and -)"],
  deployment: [/^[\w.-]+$|^[\w.:/-]+=[\w.-]+(\s*,\s*[\w.:/-]+=[\w.-]+)*$/, "a deployment name, or model=deployment pairs separated by commas"],
  apiVersion: [/^[\w.-]{1,64}$/, "an API version such as v1 or 2025-04-01-preview"],
};

/**
 * What is wrong with a change to `provider`'s fields, in words (empty: nothing): unknown fields, values of the wrong
 * shape, a base URL that is not http(s), a credentials file path that is not absolute. Whether that file exists and
 * is a regular file only main can say (main/accounts/cloud-config.ts). Pure.
 */
export function cloudChangeProblems(provider: CloudProviderId, change: CloudProviderChange): string[] {
  const problems: string[] = [];
  const fields = new Map(CLOUD_FIELDS[provider].map((f) => [f.name, f]));
  for (const [name, raw] of Object.entries(change.fields)) {
    const field = fields.get(name);
    if (!field || field.secret) {
      problems.push(`${provider} has no setting "${name.slice(0, 60)}"`);
      continue;
    }
    const value = raw.trim();
    if (value === "") continue;
    if (name === "baseUrl") {
      if (!/^https?:\/\/[^\s]+$/i.test(value) || !URL.canParse(value)) problems.push(`${field.label}: must be an http(s) address`);
      continue;
    }
    if (name === "credentialsFile") {
      if (!/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(value)) problems.push(`${field.label}: must be a full path (starting with / or a drive)`);
      continue;
    }
    const rule = PATTERNS[name];
    if (rule && !rule[0].test(value)) problems.push(`${field.label}: "${value.slice(0, 80)}" is not ${rule[1]}`);
  }
  for (const name of Object.keys(change.secrets)) {
    if (!fields.get(name)?.secret) problems.push(`${provider} has no secret "${name.slice(0, 60)}"`);
  }
  return problems;
}

/**
 * The pi-ai environment values for a request to `modelId` of `provider`: each non-empty field as its variable, the
 * secrets given by `secret`. Azure's deployment: a plain name maps `modelId` to it; pairs pass as they are. Empty when
 * nothing is set. Pure.
 */
export function cloudEnvironment(
  provider: CloudProviderId,
  fields: Readonly<Record<string, string | undefined>> | undefined,
  secret: (field: string) => string | undefined,
  modelId: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const field of CLOUD_FIELDS[provider]) {
    const value = (field.secret ? secret(field.name) : fields?.[field.name])?.trim();
    if (!value) continue;
    env[field.env] = field.name === "deployment" && !value.includes("=") ? `${modelId}=${value}` : value;
  }
  return env;
}
