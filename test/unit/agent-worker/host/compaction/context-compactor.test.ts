/**
 * The compactor driving a real Agent against a scripted model: when it compacts, what the model is then sent, where
 * the marker lands in the transcript, overflow handled once, Stop, "Compact now", and queued messages kept.
 */
import { describe, expect, it } from "vitest";
import {
  createAssistantMessageEventStream,
  type AssistantMessage,
  type Context,
  type JsonObject,
  type Message,
  type SimpleStreamOptions,
  type Usage,
} from "@earendil-works/pi-ai";
import { Type } from "typebox";
import { Agent } from "../../../../../src/agent-worker/agent/agent";
import type { AgentMessage, AgentTool, StreamFn } from "../../../../../src/shared/agent/types";
import { ContextCompactor } from "../../../../../src/agent-worker/host/compaction/context-compactor";
import { SUMMARY_SYSTEM_PROMPT } from "../../../../../src/agent-worker/host/compaction/compaction-plan";
import { summaryForModel, type CompactionMessage } from "../../../../../src/shared/agent/compaction";
import { zeroUsage } from "../../../../../src/shared/agent/state";
import { model, reply, usage, user, words } from "../../../shared/agent/compaction-fixtures";

/** What the scripted model does for one request. */
interface Answer {
  text?: string;
  toolCall?: { id: string; name: string; arguments: JsonObject };
  /** Fails before streaming anything, as an HTTP error does. */
  error?: string;
  usage?: Usage;
  /** Waits for this before answering (or for the request's abort). */
  wait?: Promise<void>;
}

const OVERFLOW = "400 This model's maximum context length is 2000 tokens. However, you requested 2600 tokens.";

/** A stream function answering each request with the next answer, recording what it was asked. */
function scripted(answers: Answer[]): { stream: StreamFn; requests: { context: Context; options?: SimpleStreamOptions }[] } {
  const requests: { context: Context; options?: SimpleStreamOptions }[] = [];
  const stream: StreamFn = (m, context, options) => {
    requests.push({ context: { systemPrompt: context.systemPrompt, messages: structuredClone(context.messages) }, options });
    const answer = answers.shift() ?? { text: "(unscripted)" };
    const out = createAssistantMessageEventStream();
    const base: AssistantMessage = { role: "assistant", content: [], api: m.api, provider: m.provider, model: m.id, usage: answer.usage ?? zeroUsage(), stopReason: "stop", timestamp: Date.now() };
    void (async () => {
      const aborted = new Promise<void>((resolve) => options?.signal?.addEventListener("abort", () => resolve(), { once: true }));
      await Promise.race([answer.wait ?? new Promise((r) => setTimeout(r, 0)), aborted]);
      if (options?.signal?.aborted) return out.push({ type: "error", reason: "aborted", error: { ...base, stopReason: "aborted", errorMessage: "Request was aborted" } });
      if (answer.error) return out.push({ type: "error", reason: "error", error: { ...base, stopReason: "error", errorMessage: answer.error } });
      out.push({ type: "start", partial: base });
      const content: AssistantMessage["content"] = answer.toolCall ? [{ type: "toolCall", ...answer.toolCall }] : [{ type: "text", text: answer.text ?? "" }];
      out.push({ type: "done", reason: answer.toolCall ? "toolUse" : "stop", message: { ...base, content, stopReason: answer.toolCall ? "toolUse" : "stop" } });
    })();
    return out;
  };
  return { stream, requests };
}

/** The session's conversion, as the worker's: a marker becomes its summary, as a user message. */
function convertToLlm(messages: AgentMessage[]): Message[] {
  return messages.flatMap((m): Message[] => {
    if (m.role === "compaction") return [{ role: "user", content: [{ type: "text", text: summaryForModel(m) }], timestamp: m.timestamp }];
    return m.role === "user" || m.role === "assistant" || m.role === "toolResult" ? [m] : [];
  });
}

const echoParameters = Type.Object({ tokens: Type.Number() });
const echo: AgentTool<typeof echoParameters> = {
  name: "echo",
  label: "Echo",
  description: "Says it back, at length.",
  parameters: echoParameters,
  execute: async (_id, params) => ({ content: [{ type: "text", text: words(params.tokens, "e") }], details: {} }),
};

function session(initial: AgentMessage[], answers: Answer[]) {
  const { stream, requests } = scripted(answers);
  const appended: CompactionMessage[] = [];
  const notices: string[] = [];
  const compactor: ContextCompactor = new ContextCompactor(
    {
      messages: () => agent.data.messages,
      model: () => agent.state.model,
      thinkingLevel: () => agent.state.thinkingLevel,
      apiKey: async () => "key",
      convertToLlm,
      append: async (marker) => {
        agent.appendMessage(marker);
        appended.push(marker);
      },
      notify: (text) => void notices.push(text),
    },
    stream,
  );
  const agent: Agent = new Agent({
    initialState: { model, messages: initial, tools: [echo as AgentTool<any>] },
    streamFn: compactor.guardOverflow(),
    transformContext: compactor.transformContext,
    convertToLlm,
    getApiKey: () => "key",
    onStateEvent: (event) => {
      if (event.type === "run_start") compactor.runStarted();
    },
  });
  const summaries = () => requests.filter((r) => r.context.systemPrompt === SUMMARY_SYSTEM_PROMPT);
  const modelRequests = () => requests.filter((r) => r.context.systemPrompt !== SUMMARY_SYSTEM_PROMPT);
  return { agent, compactor, requests, summaries, modelRequests, appended, notices };
}

const texts = (context: Context) => context.messages.map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : p.type)).join("")));

/** A chat at 2,001 tokens of a 2,000-token window (threshold 1,500) once "next" is sent; the cut falls at message 2. */
const FULL_CHAT = () => [user(words(200, "a")), reply(words(200, "b")), user(words(500, "c")), reply(words(300, "d"), usage(1_700, 300))];

describe("automatic compaction (transformContext)", () => {
  it("leaves a context below window minus reserve alone", async () => {
    const s = session([user("hi"), reply("hello", usage(1_000, 10))], [{ text: "fine" }]);
    await s.agent.prompt("next");
    expect(s.summaries()).toHaveLength(0);
    expect(texts(s.modelRequests()[0].context)).toEqual(["hi", "hello", "next"]);
    expect(s.appended).toEqual([]);
  });

  it("past it, has the chat's model summarise the older turns and sends the summary and the kept turns", async () => {
    const chat = FULL_CHAT();
    const s = session(chat, [{ text: "## Goal\nA and B", usage: usage(250, 20) }, { text: "answer", usage: usage(1_000, 5) }]);
    await s.agent.prompt("next");
    // The summarising request: pi's shape, with the older turns as text, and a budget from the reserve.
    const [summary] = s.summaries();
    const request = texts(summary.context)[0];
    expect(request).toContain(`[User]: ${words(200, "a")}`);
    expect(request).toContain(`[Assistant]: ${words(200, "b")}`);
    expect(request).not.toContain(words(500, "c"));
    expect(summary.options?.maxTokens).toBe(400);
    // The marker: after the new prompt, keeping from message 2, with its figures.
    const messages = s.agent.state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "compaction", "assistant"]);
    const marker = messages[5] as CompactionMessage;
    expect(marker).toMatchObject({ summary: "## Goal\nA and B", firstKeptIndex: 2, summarisedMessages: 2, tokensBefore: 2_001, reason: "threshold", usage: usage(250, 20) });
    expect(marker.tokensAfter).toBeLessThan(marker.tokensBefore);
    expect(s.appended).toEqual([marker]);
    // What the model got: the summary, then the kept turns and the prompt; nothing of the summarised turns.
    expect(texts(s.modelRequests()[0].context)).toEqual([summaryForModel(marker), words(500, "c"), words(300, "d"), "next"]);
    // The next run sends the same compacted context, with what followed.
    await s.agent.prompt("and then?");
    expect(texts(s.modelRequests()[1].context)).toEqual([summaryForModel(marker), words(500, "c"), words(300, "d"), "next", "answer", "and then?"]);
    expect(s.summaries()).toHaveLength(1);
  });

  it("compacts in the middle of a run (a tool result filled the window), keeping the call with its result, and queued messages wait", async () => {
    let release!: () => void;
    const summaryWritten = new Promise<void>((resolve) => (release = resolve));
    const s = session([user(words(300, "old")), reply(words(300, "older"), usage(700, 300))], [
      { toolCall: { id: "c1", name: "echo", arguments: { tokens: 1_200 } }, usage: usage(1_100, 10) },
      { text: "## Goal\nold things", wait: summaryWritten },
      { text: "done", usage: usage(1_300, 5) },
      { text: "steered", usage: usage(1_350, 5) },
      { text: "followed", usage: usage(1_400, 5) },
    ]);
    const run = s.agent.prompt("go");
    await expect.poll(() => s.summaries().length).toBe(1);
    // Sent while the summary is being written: not in the context being summarised, delivered after it.
    s.agent.steer(user("a steer"));
    s.agent.followUp(user("a follow-up"));
    release();
    await run;
    const messages = s.agent.state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "toolResult", "compaction", "assistant", "user", "assistant", "user", "assistant"]);
    const marker = messages[5] as CompactionMessage;
    // The huge result is the newest thing: the cut keeps the call that asked for it, with it.
    expect(marker.firstKeptIndex).toBe(3);
    expect(messages[3].role).toBe("assistant");
    const [afterCompaction, steered, followed] = s.modelRequests().slice(1).map((r) => r.context);
    expect(afterCompaction.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(texts(steered).slice(-2)).toEqual(["done", "a steer"]);
    expect(texts(followed)[0]).toBe(summaryForModel(marker));
    expect(texts(followed).slice(-1)).toEqual(["a follow-up"]);
    expect(s.agent.queuedMessages()).toEqual({ steering: [], followUp: [] });
  });

  it("a summary that fails is reported once, the requests go out uncompacted, and the next run tries again", async () => {
    const s = session(FULL_CHAT(), [
      { error: "503 overloaded" },
      { toolCall: { id: "c1", name: "echo", arguments: { tokens: 5 } }, usage: usage(1_800, 10) },
      { text: "answer", usage: usage(1_850, 5) },
      { text: "## Goal\nnow it works" },
      { text: "later" },
    ]);
    await s.agent.prompt("next");
    expect(s.notices).toEqual(["Could not summarise earlier messages: the model could not write the summary: 503 overloaded"]);
    expect(s.summaries()).toHaveLength(1);
    expect(s.appended).toEqual([]);
    expect(texts(s.modelRequests()[0].context)).toHaveLength(5);
    expect(s.agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
    await s.agent.prompt("again");
    expect(s.summaries()).toHaveLength(2);
    expect(s.appended).toHaveLength(1);
  });

  it("a summary that keeps failing backs off over runs, is told once per reason, and a summary made ends the backoff", async () => {
    const answers: Answer[] = [];
    const s = session(FULL_CHAT(), answers);
    const attempted: number[] = [];
    const run = async (n: number, summary: Answer) => {
      const before = s.summaries().length;
      // A summary request comes first when one is made; the reply keeps the chat past the threshold.
      answers.push(summary, { text: `answer ${n}`, usage: usage(1_800, 5) });
      await s.agent.prompt(`prompt ${n}`);
      if (s.summaries().length > before) attempted.push(n);
      else answers.splice(0, 1); // the summary answer nobody asked for
      answers.length = 0;
    };
    for (let n = 1; n <= 9; n++) await run(n, { text: "" });
    // Tried in runs 1 and 2, then after 1, 3 (and next 7) runs skipped: not on every run.
    expect(attempted).toEqual([1, 2, 4, 8]);
    expect(s.notices).toEqual(["Could not summarise earlier messages: the model wrote an empty summary"]);
    expect(s.appended).toEqual([]);
    // Every run still answered, with the whole context.
    expect(s.agent.state.messages.filter((m) => m.role === "assistant" && m.stopReason === "stop")).toHaveLength(9 + 2);
    // Another reason is told; a summary made ends the backoff, so the next failure is tried again at once.
    for (let n = 10; n <= 16; n++) await run(n, { error: "503 overloaded" });
    expect(attempted).toEqual([1, 2, 4, 8, 16]);
    expect(s.notices).toHaveLength(2);
    expect(s.notices[1]).toBe("Could not summarise earlier messages: the model could not write the summary: 503 overloaded");
    for (let n = 17; n <= 32; n++) await run(n, { text: "## Goal\nfinally" });
    expect(attempted.at(-1)).toBe(32);
    expect(s.appended).toHaveLength(1);
  });

  it("another model is asked for the summary at once, backoff or not", async () => {
    const answers: Answer[] = [];
    const s = session(FULL_CHAT(), answers);
    for (const n of [1, 2]) {
      answers.push({ text: "" }, { text: `answer ${n}`, usage: usage(1_800, 5) });
      await s.agent.prompt(`prompt ${n}`);
    }
    // Two failures in a row: the next run would wait; with another model it tries at once.
    expect(s.summaries()).toHaveLength(2);
    s.agent.state.model = { ...model, id: "another-model" };
    answers.push({ text: "## Goal\nother" }, { text: "answer 3", usage: usage(1_800, 5) });
    await s.agent.prompt("prompt 3");
    expect(s.summaries()).toHaveLength(3);
    expect(s.appended).toHaveLength(1);
    expect(answers).toEqual([]);
  });

  it("Stop while the summary is written ends the run as stopped, with no marker and no complaint", async () => {
    const s = session(FULL_CHAT(), [{ text: "never", wait: new Promise(() => {}) }]);
    const run = s.agent.prompt("next");
    await expect.poll(() => s.summaries().length).toBe(1);
    s.agent.abort();
    await run;
    expect(s.appended).toEqual([]);
    expect(s.notices).toEqual([]);
    expect(s.agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });
});

describe("a provider's context overflow", () => {
  const chat = () => [user("first"), reply("one"), user("second"), reply("two")];

  it("compacts and asks again, once: the reply arrives as if nothing happened", async () => {
    const s = session(chat(), [{ error: OVERFLOW }, { text: "## Goal\nfirst things" }, { text: "answer" }]);
    await s.agent.prompt("third");
    expect(s.requests.map((r) => (r.context.systemPrompt === SUMMARY_SYSTEM_PROMPT ? "summary" : "model"))).toEqual(["model", "summary", "model"]);
    const messages = s.agent.state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "compaction", "assistant"]);
    expect(messages[5]).toMatchObject({ reason: "overflow", firstKeptIndex: 4 });
    expect(messages.at(-1)).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "answer" }] });
    expect(texts(s.modelRequests()[1].context)).toEqual([summaryForModel(messages[5] as CompactionMessage), "third"]);
  });

  it("a second overflow fails the reply with a clear message", async () => {
    const s = session(chat(), [{ error: OVERFLOW }, { text: "## Goal\nfirst things" }, { error: OVERFLOW }]);
    await s.agent.prompt("third");
    expect(s.requests).toHaveLength(3);
    const last = s.agent.state.messages.at(-1) as AssistantMessage;
    expect(last.stopReason).toBe("error");
    expect(last.errorMessage).toMatch(/^Context overflow: the conversation is too long for this model's context window \(2,000 tokens\) even after summarising earlier messages/);
    expect(last.errorMessage).toContain(OVERFLOW);
  });

  it("with nothing older to summarise, fails at once and says why", async () => {
    const s = session([], [{ error: OVERFLOW }]);
    await s.agent.prompt(words(3_000));
    expect(s.requests).toHaveLength(1);
    expect((s.agent.state.messages.at(-1) as AssistantMessage).errorMessage).toMatch(/^Context overflow: .* did not help \(Nothing to compact yet/);
  });

  it("other errors pass through untouched", async () => {
    const s = session(chat(), [{ error: "429 rate limit" }]);
    await s.agent.prompt("third");
    expect(s.requests).toHaveLength(1);
    expect((s.agent.state.messages.at(-1) as AssistantMessage).errorMessage).toBe("429 rate limit");
  });
});

describe("Compact now", () => {
  it("summarises all but the newest turn of a small chat, and refuses to do it twice in a row", async () => {
    const s = session([user("first"), reply("one"), user("second"), reply("two")], [{ text: "## Goal\nfirst" }]);
    await s.compactor.compactNow();
    expect(s.agent.state.messages.at(-1)).toMatchObject({ role: "compaction", reason: "manual", firstKeptIndex: 2, summarisedMessages: 2 });
    await expect(s.compactor.compactNow()).rejects.toThrow(/^Already compacted/);
  });

  it("refuses a one-turn chat", async () => {
    const s = session([user("first"), reply("one")], []);
    await expect(s.compactor.compactNow()).rejects.toThrow(/^Nothing to compact yet/);
    expect(s.requests).toHaveLength(0);
  });

  it("gives way to a message sent while it summarises: nothing is compacted", async () => {
    let release!: () => void;
    const s = session([user("first"), reply("one"), user("second"), reply("two")], [{ text: "late", wait: new Promise<void>((r) => (release = r)) }, { text: "answer" }]);
    const compacting = s.compactor.compactNow();
    await expect.poll(() => s.summaries().length).toBe(1);
    await s.agent.prompt("third");
    release();
    await expect(compacting).rejects.toThrow(/the chat changed/);
    expect(s.agent.state.messages.some((m) => m.role === "compaction")).toBe(false);
  });

  it("stops when asked", async () => {
    const s = session([user("first"), reply("one"), user("second"), reply("two")], [{ text: "never", wait: new Promise(() => {}) }]);
    const compacting = s.compactor.compactNow();
    await expect.poll(() => s.summaries().length).toBe(1);
    s.compactor.abortManual();
    await expect(compacting).rejects.toThrow(/stopped/);
    expect(s.appended).toEqual([]);
  });
});
