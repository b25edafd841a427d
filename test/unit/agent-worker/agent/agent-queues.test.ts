/** Behaviour d (queues) and g (continue) of the Agent (issue 2). */
import {
  type Context,
  fauxAssistantMessage,
  type FauxResponseStep,
  fauxToolCall,
  withoutInitialSystemMessage,
} from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { Agent, type QueueChange } from "../../../../src/agent-worker/agent/index";
import { echoTool, scriptedAgent, textOf, userMessage, useScriptedModel } from "./harness";

const faux = useScriptedModel();

/** A response step that records the last user-visible text of each request. */
function answering(requests: string[][], text: string): FauxResponseStep {
  return (context: Context) => {
    requests.push(withoutInitialSystemMessage(context.messages).map((m) => `${m.role}:${textOf(m as never)}`));
    return fauxAssistantMessage(text);
  };
}

const agentWithEcho = (responses: FauxResponseStep[]): Agent =>
  scriptedAgent(faux, responses, { initialState: { tools: [echoTool("echo")] } });

describe("d. queues", () => {
  it("steering enters after the turn's tool calls and before the next model call, one per turn", async () => {
    const requests: string[][] = [];
    const agent = agentWithEcho([
      fauxAssistantMessage([fauxToolCall("echo", { text: "a", delayMs: 5 }, { id: "c1" })]),
      answering(requests, "saw s1"),
      answering(requests, "saw s2"),
    ]);
    agent.subscribe((event) => {
      if (event.type === "tool_execution_start") {
        agent.steer(userMessage("s1"));
        agent.steer(userMessage("s2"));
      }
    });
    await agent.prompt("go");
    expect(requests[0].slice(-3)).toEqual(["assistant:[toolCall]", "toolResult:echo:a", "user:s1"]);
    expect(requests[1].slice(-2)).toEqual(["assistant:saw s1", "user:s2"]);
  });

  it("follow-ups wait until the agent would stop; mode 'all' drains together", async () => {
    const requests: string[][] = [];
    const agent = agentWithEcho([
      fauxAssistantMessage([fauxToolCall("echo", { text: "a" }, { id: "c1" })]),
      answering(requests, "tools done"),
      answering(requests, "both follow-ups"),
    ]);
    agent.followUpMode = "all";
    agent.subscribe((event) => {
      if (event.type === "tool_execution_start") {
        agent.followUp(userMessage("f1"));
        agent.followUp(userMessage("f2"));
      }
    });
    await agent.prompt("go");
    expect(requests[0].at(-1)).toBe("toolResult:echo:a");
    expect(requests[1].slice(-3)).toEqual(["assistant:tools done", "user:f1", "user:f2"]);
    expect(agent.hasQueuedMessages()).toBe(false);
  });

  it("modes can switch at any time; clear functions empty the queues", () => {
    const agent = new Agent({ steeringMode: "all" });
    expect(agent.steeringMode).toBe("all");
    expect(agent.followUpMode).toBe("one-at-a-time");
    agent.steeringMode = "one-at-a-time";
    expect(agent.steeringMode).toBe("one-at-a-time");
    agent.steer(userMessage("s"));
    agent.followUp(userMessage("f"));
    agent.clearSteeringQueue();
    expect(agent.queuedMessages()).toEqual({ steering: [], followUp: [userMessage("f")] });
    agent.clearFollowUpQueue();
    expect(agent.hasQueuedMessages()).toBe(false);
    agent.steer(userMessage("s"));
    agent.followUp(userMessage("f"));
    agent.clearAllQueues();
    expect(agent.hasQueuedMessages()).toBe(false);
  });
});

describe("removing one queued message (our addition)", () => {
  it("removes exactly that message and reports the change once; a missing index changes nothing", () => {
    const changes: QueueChange[] = [];
    const agent = new Agent({ onQueueChange: (c) => changes.push(c) });
    for (const text of ["a", "b", "c"]) agent.followUp(userMessage(text));
    agent.steer(userMessage("s"));
    changes.length = 0;
    expect(agent.removeQueued("followUp", 1)).toBe(true);
    expect(changes).toEqual([{ reason: "remove", steering: [userMessage("s")], followUp: [userMessage("a"), userMessage("c")] }]);
    expect(agent.removeQueued("followUp", 2)).toBe(false);
    expect(agent.removeQueued("steering", -1)).toBe(false);
    expect(changes).toHaveLength(1);
    expect(agent.queuedMessages()).toEqual({ steering: [userMessage("s")], followUp: [userMessage("a"), userMessage("c")] });
  });
});

describe("g. continue()", () => {
  it("throws with no messages, and from an assistant message with empty queues", async () => {
    const agent = agentWithEcho([fauxAssistantMessage("hi")]);
    await expect(agent.continue()).rejects.toThrow("No messages to continue from");
    await agent.prompt("go");
    await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
  });

  it("continues from a user or toolResult message without adding one", async () => {
    const requests: string[][] = [];
    const agent = agentWithEcho([answering(requests, "answer")]);
    agent.state.messages = [userMessage("pending")];
    await agent.continue();
    expect(requests).toEqual([["user:pending"]]);
    expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("from an assistant message drains steering first, without polling steering again before the first call", async () => {
    const requests: string[][] = [];
    const agent = agentWithEcho([fauxAssistantMessage("first"), answering(requests, "a"), answering(requests, "b")]);
    await agent.prompt("go");
    agent.steer(userMessage("s1"));
    agent.steer(userMessage("s2"));
    agent.followUp(userMessage("f"));
    faux.appendResponses([answering(requests, "c")]);
    await agent.continue();
    // s1 alone first (s2 was not pulled in by an extra poll), then s2, then the follow-up.
    expect(requests.map((r) => r.at(-1))).toEqual(["user:s1", "user:s2", "user:f"]);
  });

  it("from an assistant message with only follow-ups queued runs the follow-up", async () => {
    const requests: string[][] = [];
    const agent = agentWithEcho([fauxAssistantMessage("first"), answering(requests, "ok")]);
    await agent.prompt("go");
    agent.followUp(userMessage("later"));
    await agent.continue();
    expect(requests.map((r) => r.at(-1))).toEqual(["user:later"]);
  });
});
