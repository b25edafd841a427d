import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startOpenAIServer, type OpenAITestServer } from "../../../src/web-host/openai-test-server";

/** Sends a chat-completions request and returns the parsed `data:` events (the `[DONE]` marker as a string). */
async function chat(server: OpenAITestServer, body: object, init: RequestInit = {}) {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: JSON.stringify({ model: "m", stream: true, ...body }),
    ...init,
  });
  const text = await response.text();
  const isStream = response.headers.get("content-type")?.startsWith("text/event-stream");
  return { response, text, events: isStream ? parseSse(text) : [] };
}

function parseSse(text: string): any[] {
  return text
    .split("\n\n")
    .filter((block) => block.length > 0)
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      const data = block.slice("data: ".length);
      return data === "[DONE]" ? data : JSON.parse(data);
    });
}

const user = (content: unknown) => ({ messages: [{ role: "user", content }] });
const deltas = (events: any[]) => events.filter((e) => e !== "[DONE]" && e.choices.length > 0).map((e) => e.choices[0].delta);

let server: OpenAITestServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

describe("openai test server", () => {
  it("listens on loopback and lists models", async () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await (await fetch(`${server.baseUrl}/models`)).json();
    expect(models).toEqual({ object: "list", data: [expect.objectContaining({ id: "paddock-test", object: "model" })] });
  });

  it("refuses a non-loopback host", async () => {
    await expect(startOpenAIServer({ host: "0.0.0.0" })).rejects.toThrow(/loopback/);
  });

  it("streams text in chunkChars pieces, then finish_reason stop, usage and [DONE]", async () => {
    server.enqueue({ text: "hello world", chunkChars: 4, usage: { prompt_tokens: 7, completion_tokens: 3 } });
    const { response, events } = await chat(server, { ...user("hi"), stream_options: { include_usage: true } });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(deltas(events)).toEqual([{ role: "assistant", content: "hell" }, { content: "o wo" }, { content: "rld" }, {}]);
    for (const e of events.slice(0, -1)) {
      expect(e).toMatchObject({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m" });
    }
    expect(events.at(-3).choices[0].finish_reason).toBe("stop");
    expect(events.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
    expect(events.at(-1)).toBe("[DONE]");
  });

  it("sends no usage chunk unless stream_options.include_usage", async () => {
    server.enqueue({ text: "x" });
    const { events } = await chat(server, user("hi"));
    expect(events.some((e) => e !== "[DONE]" && e.usage)).toBe(false);
  });

  it("streams reasoning as reasoning_content before the text", async () => {
    server.enqueue({ reasoning: "think", text: "ok", chunkChars: 100 });
    const { events } = await chat(server, user("hi"));
    expect(deltas(events)).toEqual([{ role: "assistant", reasoning_content: "think" }, { content: "ok" }, {}]);
  });

  it("streams tool calls as index/id/name then argument fragments, finish_reason tool_calls", async () => {
    server.enqueue({
      toolCalls: [
        { id: "a", name: "read", arguments: { path: "/x" } },
        { name: "raw", arguments: '{"broken' },
      ],
      chunkChars: 5,
    });
    const { events } = await chat(server, user("hi"));
    const calls = deltas(events).flatMap((d) => d.tool_calls ?? []);
    expect(calls[0]).toEqual({ index: 0, id: "a", type: "function", function: { name: "read", arguments: "" } });
    const argsOf = (index: number) => calls.filter((c) => c.index === index).map((c) => c.function.arguments).join("");
    expect(JSON.parse(argsOf(0))).toEqual({ path: "/x" });
    expect(argsOf(1)).toBe('{"broken');
    expect(calls.find((c) => c.index === 1 && c.id)).toMatchObject({ id: "call_1_1", function: { name: "raw" } });
    expect(calls.filter((c) => c.function.arguments.length > 5)).toEqual([]);
    expect(events.at(-2).choices[0].finish_reason).toBe("tool_calls");
  });

  it("honours finishReason length", async () => {
    server.enqueue({ text: "cut", finishReason: "length" });
    const { events } = await chat(server, user("hi"));
    expect(events.at(-2).choices[0].finish_reason).toBe("length");
  });

  it("answers an error turn with an OpenAI error body and retry-after", async () => {
    server.enqueue({ error: { status: 429, message: "slow down", retryAfterSeconds: 3 } });
    const { response, text } = await chat(server, user("hi"));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(JSON.parse(text)).toMatchObject({ error: { message: "slow down", type: "rate_limit_error" } });
  });

  it("records requests with body and headers", async () => {
    server.enqueue({ text: "x" });
    await chat(server, user("hi"));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body).toMatchObject({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(server.requests[0].headers.authorization).toBe("Bearer k");
  });

  it("serves queued turns in order, then falls back to echoing the last user text", async () => {
    server.enqueue({ text: "one" }, { text: "two" });
    const texts = [];
    for (let i = 0; i < 3; i++) {
      const { events } = await chat(server, user([{ type: "text", text: "echo me" }]));
      texts.push(deltas(events).map((d) => d.content ?? "").join(""));
    }
    expect(texts).toEqual(["one", "two", "echo me"]);
  });

  it("obeys a [[turn: {json}]] directive, then answers the tool-result request with plain text", async () => {
    const directive = 'go [[turn: {"toolCalls":[{"name":"ls","arguments":{"glob":"]]"}}]}]] now';
    const first = await chat(server, user(directive));
    expect(deltas(first.events).flatMap((d) => d.tool_calls ?? [])[0].function.name).toBe("ls");

    const second = await chat(server, {
      messages: [
        { role: "user", content: directive },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c", content: "a.txt" },
      ],
    });
    expect(deltas(second.events).map((d) => d.content ?? "").join("")).toBe("Received 1 tool result.");
    expect(second.events.at(-2).choices[0].finish_reason).toBe("stop");
  });

  it("rejects a malformed directive with a 400 naming it", async () => {
    const { response, text } = await chat(server, user("[[turn: {nope]]"));
    expect(response.status).toBe(400);
    expect(JSON.parse(text).error.message).toMatch(/malformed \[\[turn:/);
  });

  it("uses a custom fallback", async () => {
    server.setFallback((body) => ({ text: `n=${body.messages.length}` }));
    const { events } = await chat(server, user("hi"));
    expect(deltas(events)[0].content).toBe("n=1");
  });

  it("rejects non-streaming requests, bad JSON and unknown routes", async () => {
    const nonStream = await chat(server, { ...user("hi"), stream: false });
    expect(nonStream.response.status).toBe(400);
    const badJson = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: "{" });
    expect(badJson.status).toBe(400);
    expect((await fetch(`${server.baseUrl}/nope`)).status).toBe(404);
  });

  it("drops the connection after N chunks, having delivered them", async () => {
    server.enqueue({ text: "abcdefgh", chunkChars: 2, dropAfterChunks: 2 });
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ stream: true, ...user("hi") }),
    });
    const reader = response.body!.getReader();
    let received = "";
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received += new TextDecoder().decode(value);
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(deltas(parseSse(received)).map((d) => d.content)).toEqual(["ab", "cd"]);
  });

  it("hangs after N chunks until the client aborts", async () => {
    server.enqueue({ text: "abcdefgh", chunkChars: 2, hangAfterChunks: 1 });
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ stream: true, ...user("hi") }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(deltas(parseSse(first)).map((d) => d.content)).toEqual(["ab"]);
    const next = reader.read();
    controller.abort();
    await expect(next).rejects.toThrow();
  });

  it("close() ends a hanging stream", async () => {
    server.enqueue({ text: "abcd", hangAfterChunks: 0 });
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ stream: true, ...user("hi") }),
    });
    const body = response.text();
    await server.close();
    await expect(body).rejects.toThrow();
  });

  it("paces chunks when tokensPerSecond is set, still delivering everything", async () => {
    server.enqueue({ text: "x".repeat(64), chunkChars: 8, tokensPerSecond: 400 });
    const { events } = await chat(server, user("hi"));
    expect(deltas(events).map((d) => d.content ?? "").join("")).toBe("x".repeat(64));
  });
});
