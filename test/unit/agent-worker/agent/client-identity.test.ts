/**
 * Paddock's identity on the wire (issue 22): requests name Paddock and its version, not pi-ai's default
 * `pi/1.6.0 (...)`, and OpenRouter gets the app's title it reads. Asserted on the headers requests arrive
 * with at the loopback model server.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { streamSimple } from "../../../../src/agent-worker/agent/stream-simple";
import { customModel, KEYLESS_API_KEY } from "../../../../src/shared/providers/custom-provider";
import { startOpenAIServer, type OpenAITestServer } from "../../../../src/web-host/openai-test-server";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

async function ask(model: ReturnType<typeof customModel>, headers?: Record<string, string>): Promise<Record<string, unknown>> {
  server.enqueue({ text: "ok" });
  const message = await streamSimple(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: KEYLESS_API_KEY, maxRetries: 0, headers }).result();
  expect(message.stopReason).toBe("stop");
  return server.requests[0].headers;
}

describe("the identity Paddock's requests carry", () => {
  const local = () => customModel({ id: "local", name: "Local", baseUrl: server.baseUrl, models: ["paddock-test"] }, "paddock-test");

  it("User-Agent is Paddock/<version>, never pi's; no attribution to a server that does not read it", async () => {
    const headers = await ask(local());
    expect(headers["user-agent"]).toBe(`Paddock/${version}`);
    expect(String(headers["user-agent"])).not.toMatch(/\bpi\//);
    expect(headers).not.toHaveProperty("http-referer");
    expect(headers).not.toHaveProperty("x-title");
  });

  it("OpenRouter gets the app's title in both header names, and no web address Paddock does not own", async () => {
    const headers = await ask({ ...local(), provider: "openrouter" });
    expect(headers).toMatchObject({ "user-agent": `Paddock/${version}`, "x-title": "Paddock", "x-openrouter-title": "Paddock" });
    expect(headers).not.toHaveProperty("http-referer");
  });

  it("a request's own headers still win", async () => {
    const headers = await ask({ ...local(), provider: "openrouter" }, { "X-Title": "Mine" });
    expect(headers["x-title"]).toBe("Mine");
  });
});
