import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modelListUrls, parseModelList, probeEndpoint, probeKey } from "../../../../src/main/broker/endpoint-probe";
import { plaintextDevCipher, SecretStore } from "../../../../src/main/broker/secrets";

/** A fetch that answers from a table of URL -> response, records what it was asked, and fails for the rest. */
function fakeFetch(routes: Record<string, () => Response | Promise<Response>>) {
  const asked: { url: string; authorization: string | undefined; redirect: RequestInit["redirect"] }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    asked.push({ url, authorization: headers.get("authorization") ?? undefined, redirect: init?.redirect });
    const route = routes[url];
    if (!route) throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    return route();
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const none = { source: "none" as const };

describe("model lists as servers send them", () => {
  it("reads OpenAI's data[].id and Ollama's models[].name, in order, without duplicates or junk", () => {
    expect(parseModelList({ object: "list", data: [{ id: "qwen2.5" }, { id: "llama3.2" }, { id: "qwen2.5" }, { id: 7 }, {}, { id: " " }] }))
      .toEqual({ api: "openai", models: ["qwen2.5", "llama3.2"] });
    expect(parseModelList({ models: [{ name: "llama3.2:latest", model: "llama3.2:latest" }, { model: "phi3" }] }))
      .toEqual({ api: "ollama", models: ["llama3.2:latest", "phi3"] });
    // llama.cpp sends both: the OpenAI list is the one chat completions take.
    expect(parseModelList({ data: [{ id: "a" }], models: [{ name: "b" }] })).toEqual({ api: "openai", models: ["a"] });
  });

  it("keeps within the settings' limits: ids of at most 200 characters, at most 500 of them", () => {
    const many = { data: Array.from({ length: 600 }, (_, i) => ({ id: i === 0 ? "x".repeat(201) : `m${i}` })) };
    const { models } = parseModelList(many)!;
    expect(models).toHaveLength(500);
    expect(models[0]).toBe("m1");
  });

  it("is not a model list when neither shape is there", () => {
    for (const body of [null, "text", [], { error: "nope" }, { data: "x" }]) expect(parseModelList(body)).toBeUndefined();
  });

  it("is looked for at <base>/models, at <base>/v1/models when the base lacks /v1, then at Ollama's /api/tags", () => {
    expect(modelListUrls("http://127.0.0.1:11434/v1/").map((u) => [u.url, u.base])).toEqual([
      ["http://127.0.0.1:11434/v1/models", "http://127.0.0.1:11434/v1"],
      ["http://127.0.0.1:11434/api/tags", "http://127.0.0.1:11434/v1"],
    ]);
    expect(modelListUrls("http://127.0.0.1:1234").map((u) => u.url)).toEqual([
      "http://127.0.0.1:1234/models", "http://127.0.0.1:1234/v1/models", "http://127.0.0.1:1234/api/tags",
    ]);
  });
});

describe("probing an endpoint", () => {
  it("reports the models of an OpenAI-compatible server, and asks it without following redirects", async () => {
    const { fetch, asked } = fakeFetch({ "http://127.0.0.1:1234/v1/models": json({ data: [{ id: "qwen2.5-7b" }, { id: "llama-3.2-3b" }] }) });
    const result = await probeEndpoint("http://127.0.0.1:1234/v1", none, { fetch });
    expect(result).toEqual({ ok: true, kind: "ok", api: "openai", models: ["qwen2.5-7b", "llama-3.2-3b"], message: "Reached the server at 127.0.0.1:1234: 2 models." });
    expect(asked).toEqual([{ url: "http://127.0.0.1:1234/v1/models", authorization: undefined, redirect: "manual" }]);
  });

  it("falls back to Ollama's list, and says when the models are under another base URL", async () => {
    const ollama = fakeFetch({ "http://127.0.0.1:11434/v1/models": json({ error: "not found" }, 404), "http://127.0.0.1:11434/api/tags": json({ models: [{ name: "llama3.2" }] }) });
    expect(await probeEndpoint("http://127.0.0.1:11434/v1", none, { fetch: ollama.fetch })).toMatchObject({
      ok: true, api: "ollama", models: ["llama3.2"], message: "Reached Ollama at 127.0.0.1:11434: 1 model.",
    });
    const bare = fakeFetch({ "http://127.0.0.1:1234/models": json({ error: "no route" }, 404), "http://127.0.0.1:1234/v1/models": json({ data: [{ id: "m" }] }) });
    expect(await probeEndpoint("http://127.0.0.1:1234", none, { fetch: bare.fetch })).toMatchObject({
      ok: true, suggestedBaseUrl: "http://127.0.0.1:1234/v1",
      message: "Reached the server at 127.0.0.1:1234: 1 model. Its models are at http://127.0.0.1:1234/v1, the address to use.",
    });
  });

  it("a server with no models loaded yet is reached, and says so", async () => {
    const { fetch } = fakeFetch({ "http://h:1/v1/models": json({ data: [] }) });
    expect(await probeEndpoint("http://h:1/v1", none, { fetch })).toMatchObject({ ok: true, models: [], message: "Reached the server at h:1: it lists no models yet (load or pull one, then test again)." });
  });

  it("nothing listening: could not be reached, check the address and that the server runs", async () => {
    const { fetch } = fakeFetch({});
    expect(await probeEndpoint("http://127.0.0.1:9/v1", none, { fetch })).toEqual({
      ok: false, kind: "unreachable", models: [],
      message: "Could not reach 127.0.0.1:9: nothing is listening there (connection refused). Check the address and that the server is running.",
    });
  });

  it("401 says to check the key, in words that fit where the key came from", async () => {
    const { fetch, asked } = fakeFetch({ "https://api.example/v1/models": () => new Response("{}", { status: 401, statusText: "Unauthorized" }) });
    const base = "https://api.example/v1";
    expect(await probeEndpoint(base, none, { fetch })).toMatchObject({ ok: false, kind: "unauthorized", status: 401, message: "api.example wants an API key (401 Unauthorized). Enter the key and test again." });
    expect((await probeEndpoint(base, { key: "sk-typed", source: "typed" }, { fetch })).message).toBe("api.example refused this key (401 Unauthorized). Check the API key.");
    expect((await probeEndpoint(base, { key: "sk-saved", source: "saved" }, { fetch })).message).toBe("api.example refused the saved key (401 Unauthorized). Check the API key, or enter a new one.");
    expect(asked.map((a) => a.authorization)).toEqual([undefined, "Bearer sk-typed", "Bearer sk-saved"]);
  });

  it("a redirect is reported, never followed: the key stays with the typed address", async () => {
    const { fetch, asked } = fakeFetch({
      "http://gw.example/v1/models": () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example/v1/models" } }),
    });
    const result = await probeEndpoint("http://gw.example/v1", { key: "sk", source: "typed" }, { fetch });
    expect(result).toMatchObject({ ok: false, kind: "redirected", status: 302, message: "gw.example sent the request on to https://elsewhere.example/v1/models. Use the address the server answers at as the base URL." });
    expect(asked.map((a) => a.url)).toEqual(["http://gw.example/v1/models"]);
  });

  it("a server that does not answer in time: a timeout, said in seconds", async () => {
    const hanging = (async (_url: string, init?: RequestInit) => new Promise<Response>((_, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    })) as typeof globalThis.fetch;
    const started = Date.now();
    const result = await probeEndpoint("http://10.0.0.1:8000/v1", none, { fetch: hanging, timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ ok: false, kind: "timeout" });
    expect(result.message).toMatch(/^No answer from 10\.0\.0\.1:8000 within 0\.2 seconds\. Check the address and that the server is running/);
  });

  it("a web page or an error instead of a list says what was found", async () => {
    const page = fakeFetch({ "http://h:2/v1/models": () => new Response("<html>hello</html>"), "http://h:2/api/tags": () => new Response("nope", { status: 404 }) });
    expect(await probeEndpoint("http://h:2/v1", none, { fetch: page.fetch })).toMatchObject({
      ok: false, kind: "no-model-list", message: "h:2 answered (404), but not as an OpenAI-compatible server or Ollama: there is no model list at http://h:2/v1/models. Check the base URL (it usually ends in /v1).",
    });
    const broken = fakeFetch({ "http://h:3/v1/models": () => new Response("boom", { status: 500, statusText: "Internal Server Error" }) });
    expect(await probeEndpoint("http://h:3/v1", none, { fetch: broken.fetch })).toMatchObject({ ok: false, kind: "server-error", status: 500 });
  });

  it("an address that is not a web address is answered in words, without asking anything", async () => {
    const { fetch, asked } = fakeFetch({});
    for (const typed of ["localhost:11434", "file:///etc/passwd", ""]) {
      expect(await probeEndpoint(typed, none, { fetch })).toMatchObject({ ok: false, kind: "invalid-url", message: expect.stringMatching(/^Enter the server's address/) });
    }
    expect(asked).toEqual([]);
  });
});

describe("which key a probe sends", () => {
  let dir: string;
  let secrets: SecretStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "paddock-probe-key-"));
    secrets = SecretStore.open(join(dir, "secrets.json"), plaintextDevCipher);
    secrets.set("custom:lab", "sk-lab", "http://127.0.0.1:1234");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a typed key first; else the endpoint's saved key, only for the address it was saved for", () => {
    expect(probeKey({ baseUrl: "http://127.0.0.1:1234/v1", apiKey: " sk-new ", endpointId: "lab" }, secrets)).toEqual({ key: "sk-new", source: "typed" });
    expect(probeKey({ baseUrl: "http://127.0.0.1:1234/v1", endpointId: "lab" }, secrets)).toEqual({ key: "sk-lab", source: "saved" });
    expect(probeKey({ baseUrl: "http://127.0.0.1:5678/v1", endpointId: "lab" }, secrets)).toEqual({ source: "none" });
    expect(probeKey({ baseUrl: "https://127.0.0.1:1234/v1", endpointId: "lab" }, secrets)).toEqual({ source: "none" });
    expect(probeKey({ baseUrl: "http://127.0.0.1:1234/v1" }, secrets)).toEqual({ source: "none" });
    expect(probeKey({ baseUrl: "not a url", endpointId: "lab" }, secrets)).toEqual({ source: "none" });
  });
});
