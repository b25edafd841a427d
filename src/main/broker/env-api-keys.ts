/**
 * A provider's API key from the usual environment variable (for example `OPENAI_API_KEY`), as pi-ai 1.6.0's
 * `getEnvApiKey` finds it. pi-ai exports that function only from its `/compat` entry, which it will delete, and
 * resolves keys asynchronously everywhere else (`Models.getAuth`); main needs the answer synchronously, for the
 * settings page and for each request's key. The variable names are pi-ai 1.6.0's (`env-api-keys.js`).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { AMBIENT_CREDENTIALS } from "../../shared/providers/cloud-settings";

/** What pi-ai's providers take, in place of a key, for cloud credentials that are not keys (Vertex, Bedrock). */
export { AMBIENT_CREDENTIALS };

const ENV_VARS: Record<string, string | string[]> = {
  "github-copilot": "COPILOT_GITHUB_TOKEN",
  // ANTHROPIC_AUTH_TOKEN must travel as a bearer token, not as a key: pi-ai skips it too.
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  "ant-ling": "ANT_LING_API_KEY",
  "qwen-token-plan": ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
  "qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-individual-cn": ["QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
  openai: "OPENAI_API_KEY",
  azure: "AZURE_OPENAI_API_KEY",
  nvidia: "NVIDIA_API_KEY",
  deepseek: "DEEPSEEK_API_KEY",
  google: "GEMINI_API_KEY",
  "google-vertex": "GOOGLE_CLOUD_API_KEY",
  groq: "GROQ_API_KEY",
  cerebras: "CEREBRAS_API_KEY",
  xai: "XAI_API_KEY",
  typesafe: "TYPESAFE_API_KEY",
  radius: "RADIUS_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
  "vercel-ai-gateway": "AI_GATEWAY_API_KEY",
  zai: "ZAI_API_KEY",
  "zai-coding-cn": "ZAI_CODING_CN_API_KEY",
  mistral: "MISTRAL_API_KEY",
  minimax: "MINIMAX_API_KEY",
  "minimax-cn": "MINIMAX_CN_API_KEY",
  moonshotai: "MOONSHOT_API_KEY",
  "moonshotai-cn": "MOONSHOT_API_KEY",
  huggingface: "HF_TOKEN",
  fireworks: "FIREWORKS_API_KEY",
  together: "TOGETHER_API_KEY",
  baseten: "BASETEN_API_KEY",
  opencode: "OPENCODE_API_KEY",
  "opencode-go": "OPENCODE_API_KEY",
  "kimi-coding": "KIMI_API_KEY",
  meta: "META_API_KEY",
  "cloudflare-workers-ai": "CLOUDFLARE_API_KEY",
  "cloudflare-ai-gateway": "CLOUDFLARE_API_KEY",
  xiaomi: "XIAOMI_API_KEY",
  "xiaomi-token-plan-cn": "XIAOMI_TOKEN_PLAN_CN_API_KEY",
  "xiaomi-token-plan-ams": "XIAOMI_TOKEN_PLAN_AMS_API_KEY",
  "xiaomi-token-plan-sgp": "XIAOMI_TOKEN_PLAN_SGP_API_KEY",
};

const BEDROCK_CREDENTIALS = [
  ["AWS_PROFILE"],
  ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
  ["AWS_BEARER_TOKEN_BEDROCK"],
  ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
  ["AWS_CONTAINER_CREDENTIALS_FULL_URI"],
  ["AWS_WEB_IDENTITY_TOKEN_FILE"],
];

/** The key for `provider` from the environment; AMBIENT_CREDENTIALS for Vertex's and Bedrock's ambient credentials. */
export function getEnvApiKey(provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = ENV_VARS[provider];
  for (const name of typeof names === "string" ? [names] : (names ?? [])) if (env[name]) return env[name];
  if (provider === "google-vertex") {
    const credentials = env.GOOGLE_APPLICATION_CREDENTIALS || join(homedir(), ".config", "gcloud", "application_default_credentials.json");
    if (existsSync(credentials) && (env.GOOGLE_CLOUD_PROJECT || env.GCLOUD_PROJECT) && env.GOOGLE_CLOUD_LOCATION) return AMBIENT_CREDENTIALS;
  }
  if (provider === "amazon-bedrock" && BEDROCK_CREDENTIALS.some((set) => set.every((name) => env[name]))) return AMBIENT_CREDENTIALS;
  return undefined;
}
