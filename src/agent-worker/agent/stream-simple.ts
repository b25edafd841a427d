/**
 * pi-ai's `streamSimple` for one model, from the package's root and its `api/*` entries (not its `/compat` entry,
 * which pi-ai will delete): the context is normalized (`systemPrompt` and `tools` folded into a leading system
 * message), then handed to the API module of the model's `api`. Each API module is loaded on first use, as before.
 */
import {
  createAssistantMessageEventStream,
  mergeClientIdentity,
  normalizeContext,
  type Api,
  type AssistantMessage,
  type AssistantMessageEventStream,
  type ClientIdentity,
  type Context,
  type Model,
  type ProviderStreams,
  type SimpleStreamOptions,
} from "@earendil-works/pi-ai";
import { anthropicMessagesApi } from "@earendil-works/pi-ai/api/anthropic-messages.lazy";
import { azureOpenAIResponsesApi } from "@earendil-works/pi-ai/api/azure-openai-responses.lazy";
import { bedrockConverseStreamApi } from "@earendil-works/pi-ai/api/bedrock-converse-stream.lazy";
import { registerLazyBedrockProvider } from "@earendil-works/pi-ai/lazy-bedrock-provider";
import { googleGenerativeAIApi } from "@earendil-works/pi-ai/api/google-generative-ai.lazy";
import { googleVertexApi } from "@earendil-works/pi-ai/api/google-vertex.lazy";
import { mistralConversationsApi } from "@earendil-works/pi-ai/api/mistral-conversations.lazy";
import { openAICodexResponsesApi } from "@earendil-works/pi-ai/api/openai-codex-responses.lazy";
import { openAICompletionsApi } from "@earendil-works/pi-ai/api/openai-completions.lazy";
import { openAIResponsesApi } from "@earendil-works/pi-ai/api/openai-responses.lazy";
import { version } from "../../../package.json";
import { zeroUsage } from "../../shared/agent/state";

/**
 * How every request names its sender: `User-Agent: Paddock/<version>` (not pi-ai's `pi/<its version> (...)`). No
 * pi-ai attribution: it needs the app's web address (OpenRouter's `HTTP-Referer`), and Paddock has none of its own
 * to give, so crediting a guessed address would credit someone else. OpenRouter gets the app's title by name below.
 * A request's own `identity` wins field by field.
 */
export const PADDOCK_IDENTITY: ClientIdentity = {
  userAgent: { custom: `Paddock/${version}` },
  attribution: null,
};

/** OpenRouter's title headers (the current and the older name), which credit requests to an app without an address. */
function attributionHeaders(model: Model<Api>): Record<string, string> | undefined {
  const openRouter = model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
  return openRouter ? { "X-OpenRouter-Title": "Paddock", "X-Title": "Paddock" } : undefined;
}

/** The request's options with Paddock's identity beneath whatever the caller set. */
function withPaddockIdentity(model: Model<Api>, options: SimpleStreamOptions | undefined): SimpleStreamOptions {
  const extra = attributionHeaders(model);
  return {
    ...options,
    identity: mergeClientIdentity(PADDOCK_IDENTITY, options?.identity),
    ...(extra ? { headers: { ...extra, ...options?.headers } } : {}),
  };
}

// Bedrock's code through a literal import() the bundler follows into a lazy chunk of our own: pi-ai's default loader
// resolves "./bedrock-converse-stream.js" against its module's URL, which in our bundle is a chunk's folder, where no
// such file is (test/integration/bedrock-provider.test.ts).
registerLazyBedrockProvider();

const API_FACTORIES: Record<string, () => ProviderStreams> = {
  "anthropic-messages": anthropicMessagesApi,
  "azure-openai-responses": azureOpenAIResponsesApi,
  "bedrock-converse-stream": bedrockConverseStreamApi,
  "google-generative-ai": googleGenerativeAIApi,
  "google-vertex": googleVertexApi,
  "mistral-conversations": mistralConversationsApi,
  "openai-codex-responses": openAICodexResponsesApi,
  "openai-completions": openAICompletionsApi,
  "openai-responses": openAIResponsesApi,
};

const apis = new Map<string, ProviderStreams>();

/**
 * Makes `api` stream through `streams` (a test's scripted model, say) until the returned function is called. Stands in
 * for pi-ai's global API registry, which only its `/compat` entry keeps.
 */
export function registerApiStreams(api: string, streams: ProviderStreams): () => void {
  apis.set(api, streams);
  return () => {
    if (apis.get(api) === streams) apis.delete(api);
  };
}

/** The stream functions of an API, created once per process; undefined for an API pi-ai does not have. */
function apiStreams(api: Api): ProviderStreams | undefined {
  let streams = apis.get(api);
  if (!streams) {
    const create = API_FACTORIES[api];
    if (!create) return undefined;
    streams = create();
    apis.set(api, streams);
  }
  return streams;
}

/** Never throws for an unknown API: the stream ends with an error message, as for any other request failure. */
export function streamSimple<TApi extends Api>(model: Model<TApi>, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
  const streams = apiStreams(model.api);
  if (streams) return streams.streamSimple(model, normalizeContext(context), withPaddockIdentity(model, options));
  const stream = createAssistantMessageEventStream();
  const error: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: zeroUsage(),
    stopReason: "error",
    errorMessage: `No API provider registered for api: ${model.api}`,
    timestamp: Date.now(),
  };
  stream.push({ type: "error", reason: "error", error });
  stream.end(error);
  return stream;
}
