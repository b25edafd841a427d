/**
 * The O(delta) event stream, in one process: a real Agent (pi-ai's faux provider) -> StateEventEncoder ->
 * EventForwarder (with state digests) -> a cloning transport -> SessionMirror. The mirror checks the worker's digest
 * after every batch, so zero mismatches means it equalled the worker after every batch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall, type FauxProviderRegistration } from "@earendil-works/pi-ai";
import { Agent, type AgentTool } from "../../../../src/agent-worker/agent/index";
import { EventForwarder } from "../../../../src/agent-worker/host/mirror/event-forwarder";
import { createAgentStateData, reduceAgentState, zeroUsage, type AgentStateEvent } from "../../../../src/shared/agent/state";
import { jsonEqual } from "../../../../src/shared/protocol/message-patch";
import { stateDigest } from "../../../../src/shared/protocol/state-digest";
import { StateEventDecoder, StateEventEncoder } from "../../../../src/shared/protocol/wire-events";
import { fromEventFrame, toEventFrame, type EventBatch } from "../../../../src/shared/protocol/session-protocol";
import { SessionMirror } from "../../../../src/renderer/store/session-mirror";
import { registerFauxModel, registerScriptedModel, textResult, userMessage } from "../../agent-worker/agent/harness";
import { Type } from "typebox";

let faux: FauxProviderRegistration | undefined;
afterEach(() => faux?.unregister());

function wire(agentOptions: ConstructorParameters<typeof Agent>[0] = {}, withDigest = true) {
  const encoder = new StateEventEncoder();
  const mirror = new SessionMirror("s", createAgentStateData());
  let bytes = 0;
  let agent!: Agent;
  const forwarder = new EventForwarder({
    send: (batch: EventBatch) => {
      // As it travels: the frame, serialized; then read back the way the page's client does.
      const json = JSON.stringify(toEventFrame(batch));
      bytes += json.length;
      const received = fromEventFrame(JSON.parse(json));
      if (!received) throw new Error(`batch ${batch.seq} did not survive the wire`);
      const outcome = mirror.applyBatch(received);
      if (outcome !== "applied") throw new Error(`batch ${batch.seq} was ${outcome}`);
    },
    digest: !withDigest ? undefined : () => {
      const queues = agent.queuedMessages();
      return stateDigest({ ...agent.data, streamingMessage: encoder.mirroredStreamingMessage }, queues.steering, queues.followUp);
    },
  });
  agent = new Agent({
    ...agentOptions,
    onStateEvent: (event, state) => forwarder.push(encoder.encode(event, state)),
    onQueueChange: (c) => forwarder.push({ k: "queues", steering: [...c.steering], followUp: [...c.followUp] }),
  });
  mirror.loadSnapshot({
    sessionId: "s", seq: 0, state: { ...agent.data, pendingToolCalls: [] }, steering: [], followUp: [],
    steeringMode: "one-at-a-time", followUpMode: "one-at-a-time", toolExecution: "parallel", toolRuns: {}, approvals: [],
  });
  const settle = async () => {
    await agent.waitForIdle();
    forwarder.flush();
  };
  const expectEqual = () => {
    const view = mirror.getView();
    expect(mirror.stats.digestMismatches).toBe(0);
    expect(mirror.stats.resyncs).toBe(0);
    expect(jsonEqual(view.state.messages, agent.state.messages)).toBe(true);
    expect(view.state.isStreaming).toBe(agent.state.isStreaming);
    expect(view.state.errorMessage).toBe(agent.state.errorMessage);
  };
  return { agent, mirror, settle, expectEqual, bytes: () => bytes };
}

const echoTool: AgentTool<any> = {
  name: "echo",
  label: "Echo",
  description: "echo",
  parameters: Type.Object({ text: Type.String() }),
  execute: async (_id: string, params: unknown) => textResult((params as { text: string }).text),
};

describe("the event stream from worker to mirror", () => {
  it("keeps the mirror equal through thinking, text and streamed tool-call arguments", async () => {
    faux = registerScriptedModel();
    faux.setResponses([
      fauxAssistantMessage([fauxThinking("let me think about this"), fauxText("I will echo."), fauxToolCall("echo", { text: "a long argument ".repeat(5) }, { id: "t1" })], { stopReason: "toolUse" }),
      fauxAssistantMessage("Echoed. **Done**."),
    ]);
    const w = wire({ initialState: { model: faux.getModel(), tools: [echoTool] } });
    await w.agent.prompt("go");
    await w.settle();
    w.expectEqual();
    expect(w.mirror.stats.digestChecks).toBeGreaterThan(5);
    expect(w.mirror.getView().state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });

  it("keeps the mirror equal through an abort mid-stream, queues, and reset", async () => {
    faux = registerScriptedModel();
    faux.setResponses([fauxAssistantMessage("word ".repeat(200)), fauxAssistantMessage("after follow-up")]);
    const w = wire({ initialState: { model: faux.getModel() } });
    const run = w.agent.prompt("talk");
    await new Promise((r) => setTimeout(r, 30));
    w.agent.followUp(userMessage("later"));
    w.agent.abort();
    await run;
    await w.settle();
    w.expectEqual();
    expect(w.mirror.getView().followUp).toHaveLength(1);
    w.agent.reset();
    await w.settle();
    w.expectEqual();
    expect(w.mirror.getView().state.messages).toEqual([]);
  });

  it("costs O(delta): a long reply at 2000 tokens/s travels in under two bytes per character", async () => {
    faux = registerFauxModel({ api: "bytes", provider: "bytes", tokenSize: { min: 4, max: 4 }, tokensPerSecond: 2000 });
    const text = "0123456789".repeat(2_000);
    faux.setResponses([fauxAssistantMessage(text)]);
    const w = wire({ initialState: { model: faux.getModel() } }, false);
    await w.agent.prompt("long");
    await w.settle();
    w.expectEqual();
    expect(w.bytes() / text.length).toBeLessThan(2);
  });
});

describe("the mirror's sequencing", () => {
  const snapshot = {
    sessionId: "s", seq: 5, state: { ...createAgentStateData(), pendingToolCalls: [] as string[] },
    steering: [], followUp: [], steeringMode: "all" as const, followUpMode: "all" as const, toolExecution: "parallel" as const, toolRuns: {}, approvals: [],
  };

  it("carries a tool name that arrives after the call started, in an update with no argument text", () => {
    // pi-ai's OpenAI-compatible provider does this when the name comes in a later chunk than the call's id.
    const encoder = new StateEventEncoder();
    const decoder = new StateEventDecoder();
    let worker = createAgentStateData();
    let mirror = createAgentStateData();
    const step = (event: AgentStateEvent) => {
      worker = reduceAgentState(worker, event);
      const item = JSON.parse(JSON.stringify(encoder.encode(event, worker)));
      mirror = reduceAgentState(mirror, decoder.decode(item, mirror));
      expect(mirror.streamingMessage ?? mirror.messages.at(-1)).toEqual(encoder.mirroredStreamingMessage ?? worker.messages.at(-1));
    };
    const message = (name: string, partialArgs: string): any => ({
      role: "assistant", api: "x", provider: "p", model: "m", usage: zeroUsage(), stopReason: "toolUse", timestamp: 1,
      content: [{ type: "toolCall", id: "c1", name, arguments: {}, partialArgs }],
    });
    const update = (m: any, type: string, delta?: string): AgentStateEvent =>
      ({ type: "message_update", message: m, assistantMessageEvent: { type, contentIndex: 0, ...(delta === undefined ? {} : { delta }), partial: m } }) as AgentStateEvent;
    step({ type: "message_start", message: { ...message("", ""), content: [] } });
    step(update(message("", ""), "toolcall_start"));
    step(update(message("calculate", ""), "toolcall_delta", ""));
    step(update(message("calculate", '{"x":'), "toolcall_delta", '{"x":'));
    step(update(message("calculate", '{"x":1}'), "toolcall_delta", "1}"));
    expect((mirror.streamingMessage as any).content[0]).toMatchObject({ name: "calculate", partialArgs: '{"x":1}' });
  });

  it("ignores batches the snapshot already holds and asks for a resync on a gap", () => {
    const mirror = new SessionMirror("s", createAgentStateData());
    expect(mirror.applyBatch({ seq: 1, items: [] })).toBe("resync");
    mirror.loadSnapshot(snapshot);
    expect(mirror.applyBatch({ seq: 5, items: [] })).toBe("stale");
    expect(mirror.applyBatch({ seq: 6, items: [{ k: "s", e: { type: "run_start" } }] })).toBe("applied");
    expect(mirror.getView().state.isStreaming).toBe(true);
    expect(mirror.applyBatch({ seq: 8, items: [] })).toBe("resync");
  });

  it("refuses a batch it cannot decode instead of throwing", () => {
    const mirror = new SessionMirror("s", createAgentStateData());
    mirror.loadSnapshot(snapshot);
    const bad = { seq: 6, items: [{ k: "me", p: [] }] } as EventBatch;
    expect(mirror.applyBatch(bad)).toBe("resync");
    expect(mirror.stats.resyncs).toBe(1);
  });
});

describe("event frames on the wire", () => {
  it("a batch of one append travels in the compact form; any other batch as items; both read back as sent", () => {
    const append: EventBatch = { seq: 7, items: [{ k: "a", i: 2, a: "more text" }] };
    expect(toEventFrame(append)).toEqual({ ch: "ev", seq: 7, a: [2, "more text"] });
    const mixed: EventBatch = { seq: 8, items: [{ k: "a", i: 0, a: "x" }, { k: "s", e: { type: "turn_start" } }], digest: "d" };
    expect(toEventFrame(mixed)).toEqual({ ch: "ev", seq: 8, items: mixed.items, digest: "d" });
    for (const batch of [append, mixed, { ...append, digest: "z" }]) expect(fromEventFrame(JSON.parse(JSON.stringify(toEventFrame(batch))))).toEqual(batch);
  });

  it("a malformed frame reads as nothing (the client then resyncs) instead of throwing", () => {
    for (const bad of [{ ch: "ev" }, { ch: "ev", seq: 1 }, { ch: "ev", seq: 1, a: "x" }, { ch: "ev", seq: 1, a: [0] }, { ch: "ev", seq: "1", items: [] }]) {
      expect(fromEventFrame(bad as never)).toBeUndefined();
    }
  });
});
