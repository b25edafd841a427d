/**
 * The cloud providers' settings reach pi-ai 1.6.0's own provider modules as its provider options (`options.env`),
 * through the worker's request path (ProviderConfigs, then stream-simple.ts): Bedrock signs for the configured region
 * (its request goes to that region's endpoint, seen by a stand-in proxy), Vertex reads the configured credentials file.
 * No network: the proxy answers nothing, the file does not exist.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Api, Model, ProviderStreams, SimpleStreamOptions } from "@earendil-works/pi-ai";
import { getBuiltinModels } from "@earendil-works/pi-ai/providers/all";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderConfigs } from "../../../../../src/agent-worker/host/provider/provider-config";
import { registerApiStreams, streamSimple } from "../../../../../src/agent-worker/agent/stream-simple";
import { AMBIENT_CREDENTIALS } from "../../../../../src/shared/providers/cloud-settings";

const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** What main would answer for each provider (accounts/cloud-config.ts builds these from Settings). */
function configs(env: Record<string, Record<string, string>>) {
  const asked: string[] = [];
  const configs = new ProviderConfigs(async (provider, modelId) => {
    asked.push(`${provider}/${modelId}`);
    return env[provider] ? { env: env[provider] } : undefined;
  });
  return { configs, asked };
}

/** Captures the options a provider module's streamSimple receives. */
function capture(api: string): SimpleStreamOptions[] {
  const seen: SimpleStreamOptions[] = [];
  const streams = {
    streamSimple: (_model: Model<Api>, _context: unknown, options?: SimpleStreamOptions) => {
      seen.push(options ?? {});
      throw new Error("captured");
    },
  } as unknown as ProviderStreams;
  cleanups.push(registerApiStreams(api, streams));
  return seen;
}

describe("a request's provider config", () => {
  it("adds main's values as pi-ai's env, and drops the ambient-credentials marker that Bedrock would send as a bearer token", async () => {
    const bedrock = getBuiltinModels("amazon-bedrock")[0] as Model<Api>;
    const { configs: c, asked } = configs({ "amazon-bedrock": { AWS_REGION: "eu-west-3", AWS_PROFILE: "work" } });
    await c.refresh("amazon-bedrock", bedrock.id);
    await c.refresh("openai", "gpt-5"); // no round trip for a provider with nothing but a key
    expect(asked).toEqual([`amazon-bedrock/${bedrock.id}`]);

    const seen = capture("bedrock-converse-stream");
    expect(() => streamSimple(bedrock, context, c.options(bedrock, { apiKey: AMBIENT_CREDENTIALS, maxTokens: 5 }))).toThrow("captured");
    expect(seen[0]).toMatchObject({ env: { AWS_REGION: "eu-west-3", AWS_PROFILE: "work" }, maxTokens: 5 });
    expect(seen[0]).not.toHaveProperty("apiKey");

    // A real key (a Bedrock bearer token saved in Settings) goes as it is; a caller's own env values win.
    expect(() => streamSimple(bedrock, context, c.options(bedrock, { apiKey: "bearer-1", env: { AWS_REGION: "us-west-2" } }))).toThrow("captured");
    expect(seen[1]).toMatchObject({ apiKey: "bearer-1", env: { AWS_REGION: "us-west-2", AWS_PROFILE: "work" } });

    // Never in the worker's environment, where a command could print them.
    expect(process.env.AWS_PROFILE).not.toBe("work");
    expect(JSON.stringify(process.env)).not.toContain("eu-west-3");

    // Main says nothing any more (the fields were cleared): nothing is added.
    const cleared = new ProviderConfigs(async () => undefined);
    await cleared.refresh("amazon-bedrock", bedrock.id);
    const untouched = { apiKey: "k" };
    expect(cleared.options(bedrock, untouched)).toBe(untouched);
  });

  it("Bedrock: pi-ai's own module sends the request to the configured region's endpoint", async () => {
    const bedrock = getBuiltinModels("amazon-bedrock")[0] as Model<Api>;
    expect(bedrock.baseUrl).toContain("us-east-1");
    const connects: string[] = [];
    const proxy: Server = createServer();
    proxy.on("connect", (req, socket) => {
      connects.push(String(req.url));
      socket.destroy();
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => proxy.close(() => r())));
    const { configs: c } = configs({
      "amazon-bedrock": {
        AWS_REGION: "eu-west-3",
        AWS_ACCESS_KEY_ID: "AKIAEXAMPLE12345",
        AWS_SECRET_ACCESS_KEY: "secret",
        HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      },
    });
    await c.refresh("amazon-bedrock", bedrock.id);
    const reply = await streamSimple(bedrock, context, c.options(bedrock, { apiKey: AMBIENT_CREDENTIALS, maxRetries: 0 })).result();
    expect(reply.stopReason).toBe("error");
    expect(connects).toEqual(["bedrock-runtime.eu-west-3.amazonaws.com:443"]);
  });

  it("Vertex: pi-ai's own module reads the configured project, location and credentials file", async () => {
    const vertex = getBuiltinModels("google-vertex")[0] as Model<Api>;
    const none = await streamSimple(vertex, context, { apiKey: AMBIENT_CREDENTIALS }).result();
    expect(none.errorMessage).toMatch(/requires a project ID/);

    const { configs: c } = configs({
      "google-vertex": { GOOGLE_CLOUD_PROJECT: "proj-x1", GOOGLE_CLOUD_LOCATION: "europe-west4", GOOGLE_APPLICATION_CREDENTIALS: "/nonexistent/paddock-key.json" },
    });
    await c.refresh("google-vertex", vertex.id);
    const reply = await streamSimple(vertex, context, c.options(vertex, { apiKey: AMBIENT_CREDENTIALS })).result();
    expect(reply.errorMessage).toMatch(/ENOENT.*\/nonexistent\/paddock-key\.json/);
  });
});
