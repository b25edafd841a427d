/**
 * Loads a model API's client ahead of the first request (a subagent's spare does, so its first request leaves at
 * once). pi-ai loads each provider module on first use; importing the same module here fills the module cache it
 * then finds. Also warms the process's fetch machinery, which costs a few tens of ms on first use.
 */
const PROVIDER_MODULES: Record<string, () => Promise<unknown>> = {
  "openai-completions": () => import("@earendil-works/pi-ai/api/openai-completions"),
  "openai-responses": () => import("@earendil-works/pi-ai/api/openai-responses"),
  "anthropic-messages": () => import("@earendil-works/pi-ai/api/anthropic-messages"),
  "google-generative-ai": () => import("@earendil-works/pi-ai/api/google-generative-ai"),
  "mistral-conversations": () => import("@earendil-works/pi-ai/api/mistral-conversations"),
};

/** Never rejects: an API it does not know, or a load that fails, only means the first request loads it instead. */
export async function preloadProvider(api: string | undefined): Promise<void> {
  await Promise.all([
    api ? PROVIDER_MODULES[api]?.().catch(() => undefined) : undefined,
    warmHttpFetch(api === "openai-completions").catch(() => undefined),
  ]);
}

/** One streamed chat completion, as an OpenAI-compatible server sends it. */
const WARM_COMPLETION = [
  { id: "warm", object: "chat.completion.chunk", created: 0, model: "warm", choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }] },
  { id: "warm", object: "chat.completion.chunk", created: 0, model: "warm", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n";

/**
 * One request over a real HTTP connection, to a server of this process on loopback: the first request a process
 * makes sets up fetch's connection machinery and compiles its HTTP and stream code paths (~10 ms on a small
 * machine), which would otherwise delay the first model request. For OpenAI-compatible models the request goes
 * through pi-ai itself, so the client's request building and stream parsing are compiled too (V8 compiles a
 * function on its first call). Nothing leaves the machine.
 */
async function warmHttpFetch(throughPiAi: boolean): Promise<void> {
  const { createServer } = await import("node:http");
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(WARM_COMPLETION);
  });
  await new Promise<void>((resolve, reject) => server.listen(0, "127.0.0.1", resolve).once("error", reject));
  try {
    const { port } = server.address() as import("node:net").AddressInfo;
    if (throughPiAi) return await warmPiAiStream(`http://127.0.0.1:${port}/v1`);
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    const reader = response.body?.getReader();
    while (reader && !(await reader.read()).done);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** A whole streamed completion through pi-ai's OpenAI-compatible client, from a loopback server. */
async function warmPiAiStream(baseUrl: string): Promise<void> {
  const { streamSimple } = await import("../../agent/stream-simple");
  const model = {
    id: "warm",
    name: "warm",
    api: "openai-completions" as const,
    provider: "paddock-warm-up",
    baseUrl,
    reasoning: false,
    input: ["text" as const],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 8_192,
    maxTokens: 16,
  };
  const stream = streamSimple(model, { messages: [{ role: "user", content: "warm", timestamp: 0 }] }, { apiKey: "warm-up" });
  for await (const event of stream) void event;
  await stream.result();
}
