/**
 * Loads a model API's client ahead of the first request (a subagent's spare does, so its first request leaves at
 * once). pi-ai loads each provider module on first use; importing the same module here fills the module cache it
 * then finds. Also warms the process's fetch machinery, which costs a few tens of ms on first use.
 */
const PROVIDER_MODULES: Record<string, () => Promise<unknown>> = {
  "openai-completions": () => import("@mariozechner/pi-ai/openai-completions"),
  "openai-responses": () => import("@mariozechner/pi-ai/openai-responses"),
  "anthropic-messages": () => import("@mariozechner/pi-ai/anthropic"),
  "google-generative-ai": () => import("@mariozechner/pi-ai/google"),
  "mistral-conversations": () => import("@mariozechner/pi-ai/mistral"),
};

/** Never rejects: an API it does not know, or a load that fails, only means the first request loads it instead. */
export async function preloadProvider(api: string | undefined): Promise<void> {
  await Promise.all([
    api ? PROVIDER_MODULES[api]?.().catch(() => undefined) : undefined,
    fetch("data:,").then((r) => r.arrayBuffer()).catch(() => undefined),
  ]);
}
