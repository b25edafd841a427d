/**
 * "Refresh models"' reading of the providers' lists (main/broker/provider-model-list.ts): where each API keeps its
 * list, its pages followed, ids kept clean and bounded; a redirect is never followed with the key.
 */
import type { Api, Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { listProviderModels, modelListPlace } from "../../../../src/main/broker/provider-model-list";

const model = (api: string, baseUrl: string) => ({ id: "m", api, baseUrl }) as unknown as Model<Api>;

describe("where a provider's list is", () => {
  it("follows each API's address, the OpenAI-compatible one first when a provider speaks several", () => {
    expect(modelListPlace([model("anthropic-messages", "https://api.anthropic.com")])).toEqual({ api: "anthropic-messages", url: "https://api.anthropic.com/v1/models" });
    expect(modelListPlace([model("google-generative-ai", "https://generativelanguage.googleapis.com/v1beta")])).toEqual({ api: "google-generative-ai", url: "https://generativelanguage.googleapis.com/v1beta/models" });
    expect(modelListPlace([model("mistral-conversations", "https://api.mistral.ai")])).toEqual({ api: "mistral-conversations", url: "https://api.mistral.ai/v1/models" });
    expect(modelListPlace([model("anthropic-messages", "https://openrouter.ai/api"), model("openai-completions", "https://openrouter.ai/api/v1")]))
      .toEqual({ api: "openai-completions", url: "https://openrouter.ai/api/v1/models" });
    // An address that depends on the user's account, or an API without a list: none.
    expect(modelListPlace([model("openai-completions", "https://api.cloudflare.com/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1")])).toBeUndefined();
    expect(modelListPlace([model("bedrock-converse-stream", "https://bedrock-runtime.us-east-1.amazonaws.com")])).toBeUndefined();
  });
});

describe("reading the list", () => {
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

  it("follows Anthropic's pages through has_more and last_id", async () => {
    const asked: string[] = [];
    const fetch = (async (url: string) => {
      asked.push(url);
      return new URL(url).searchParams.get("after_id") === "b"
        ? json({ data: [{ id: "c", display_name: "Model C" }], has_more: false })
        : json({ data: [{ id: "a" }, { id: "b", display_name: "b" }], has_more: true, last_id: "b" });
    }) as unknown as typeof globalThis.fetch;
    const result = await listProviderModels("anthropic", [model("anthropic-messages", "https://api.anthropic.com")], "sk", { fetch });
    expect(asked).toEqual(["https://api.anthropic.com/v1/models", "https://api.anthropic.com/v1/models?after_id=b"]);
    expect(result.models).toEqual([{ id: "a", known: false, added: false }, { id: "b", known: false, added: false }, { id: "c", name: "Model C", known: false, added: false }]);
  });

  it("follows Google's nextPageToken and offers only models that generate content, without the models/ prefix", async () => {
    const fetch = (async (url: string) => new URL(url).searchParams.get("pageToken")
      ? json({ models: [{ name: "models/gemini-4-pro", supportedGenerationMethods: ["generateContent"] }] })
      : json({ models: [{ name: "models/gemini-4-flash" }, { name: "models/embedding-2", supportedGenerationMethods: ["embedContent"] }], nextPageToken: "p2" })) as unknown as typeof globalThis.fetch;
    const result = await listProviderModels("google", [model("google-generative-ai", "https://generativelanguage.googleapis.com/v1beta")], "sk", { fetch });
    expect(result.models.map((m) => m.id)).toEqual(["gemini-4-flash", "gemini-4-pro"]);
  });

  it("keeps ids clean: no blanks, none over 200 characters, no repeats", async () => {
    const fetch = (async () => json({ data: [{ id: " gpt-6 " }, { id: "" }, { id: "x".repeat(201) }, { id: 7 }, "junk", { id: "gpt-6" }] })) as unknown as typeof globalThis.fetch;
    const result = await listProviderModels("openai", [model("openai-responses", "https://api.openai.com/v1")], "sk", { fetch });
    expect(result).toMatchObject({ ok: true, message: "OpenAI lists 1 model.", models: [{ id: "gpt-6" }] });
  });

  it("never follows a redirect with the key", async () => {
    const asked: { url: string; redirect?: string }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      asked.push({ url, redirect: init.redirect });
      return new Response(null, { status: 302, headers: { location: "https://elsewhere.example/models" } });
    }) as unknown as typeof globalThis.fetch;
    const result = await listProviderModels("openai", [model("openai-responses", "https://api.openai.com/v1")], "sk-secret", { fetch });
    expect(asked).toEqual([{ url: "https://api.openai.com/v1/models", redirect: "manual" }]);
    expect(result).toEqual({ ok: false, message: "OpenAI sent the request elsewhere (302); Paddock does not follow it with your key.", models: [] });
  });
});
