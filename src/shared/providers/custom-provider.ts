/**
 * Custom OpenAI-compatible endpoints (Ollama, LM Studio, vLLM, llama.cpp, a corporate gateway, our test server):
 * a base URL plus model ids, turned into pi-ai models. Pure data and functions: no Node, DOM or Electron.
 */
import type { Model, OpenAICompletionsCompat } from "@earendil-works/pi-ai";
import type { CustomProvider } from "../settings/schema";

/** One endpoint as settings hold it (the schema in settings/schema.ts is its one definition). Keys live in main's
 *  secret store, never in settings. */
export type { CustomProvider };

export const CUSTOM_PROVIDER_PREFIX = "custom:";
export const DEFAULT_CONTEXT_WINDOW = 32_768;
export const DEFAULT_MAX_TOKENS = 4_096;

/**
 * pi-ai refuses to call a provider without an API key, but local servers need none. Pass this when the user has
 * not set a key: keyless servers ignore the Authorization header it produces.
 */
export const KEYLESS_API_KEY = "paddock-no-key";

/**
 * Request options that suit the lowest common denominator of OpenAI-compatible servers: a plain `system` role,
 * `max_tokens`, no `store`, no `strict` on tools, no prompt-cache retention or session headers. Every field is
 * set, so pi-ai's URL-based auto-detection never applies to a user's endpoint.
 */
function genericCompat(
  reasoning: boolean,
): Required<Omit<OpenAICompletionsCompat, "cacheControlFormat" | "thinkingTokenBudgetField" | "vllmPriority">> {
  return {
    supportsStore: false,
    supportsDeveloperRole: false,
    supportsReasoningEffort: reasoning,
    supportsUsageInStreaming: true,
    supportsFinishReason: true,
    maxTokensField: "max_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresNonNullAssistantContent: false,
    requiresToolsWithToolHistory: false,
    requiresThinkingAsText: false,
    requiresReasoningContentOnAssistantMessages: false,
    thinkingFormat: "openai",
    openRouterRouting: {},
    vercelGatewayRouting: {},
    chatTemplateKwargs: {},
    chatTemplateArgs: {},
    zaiToolStream: false,
    supportsThinkingTokenBudget: false,
    supportsOpenAIGrammarTools: false,
    supportsMidConvoSystemMessages: false,
    supportsMidConvoToolAdditions: false,
    supportsStrictMode: false,
    sendSessionAffinityHeaders: false,
    sessionAffinityFormat: "openai",
    promptCacheKeyMode: "disabled",
    supportsLongCacheRetention: false,
  };
}

/**
 * The pi-ai model for `modelId` on `provider`. Pure: it never contacts the server and accepts a `modelId` that is
 * not in `provider.models` (servers load models the settings may not list yet). Cost is zero: we do not know the
 * user's prices. Callers must pass an API key to pi-ai (the user's, or KEYLESS_API_KEY).
 */
export function customModel(provider: CustomProvider, modelId: string): Model<"openai-completions"> {
  const reasoning = provider.reasoning ?? false;
  return {
    id: modelId,
    name: modelId,
    api: "openai-completions",
    provider: customProviderName(provider.id),
    // `.../v1/` and `.../v1` are one endpoint; normalized so models compare equal and URLs join cleanly.
    baseUrl: provider.baseUrl.replace(/\/+$/, ""),
    reasoning,
    input: provider.images ? ["text", "image"] : ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: provider.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    maxTokens: provider.maxTokens ?? DEFAULT_MAX_TOKENS,
    compat: genericCompat(reasoning),
  };
}

/** The custom provider id in a pi-ai provider name (`custom:<id>` -> `<id>`), or undefined for built-in providers. */
/** The pi-ai provider name of the custom endpoint with id `id` ("custom:<id>"). */
export function customProviderName(id: string): string {
  return `${CUSTOM_PROVIDER_PREFIX}${id}`;
}

export function customProviderId(piProvider: string): string | undefined {
  return piProvider.startsWith(CUSTOM_PROVIDER_PREFIX) ? piProvider.slice(CUSTOM_PROVIDER_PREFIX.length) : undefined;
}
