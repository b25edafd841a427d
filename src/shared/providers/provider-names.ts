/**
 * Providers by the names people know them by ("Google Gemini", not `google`; "Xiaomi Token Plan (Amsterdam)", not
 * `xiaomi-token-plan-ams`), for every place a page names one (Settings' key rows, the model pickers). pi-ai keeps no
 * display names for its API-key providers (only its OAuth ones have any), so they live here. A custom endpoint is
 * named by its own `name` in settings (pages without the settings at hand get it with the endpoint's models,
 * `ModelOption.providerName`). Pure: no Node, DOM or Electron.
 */
import { customProviderId, type CustomProvider } from "./custom-provider";

/** pi-ai's providers (its `KnownProvider` ids, 0.73) by name; a provider added later falls back to `titleCaseId`. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  "amazon-bedrock": "Amazon Bedrock",
  anthropic: "Anthropic",
  azure: "Azure OpenAI",
  "azure-openai-responses": "Azure OpenAI",
  cerebras: "Cerebras",
  "cloudflare-ai-gateway": "Cloudflare AI Gateway",
  "cloudflare-workers-ai": "Cloudflare Workers AI",
  deepseek: "DeepSeek",
  fireworks: "Fireworks AI",
  "github-copilot": "GitHub Copilot",
  google: "Google Gemini",
  "google-vertex": "Google Vertex AI",
  groq: "Groq",
  huggingface: "Hugging Face",
  "kimi-coding": "Kimi For Coding",
  minimax: "MiniMax",
  "minimax-cn": "MiniMax (China)",
  mistral: "Mistral",
  moonshotai: "Moonshot AI",
  "moonshotai-cn": "Moonshot AI (China)",
  openai: "OpenAI",
  "openai-codex": "OpenAI Codex",
  opencode: "OpenCode Zen",
  "opencode-go": "OpenCode Go",
  openrouter: "OpenRouter",
  "vercel-ai-gateway": "Vercel AI Gateway",
  xai: "xAI",
  xiaomi: "Xiaomi",
  "xiaomi-token-plan-ams": "Xiaomi Token Plan (Amsterdam)",
  "xiaomi-token-plan-cn": "Xiaomi Token Plan (China)",
  "xiaomi-token-plan-sgp": "Xiaomi Token Plan (Singapore)",
  zai: "Z.ai",
};

/** Words a title-cased id keeps in capitals. */
const ACRONYMS = new Set(["ai", "api", "aws", "gpt", "llm", "ibm"]);

/**
 * A readable name for a provider id nobody named: words split at `-`, `_`, `.` and spaces, each capitalised
 * ("ai" and a few other acronyms in capitals): `acme-cloud-ai` -> "Acme Cloud AI". An id with no letters or digits
 * is returned as it is.
 */
export function titleCaseId(id: string): string {
  const words = id.split(/[-_.\s]+/).filter(Boolean);
  if (words.length === 0) return id;
  return words.map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
}

/**
 * The name to show for `provider` (a pi-ai provider id, or `custom:<id>` for a custom endpoint): a custom
 * endpoint's own name from `custom` (its id, as the user gave it, once it is not there), a known provider's name,
 * else `titleCaseId`, so a provider pi-ai adds later still reads as a name. Never throws, never returns "".
 */
export function providerDisplayName(provider: string, custom: readonly Pick<CustomProvider, "id" | "name">[] = []): string {
  const endpointId = customProviderId(provider);
  if (endpointId !== undefined) return custom.find((e) => e.id === endpointId)?.name.trim() || endpointId || provider;
  return PROVIDER_NAMES[provider] ?? (titleCaseId(provider) || "Unknown provider");
}
