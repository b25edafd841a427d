/**
 * "Refresh models" (issue 22 §2) against the loopback server in the three shapes providers list models in: an
 * OpenAI-compatible provider (Groq), Anthropic and Google, each moved to the loopback server by pi's models.json as a
 * pi user would route it through a proxy. Main asks with the user's key, as each API wants it, and marks the ids the
 * catalogue lacks; a refused key, an answer that is not JSON or not a list, silence and a closed port are said in
 * words, never with the key.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { catalogModels, catalogProviders } from "../../src/main/broker/model-catalog";
import { ModelDirectory } from "../../src/main/broker/model-directory";
import { PiModelsSource } from "../../src/main/broker/pi-models-file";
import { dispatchAppCall } from "../../src/main/broker/app-call";
import { startOpenAIServer, type OpenAIServerOptions, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { DEFAULT_SETTINGS, type Settings } from "../../src/shared/settings/schema";
import { startAppServiceRig } from "../../testkit/app-service-rig";
import { closedPort } from "../../testkit/closed-port";

const dir = mkdtempSync(join(tmpdir(), "paddock-refresh-"));
const servers: OpenAITestServer[] = [];
afterEach(async () => void (await Promise.all(servers.splice(0).map((s) => s.close()))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "sk-user-key-123";
const known = { groq: catalogModels("groq")[0].id, anthropic: catalogModels("anthropic")[0].id, google: catalogModels("google")[0].id };

/** A directory whose providers' addresses point at `origin` (pi's models.json), with the user's keys. */
function directory(origin: string, options: { keys?: Record<string, string>; addedModels?: Settings["addedModels"]; timeoutMs?: number } = {}) {
  const path = join(dir, `models-${servers.length}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({
    providers: { groq: { baseUrl: `${origin}/v1` }, anthropic: { baseUrl: origin }, google: { baseUrl: `${origin}/v1beta` } },
  }));
  const keys = options.keys ?? { groq: KEY, anthropic: KEY, google: KEY };
  return new ModelDirectory({
    settings: { get: () => ({ ...(structuredClone(DEFAULT_SETTINGS) as Settings), addedModels: options.addedModels ?? [] }) },
    secrets: { get: (provider: string) => keys[provider] },
    piModels: new PiModelsSource(path, { isBuiltIn: (id) => catalogProviders().includes(id), env: {} }),
    list: { timeoutMs: options.timeoutMs ?? 3_000 },
  });
}
const serve = async (options: OpenAIServerOptions) => {
  const server = await startOpenAIServer(options);
  servers.push(server);
  return { server, origin: server.baseUrl.replace(/\/v1$/, "") };
};

describe("Refresh models", () => {
  it("lists an OpenAI-compatible provider's models with the key as a bearer token, marking the ones the catalogue lacks", async () => {
    const { server, origin } = await serve({ models: [known.groq, "groq-brand-new"], apiKey: KEY });
    const result = await directory(origin, { addedModels: [{ provider: "groq", id: "groq-brand-new" }] }).refresh("groq");
    expect(result).toEqual({
      ok: true, message: "Groq lists 2 models.",
      models: [{ id: known.groq, known: true, added: false }, { id: "groq-brand-new", known: false, added: true }],
    });
    expect(server.listRequests.at(-1)).toMatchObject({ body: "/v1/models", headers: { authorization: `Bearer ${KEY}` } });
  });

  it("asks Anthropic with x-api-key and anthropic-version, and reads its shape", async () => {
    const { server, origin } = await serve({ models: [known.anthropic, "claude-opus-5-6"], apiKey: KEY });
    const result = await directory(origin).refresh("anthropic");
    expect(result.ok).toBe(true);
    expect(result.models).toEqual([{ id: known.anthropic, known: true, added: false }, { id: "claude-opus-5-6", known: false, added: false }]);
    const request = server.listRequests.at(-1)!;
    expect(request.headers).toMatchObject({ "x-api-key": KEY, "anthropic-version": "2023-06-01" });
    expect(request.headers.authorization).toBeUndefined();
  });

  it("asks Google with its key header (never in the address) and offers only models that generate content", async () => {
    const { server, origin } = await serve({ models: [known.google, "gemini-4-pro"], apiKey: KEY });
    const result = await directory(origin).refresh("google");
    expect(result.models.map((m) => [m.id, m.known])).toEqual([[known.google, true], ["gemini-4-pro", false]]);
    expect(server.listRequests.at(-1)).toMatchObject({ body: "/v1beta/models", headers: { "x-goog-api-key": KEY } });
  });

  it("says in words what went wrong: a refused key, not JSON, not a list, no key, silence, a closed port", async () => {
    const wrongKey = await serve({ apiKey: "sk-other" });
    const refused = await directory(wrongKey.origin).refresh("anthropic");
    expect(refused).toEqual({ ok: false, message: "Anthropic refused the key (401 Unauthorized). Check its API key.", models: [] });

    const html = await serve({ modelListAnswer: "bad-json" });
    expect((await directory(html.origin).refresh("groq")).message).toBe("Groq answered, but not with JSON: no model list could be read.");
    const odd = await serve({ modelListAnswer: "not-a-list" });
    expect((await directory(odd.origin).refresh("google")).message).toBe("Google Gemini answered, but not with a model list Paddock understands.");

    expect((await directory(html.origin, { keys: {} }).refresh("groq")).message).toMatch(/^Groq has no API key: enter one/);

    const silent: Server = createServer((socket: Socket) => void socket.on("error", () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const started = Date.now();
      const timedOut = await directory(`http://127.0.0.1:${port}`, { timeoutMs: 300 }).refresh("groq");
      expect(timedOut.message).toBe(`No answer from Groq (127.0.0.1:${port}) within 0.3 seconds. Check your connection and try again.`);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      silent.close();
    }
    const port = await closedPort();
    expect((await directory(`http://127.0.0.1:${port}`).refresh("groq")).message).toBe(`Could not reach Groq at 127.0.0.1:${port}: nothing is listening there (connection refused).`);
    for (const result of [refused]) expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it("through the page's gate: a provider id that is not one is refused before anything is asked", async () => {
    const rig = await startAppServiceRig("paddock-refresh-gate-");
    try {
      await expect(dispatchAppCall(rig.service, "refreshModels", ["../etc"])).rejects.toThrow();
      expect(await dispatchAppCall(rig.service, "refreshModels", ["no-such-provider"])).toEqual({ ok: false, message: 'Unknown provider "no-such-provider".', models: [] });
      expect(await dispatchAppCall(rig.service, "refreshModels", ["amazon-bedrock"])).toMatchObject({ ok: false, message: expect.stringContaining("keeps no model list Paddock can read") });
    } finally {
      await rig.close();
    }
  });
});
