/** Our additions to pi's Agent: onStateEvent, onQueueChange, queuedMessages(), data. */
import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Agent,
  type AgentStateData,
  type AgentStateEvent,
  createAgentStateData,
  type QueueChange,
  reduceAgentState,
} from "../../../../src/agent-worker/agent/index";
import { userMessage, useScriptedModel } from "./harness";

const faux = useScriptedModel();
afterEach(() => vi.restoreAllMocks());

describe("onStateEvent", () => {
  it("reports every reduction before listeners run; replaying the events rebuilds the same data", async () => {
    faux.setResponses([fauxAssistantMessage("hello")]);
    const reported: { event: AgentStateEvent; state: Readonly<AgentStateData> }[] = [];
    const agent = new Agent({
      initialState: { model: faux.getModel() },
      onStateEvent: (event, state) => reported.push({ event, state }),
    });
    const initial = agent.data;
    agent.subscribe((event) => {
      expect(reported.at(-1)?.event).toBe(event);
    });
    agent.state.systemPrompt = "sys";
    await agent.prompt("hi");

    expect(reported.map((r) => r.event.type)).toEqual([
      "state_patch",
      "run_start",
      "agent_start",
      "turn_start",
      "message_start",
      "message_end",
      "message_start",
      ...reported.slice(7, -4).map(() => "message_update"),
      "message_end",
      "turn_end",
      "agent_end",
      "run_settled",
    ]);
    const mirror = reported.reduce((state, r) => reduceAgentState(state, r.event), initial as AgentStateData);
    expect(mirror).toEqual(agent.data);
    expect(reported.at(-1)?.state).toBe(agent.data);
  });

  it("a throwing hook is logged once and never breaks the run", async () => {
    faux.setResponses([fauxAssistantMessage("hello")]);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const agent = new Agent({
      initialState: { model: faux.getModel() },
      onStateEvent: () => {
        throw new Error("forwarder broke");
      },
    });
    await agent.prompt("hi");
    expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(agent.state.errorMessage).toBeUndefined();
    expect(errors).toHaveBeenCalledTimes(1);
  });
});

describe("onQueueChange and queuedMessages()", () => {
  it("reports enqueue, drain by the loop and clear, with copies of both queues", async () => {
    faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
    const changes: QueueChange[] = [];
    const agent = new Agent({ initialState: { model: faux.getModel() }, onQueueChange: (c) => changes.push(c) });
    agent.followUp(userMessage("f"));
    agent.steer(userMessage("s"));
    expect(agent.queuedMessages()).toEqual({ steering: [userMessage("s")], followUp: [userMessage("f")] });
    agent.queuedMessages().steering.length = 0;
    expect(agent.queuedMessages().steering).toHaveLength(1);
    await agent.prompt("go");
    agent.steer(userMessage("x"));
    agent.reset();
    agent.clearAllQueues();
    expect(changes.map((c) => [c.reason, c.steering.length, c.followUp.length])).toEqual([
      ["enqueue", 0, 1],
      ["enqueue", 1, 1],
      ["drain", 0, 1],
      ["drain", 0, 0],
      ["enqueue", 1, 0],
      ["clear", 0, 0],
    ]);
  });

  it("drains by continue() are reported too, and a throwing hook is logged once", async () => {
    faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const reasons: string[] = [];
    const agent = new Agent({
      initialState: { model: faux.getModel() },
      onQueueChange: (change) => {
        reasons.push(change.reason);
        throw new Error("journal broke");
      },
    });
    await agent.prompt("go");
    agent.followUp(userMessage("later"));
    await agent.continue();
    expect(reasons).toEqual(["enqueue", "drain"]);
    expect(agent.state.messages).toHaveLength(4);
    expect(errors).toHaveBeenCalledTimes(1);
  });
});

describe("data", () => {
  it("is the current plain data, replaced by each change", () => {
    const agent = new Agent();
    const before = agent.data;
    expect(before).toEqual(createAgentStateData());
    agent.state.messages = [userMessage("a")];
    expect(agent.data).not.toBe(before);
    expect(before.messages).toEqual([]);
    expect(agent.data.messages).toBe(agent.state.messages);
  });
});
