/**
 * The session's policy for queued messages a run leaves behind (agent-worker/host/session/held-queue.ts), over our real
 * Agent on pi-ai's scripted model: after Stop or a failure they are held and never go out by themselves; "Send now"
 * and "Discard" act on one each; after a normal end, a message queued too late still goes on.
 */
import { fauxAssistantMessage, type Context, type FauxResponseStep } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { HeldQueue } from "../../../../../src/agent-worker/host/session/held-queue";
import type { Agent } from "../../../../../src/agent-worker/agent/index";
import { delay, scriptedAgent, textOf, useScriptedModel, userMessage } from "../../agent/harness";

const faux = useScriptedModel(["held-1"]);

/** Answers every request with "re: <last user text>", slowly enough (about 0.4 s) to be stopped mid-reply. */
function echo(context: Context) {
  const last = [...context.messages].reverse().find((m) => m.role === "user");
  const text = last && typeof last.content !== "string" ? last.content.map((c) => ("text" in c ? c.text : "")).join("") : "";
  return fauxAssistantMessage(`re: ${text} ${".".repeat(800)}`);
}

function session(responses: FauxResponseStep[] = Array.from({ length: 8 }, () => echo)) {
  const journal: string[] = [];
  let held: HeldQueue | undefined;
  const agent: Agent = scriptedAgent(faux, responses, {
    onStateEvent: (event) => {
      if (event.type === "run_start") held?.runStarted();
      if (event.type === "run_settled") held?.runSettled();
    },
    onQueueChange: (change) => journal.push(`agent:${change.reason}`),
  });
  held = new HeldQueue({
    agent: () => agent,
    changed: (when) => journal.push(`held:${when}`),
    requireModel: () => undefined,
    prompt: (message) => agent.prompt(message),
  });
  const said = () => agent.state.messages.filter((m) => m.role === "user").map((m) => textOf(m));
  return { agent, held, journal, said };
}

/** Starts a run and waits until its reply streams. `run` is wrapped: an async function's result would adopt it. */
async function startRun(agent: Agent, text: string): Promise<{ run: Promise<void> }> {
  const run = agent.prompt(userMessage(text));
  while (agent.state.streamingMessage?.role !== "assistant") await delay(5);
  return { run };
}

describe("queued messages after Stop", () => {
  it("are held, and do not go out with the next, unrelated prompt", async () => {
    const { agent, held, said } = session();
    const { run } = await startRun(agent, "first");
    agent.followUp(userMessage("queued before Stop"));
    held.stopping();
    agent.abort();
    await run;

    expect(held.list().map((h) => [h.queue, textOf(h.message)])).toEqual([["followUp", "queued before Stop"]]);
    expect(agent.hasQueuedMessages()).toBe(false);

    await agent.prompt(userMessage("something else"));
    expect(said()).toEqual(["first", "something else"]);
    expect(held.list()).toHaveLength(1);
  });

  it("Send now starts a run with the held message when idle; Discard drops one", async () => {
    const { agent, held, said, journal } = session();
    const { run } = await startRun(agent, "first");
    agent.steer(userMessage("steer me"));
    agent.followUp(userMessage("then this"));
    held.stopping();
    agent.abort();
    await run;
    expect(held.list().map((h) => h.queue)).toEqual(["steering", "followUp"]);

    held.discard(0);
    expect(held.list().map((h) => textOf(h.message))).toEqual(["then this"]);
    await held.send(0);
    expect(said()).toEqual(["first", "then this"]);
    expect(held.list()).toEqual([]);
    // The send is journaled with the message it became; the discard at once.
    expect(journal.filter((j) => j.startsWith("held:"))).toEqual(["held:now", "held:with-next-message"]);
    expect(() => held.discard(0)).toThrow(/no held message at position 0/);
    await expect(held.send(3)).rejects.toThrow(/no held message at position 3/);
  });

  it("Send now during a run puts the message back in its queue, for that run to take", async () => {
    const { agent, held, said } = session();
    const { run } = await startRun(agent, "first");
    agent.followUp(userMessage("held one"));
    held.stopping();
    agent.abort();
    await run;

    const { run: second } = await startRun(agent, "second");
    await held.send(0);
    expect(agent.queuedMessages().followUp.map((m) => textOf(m))).toEqual(["held one"]);
    await second;
    await agent.waitForIdle();
    expect(said()).toEqual(["first", "second", "held one"]);
  });

  it("a model the chat lacks refuses Send now and keeps the message held", async () => {
    const { agent, held } = session();
    const { run } = await startRun(agent, "first");
    agent.followUp(userMessage("keep me"));
    held.stopping();
    agent.abort();
    await run;
    const strict = new HeldQueue({ agent: () => agent, changed: () => undefined, requireModel: () => { throw new Error("No model selected."); }, prompt: (m) => agent.prompt(m) }, held.list());
    await expect(strict.send(0)).rejects.toThrow("No model selected.");
    expect(strict.list()).toHaveLength(1);
  });
});

describe("queued messages after other endings", () => {
  it("a failed run holds what it leaves queued", async () => {
    const slowFailure = async () => {
      await delay(150);
      return fauxAssistantMessage("", { stopReason: "error", errorMessage: "500 boom" });
    };
    const { agent, held } = session([slowFailure, echo]);
    const run = agent.prompt(userMessage("will fail"));
    await delay(20);
    agent.followUp(userMessage("after the failure"));
    await run;
    expect(held.list().map((h) => textOf(h.message))).toEqual(["after the failure"]);
    expect(agent.hasQueuedMessages()).toBe(false);
  });

  it("a normal end sends on a message queued too late for it, at once", async () => {
    const { agent, held, said } = session();
    let queued = false;
    agent.subscribe(async (event) => {
      // While the run is finishing (its agent_end listeners), after its last poll of the queues.
      if (event.type === "agent_end" && !queued) {
        queued = true;
        agent.followUp(userMessage("just too late"));
      }
    });
    await agent.prompt(userMessage("first"));
    await delay(0);
    await agent.waitForIdle();
    expect(said()).toEqual(["first", "just too late"]);
    expect(held.list()).toEqual([]);
  });

  it("a restarted session keeps what was held", () => {
    const { agent } = session();
    const restored = new HeldQueue({ agent: () => agent, changed: () => undefined, requireModel: () => undefined, prompt: (m) => agent.prompt(m) }, [
      { queue: "followUp", message: userMessage("from the journal") },
    ]);
    expect(restored.list().map((h) => textOf(h.message))).toEqual(["from the journal"]);
  });
});
