import { describe, expect, it } from "vitest";
import {
  type AgentStateData,
  type AgentStateEvent,
  createAgentStateData,
  DEFAULT_MODEL,
  reduceAgentState,
} from "../../../../src/shared/agent/state";
import { assistantText, userMessage } from "../../agent-worker/agent/harness";

const assistant = assistantText(DEFAULT_MODEL, "hi");
const failed = { ...assistant, stopReason: "error" as const, errorMessage: "boom" };

/** Deep-freezes so any mutation by the reducer throws. */
function frozen<T>(value: T): T {
  if (value && typeof value === "object" && !(value instanceof Set)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

function reduceAll(state: AgentStateData, events: AgentStateEvent[]): AgentStateData {
  return events.reduce((current, event) => reduceAgentState(frozen(current), frozen(event)), state);
}

describe("createAgentStateData", () => {
  it("has pi's defaults: empty prompt, the unknown model, thinking off, nothing running", () => {
    const state = createAgentStateData();
    expect(state).toEqual({
      systemPrompt: "",
      model: DEFAULT_MODEL,
      thinkingLevel: "off",
      messages: [],
      isStreaming: false,
      streamingMessage: undefined,
      pendingToolCalls: new Set(),
      errorMessage: undefined,
    });
    expect(DEFAULT_MODEL.id).toBe("unknown");
  });

  it("copies the initial messages array", () => {
    const messages = [userMessage("a")];
    const state = createAgentStateData({ messages });
    messages.push(userMessage("b"));
    expect(state.messages).toHaveLength(1);
  });
});

describe("reduceAgentState", () => {
  it("tracks the streaming message and appends at message_end, without mutating its input", () => {
    const start = createAgentStateData();
    const streaming = reduceAll(start, [{ type: "message_start", message: assistant }]);
    expect(streaming.streamingMessage).toBe(assistant);
    const done = reduceAgentState(streaming, { type: "message_end", message: assistant });
    expect(done.streamingMessage).toBeUndefined();
    expect(done.messages).toEqual([assistant]);
    expect(streaming.messages).toEqual([]);
    expect(start.streamingMessage).toBeUndefined();
  });

  it("drops the newest messages by count, so a mirror holding only the newest part applies it the same way", () => {
    const m = (text: string) => ({ role: "user" as const, content: text, timestamp: 0 });
    const whole = createAgentStateData({ messages: [m("1"), m("2"), m("3"), m("4")] });
    const newestPart = createAgentStateData({ messages: [m("3"), m("4")] });
    const drop: AgentStateEvent = { type: "drop_last_messages", count: 1 };
    expect(reduceAgentState(whole, drop).messages).toEqual([m("1"), m("2"), m("3")]);
    expect(reduceAgentState(newestPart, drop).messages).toEqual([m("3")]);
    expect(reduceAgentState(whole, { type: "drop_last_messages", count: 0 })).toBe(whole);
  });

  it("returns the same state when nothing changes", () => {
    const state = createAgentStateData();
    for (const event of [
      { type: "agent_start" },
      { type: "turn_start" },
      { type: "agent_end", messages: [] },
      { type: "turn_end", message: assistant, toolResults: [] },
      { type: "tool_execution_end", toolCallId: "absent", toolName: "t", result: {}, isError: false },
      { type: "tool_execution_update", toolCallId: "x", toolName: "t", args: {}, partialResult: {} },
      { type: "run_settled" },
      { type: "state_patch", patch: { systemPrompt: "" } },
    ] satisfies AgentStateEvent[]) {
      expect(reduceAgentState(state, event)).toBe(state);
    }
  });

  it("replaces pendingToolCalls with a new Set on every change", () => {
    const start = createAgentStateData();
    const one = reduceAgentState(start, { type: "tool_execution_start", toolCallId: "a", toolName: "t", args: {} });
    const two = reduceAgentState(one, { type: "tool_execution_start", toolCallId: "b", toolName: "t", args: {} });
    const back = reduceAgentState(two, {
      type: "tool_execution_end",
      toolCallId: "a",
      toolName: "t",
      result: {},
      isError: false,
    });
    expect([...one.pendingToolCalls]).toEqual(["a"]);
    expect([...two.pendingToolCalls]).toEqual(["a", "b"]);
    expect([...back.pendingToolCalls]).toEqual(["b"]);
    expect(new Set([start.pendingToolCalls, one.pendingToolCalls, two.pendingToolCalls, back.pendingToolCalls]).size).toBe(4);
    const settled = reduceAgentState({ ...back, isStreaming: true }, { type: "run_settled" });
    expect(settled.pendingToolCalls.size).toBe(0);
    expect(settled.pendingToolCalls).not.toBe(back.pendingToolCalls);
  });

  it("records errors from failed turns only, and clears them when a run starts", () => {
    const ok = reduceAgentState(createAgentStateData(), { type: "turn_end", message: assistant, toolResults: [] });
    expect(ok.errorMessage).toBeUndefined();
    const bad = reduceAgentState(ok, { type: "turn_end", message: failed, toolResults: [] });
    expect(bad.errorMessage).toBe("boom");
    const running = reduceAgentState(bad, { type: "run_start" });
    expect(running).toMatchObject({ isStreaming: true, errorMessage: undefined, streamingMessage: undefined });
  });

  it("run_failure appends the failure message and records its error; run_settled ends streaming", () => {
    const running = reduceAll(createAgentStateData(), [
      { type: "run_start" },
      { type: "message_start", message: assistant },
      { type: "run_failure", message: failed },
    ]);
    expect(running.messages).toEqual([failed]);
    expect(running.errorMessage).toBe("boom");
    const settled = reduceAgentState(running, { type: "run_settled" });
    expect(settled).toMatchObject({ isStreaming: false, streamingMessage: undefined, errorMessage: "boom" });
  });

  it("state_patch applies setters; reset clears transcript and runtime state but keeps prompt and model", () => {
    const model = { ...DEFAULT_MODEL, id: "other" };
    const patched = reduceAll(createAgentStateData(), [
      { type: "state_patch", patch: { systemPrompt: "sys", model, thinkingLevel: "high", messages: [userMessage("a")] } },
      { type: "run_start" },
      { type: "tool_execution_start", toolCallId: "a", toolName: "t", args: {} },
      { type: "turn_end", message: failed, toolResults: [] },
    ]);
    const reset = reduceAgentState(patched, { type: "reset" });
    expect(reset).toMatchObject({
      systemPrompt: "sys",
      model,
      thinkingLevel: "high",
      messages: [],
      isStreaming: false,
      streamingMessage: undefined,
      errorMessage: undefined,
    });
    expect(reset.pendingToolCalls.size).toBe(0);
  });
});
