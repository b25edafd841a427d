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
    warmHttpFetch().catch(() => undefined),
  ]);
}

/**
 * One request over a real HTTP connection, to a server of this process on loopback: the first request a process
 * makes sets up fetch's connection machinery and compiles its HTTP and stream code paths (~10 ms on a small
 * machine), which would otherwise delay the first model request. Nothing leaves the machine.
 */
async function warmHttpFetch(): Promise<void> {
  const { createServer } = await import("node:http");
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end("data: {}\n\n");
  });
  await new Promise<void>((resolve, reject) => server.listen(0, "127.0.0.1", resolve).once("error", reject));
  try {
    const { port } = server.address() as import("node:net").AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    const reader = response.body?.getReader();
    while (reader && !(await reader.read()).done);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
