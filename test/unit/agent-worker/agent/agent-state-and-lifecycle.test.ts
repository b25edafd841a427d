/** Behaviour a, b, c, e, f, h, i, k of the Agent (issue 2), on our implementation alone. */
import {
  fauxAssistantMessage,
  type FauxResponseStep,
  fauxToolCall,
} from "@earendil-works/pi-ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, type AgentEvent, type AgentTool } from "../../../../src/agent-worker/agent/index";
import { delay, echoTool, scriptedAgent, userMessage, useScriptedModel } from "./harness";

const faux = useScriptedModel();


describe("a. state", () => {
  it("has pi's defaults", () => {
    const agent = new Agent();
    expect(agent.state.systemPrompt).toBe("");
    expect(agent.state.model.id).toBe("unknown");
    expect(agent.state.thinkingLevel).toBe("off");
    expect(agent.state.tools).toEqual([]);
    expect(agent.state.messages).toEqual([]);
    expect(agent.state.isStreaming).toBe(false);
  });

  it("stores copies of assigned tools and messages arrays; push on the current array is visible", () => {
    const agent = new Agent();
    const tools = [echoTool("a")];
    const messages = [userMessage("x")];
    agent.state.tools = tools;
    agent.state.messages = messages;
    tools.push(echoTool("b"));
    messages.push(userMessage("y"));
    expect(agent.state.tools).toHaveLength(1);
    expect(agent.state.messages).toHaveLength(1);
    agent.state.messages.push(userMessage("z"));
    expect(agent.state.messages).toHaveLength(2);
  });

  it("keeps runtime fields readonly to callers", () => {
    const agent = new Agent();
    expect(() => {
      (agent.state as { isStreaming: boolean }).isStreaming = true;
    }).toThrow(TypeError);
    expect(agent.state.isStreaming).toBe(false);
  });

  it("replaces pendingToolCalls with a new Set as tools start and end", async () => {
    const agent = scriptedAgent(
      faux,
      [fauxAssistantMessage([fauxToolCall("echo", { text: "a" }, { id: "c1" })]), fauxAssistantMessage("done")],
      { initialState: { tools: [echoTool("echo")] } },
    );
    const seen: ReadonlySet<string>[] = [];
    agent.subscribe(() => {
      if (seen.at(-1) !== agent.state.pendingToolCalls) seen.push(agent.state.pendingToolCalls);
    });
    await agent.prompt("go");
    expect(seen.map((set) => [...set])).toEqual([[], ["c1"], []]);
    expect(new Set(seen).size).toBe(3);
  });
});

describe("b. listeners", () => {
  it("are awaited in subscription order, get the run's signal, and see reduced state", async () => {
    const agent = scriptedAgent(faux, [fauxAssistantMessage("hello")]);
    const calls: string[] = [];
    const signals = new Set<AbortSignal>();
    agent.subscribe(async (event, signal) => {
      signals.add(signal);
      await delay(1);
      calls.push(`first ${event.type}`);
      if (event.type === "message_end") expect(agent.state.messages.at(-1)).toBe(event.message);
    });
    const unsubscribe = agent.subscribe((event) => {
      calls.push(`second ${event.type}`);
    });
    await agent.prompt("hi");
    expect(calls.slice(0, 2)).toEqual(["first agent_start", "second agent_start"]);
    expect(calls.filter((c) => c.startsWith("first")).length).toBe(calls.filter((c) => c.startsWith("second")).length);
    expect(signals.size).toBe(1);
    unsubscribe();
    faux.setResponses([fauxAssistantMessage("again")]);
    const before = calls.length;
    await agent.prompt("again");
    expect(calls.slice(before).every((c) => c.startsWith("first"))).toBe(true);
  });
});

describe("c. idle", () => {
  it("stays streaming until agent_end listeners settle; waitForIdle resolves only then", async () => {
    const agent = scriptedAgent(faux, [fauxAssistantMessage("hello")]);
    let release = () => {};
    let agentEndSeen = false;
    agent.subscribe((event) => {
      if (event.type !== "agent_end") return;
      agentEndSeen = true;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const run = agent.prompt("hi");
    let idle = false;
    void agent.waitForIdle().then(() => {
      idle = true;
    });
    await vi.waitFor(() => expect(agentEndSeen).toBe(true));
    await delay(5);
    expect(agent.state.isStreaming).toBe(true);
    expect(idle).toBe(false);
    release();
    await run;
    expect(idle).toBe(true);
    expect(agent.state.isStreaming).toBe(false);
  });

  it("waitForIdle resolves at once when no run is active", async () => {
    await expect(new Agent().waitForIdle()).resolves.toBeUndefined();
  });
});

describe("e. abort", () => {
  it("reaches provider, tool and listeners; the aborted message stays; the agent is reusable", async () => {
    const tool = echoTool("echo");
    const execute = vi.fn(tool.execute as AgentTool<any>["execute"]);
    const agent = scriptedAgent(
      faux,
      [fauxAssistantMessage([fauxToolCall("echo", { text: "a", delayMs: 1000 }, { id: "c1" })]), fauxAssistantMessage("x")],
      { initialState: { tools: [{ ...tool, execute }] } },
    );
    let listenerSignal: AbortSignal | undefined;
    agent.subscribe((event, signal) => {
      listenerSignal = signal;
      if (event.type === "tool_execution_start") agent.abort();
    });
    await agent.prompt("go");
    expect(execute.mock.calls[0][2]?.aborted).toBe(true);
    expect(listenerSignal?.aborted).toBe(true);
    const last = agent.state.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(agent.state.errorMessage).toBeTruthy();
    expect(agent.signal).toBeUndefined();

    faux.setResponses([fauxAssistantMessage("fresh")]);
    await agent.prompt("again");
    expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "stop" });
    expect(agent.state.errorMessage).toBeUndefined();
  });
});

describe("f. one run at a time", () => {
  it("prompt() and continue() during a run reject with pi's messages", async () => {
    const agent = scriptedAgent(faux, [fauxAssistantMessage("a long enough reply")]);
    const run = agent.prompt("go");
    await expect(agent.prompt("again")).rejects.toThrow(
      "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
    );
    await expect(agent.continue()).rejects.toThrow(
      "Agent is already processing. Wait for completion before continuing.",
    );
    await run;
  });
});

describe("h. reset", () => {
  it("clears messages, runtime state and queues; keeps listeners, tools, prompt and model", async () => {
    const tools = [echoTool("echo")];
    const agent = scriptedAgent(faux, [fauxAssistantMessage("one")], { initialState: { tools, systemPrompt: "sys" } });
    const events: string[] = [];
    agent.subscribe((event) => {
      events.push(event.type);
    });
    await agent.prompt("go");
    agent.steer(userMessage("s"));
    agent.followUp(userMessage("f"));
    agent.reset();
    expect(agent.state.messages).toEqual([]);
    expect(agent.hasQueuedMessages()).toBe(false);
    expect(agent.state.errorMessage).toBeUndefined();
    expect(agent.state.tools).toEqual(tools);
    expect(agent.state.systemPrompt).toBe("sys");
    expect(agent.state.model).toBe(faux.getModel());
    events.length = 0;
    faux.setResponses([fauxAssistantMessage("two")]);
    await agent.prompt("again");
    expect(events[0]).toBe("agent_start");
  });
});

describe("i. safety net", () => {
  it("a throwing convertToLlm becomes an error message, agent_end, errorMessage; prompt resolves", async () => {
    const agent = scriptedAgent(faux, [], {
      convertToLlm: () => {
        throw new Error("cannot convert");
      },
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => {
      events.push(event);
    });
    await expect(agent.prompt("go")).resolves.toBeUndefined();
    const failure = agent.state.messages.at(-1);
    expect(failure).toMatchObject({
      role: "assistant",
      stopReason: "error",
      errorMessage: "cannot convert",
      content: [{ type: "text", text: "" }],
      usage: { input: 0, output: 0, totalTokens: 0, cost: { total: 0 } },
      model: faux.getModel().id,
    });
    expect(agent.state.errorMessage).toBe("cannot convert");
    expect(events.at(-1)).toEqual({ type: "agent_end", messages: [failure] });
    expect(agent.state.isStreaming).toBe(false);
  });

  it("marks the failure aborted when the run was aborted", async () => {
    const agent = scriptedAgent(faux, [fauxAssistantMessage("hi")], {
      transformContext: async (_messages, signal) => {
        agent.abort();
        throw new Error(`gave up (aborted: ${signal?.aborted})`);
      },
    });
    await agent.prompt("go");
    expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted", errorMessage: "gave up (aborted: true)" });
  });
});

describe("k. prompt forms and reasoning", () => {
  it("accepts text with images, one message, or several messages", async () => {
    const agent = scriptedAgent(faux, [fauxAssistantMessage("1"), fauxAssistantMessage("2"), fauxAssistantMessage("3")]);
    const image = { type: "image" as const, data: "aGVsbG8=", mimeType: "image/png" };
    await agent.prompt("look", [image]);
    await agent.prompt(userMessage("one"));
    await agent.prompt([userMessage("two"), userMessage("three")]);
    const users = agent.state.messages.filter((m) => m.role === "user");
    expect(users[0]).toMatchObject({ content: [{ type: "text", text: "look" }, image] });
    expect(users.slice(1)).toEqual([userMessage("one"), userMessage("two"), userMessage("three")]);
  });

  it("sends no reasoning for thinking off, and passes other levels through", async () => {
    const reasoning: unknown[] = [];
    const step: FauxResponseStep = (_context, options) => {
      reasoning.push((options as { reasoning?: unknown } | undefined)?.reasoning);
      return fauxAssistantMessage("ok");
    };
    const agent = scriptedAgent(faux, [step, step, step]);
    await agent.prompt("a");
    agent.state.thinkingLevel = "minimal";
    await agent.prompt("b");
    agent.state.thinkingLevel = "xhigh";
    await agent.prompt("c");
    expect(reasoning).toEqual([undefined, "minimal", "xhigh"]);
  });
});
