/**
 * A run that fails where waiting helps asks again by itself (agent-worker/host/session/run-retries.ts), over our real
 * Agent on pi-ai's scripted model: the failed attempt leaves the chat and the context, the wait is shown and ends,
 * the limit holds, a Stop during the wait ends the run as stopped.
 */
import { fauxAssistantMessage, type Context, type FauxResponseStep } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { RunRetries } from "../../../../../src/agent-worker/host/session/run-retries";
import type { Agent } from "../../../../../src/agent-worker/agent/index";
import type { RetryWait } from "../../../../../src/shared/protocol/retry-wait";
import type { TranscriptRecord } from "../../../../../src/shared-node/session-files/transcript-store";
import { retryAfterSeconds } from "../../../../../src/shared/error-text";
import { delay, scriptedAgent, textOf, useScriptedModel, userMessage } from "../../agent/harness";

const faux = useScriptedModel(["retries-1"]);

const failure = (text: string, errorMessage: string): FauxResponseStep => fauxAssistantMessage(text, { stopReason: "error", errorMessage });

function session(responses: FauxResponseStep[], limits = { attempts: 2, maxWaitMs: 60_000 }) {
  const shown: (RetryWait | undefined)[] = [];
  const journal: TranscriptRecord[] = [];
  const contexts: Context[] = [];
  let retries: RunRetries | undefined;
  const seen = responses.map((step) => (context: Context, ...rest: unknown[]) => {
    contexts.push(structuredClone(context));
    return typeof step === "function" ? (step as (...args: unknown[]) => unknown)(context, ...rest) : step;
  }) as FauxResponseStep[];
  const agent: Agent = scriptedAgent(faux, seen, {
    onStateEvent: (event) => {
      if (event.type === "run_start") retries?.runStarted();
      if (event.type === "run_settled") retries?.takeOver();
    },
  });
  retries = new RunRetries({
    agent: () => agent,
    limits: () => limits,
    shown: (wait) => shown.push(wait),
    journal: async (record) => void journal.push(record),
  });
  /** Resolves once the Agent is idle and no retry is about to start (as the session host waits for a task). */
  const settled = async () => {
    do {
      await agent.waitForIdle();
      await Promise.resolve();
    } while (agent.state.isStreaming);
  };
  return { agent, retries, shown, journal, contexts, settled };
}

describe("retries", () => {
  it("a 429 with Retry-After, then an answer: one reply, the failed attempt in neither the chat nor the next request", async () => {
    const { agent, shown, journal, contexts, settled } = session([failure("half an ans", "429 Slow down. Retry after 0.05 s."), fauxAssistantMessage("the answer")]);
    const started = Date.now();
    await agent.prompt(userMessage("hello"));
    await settled();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(agent.state.messages.map((m) => `${m.role}:${textOf(m)}`)).toEqual(["user:hello", "assistant:the answer"]);
    expect(contexts).toHaveLength(2);
    expect(contexts[1].messages.map((m) => m.role)).toEqual(["user"]);
    expect(shown).toEqual([expect.objectContaining({ reason: "rate-limit", status: 429, attempt: 1, attempts: 2, delayMs: 50, error: "429 Slow down. Retry after 0.05 s." }), undefined]);
    expect(journal).toEqual([{ t: "drop", count: 1 }]);
    expect(agent.state.errorMessage).toBeUndefined();
  });

  it("503 more times than the limit: the last failure stays, once, after `attempts` retries", async () => {
    const busy = () => failure("", "503 Service Unavailable. Retry after 0.01 s.");
    const { agent, shown, journal, contexts, settled } = session([busy(), busy(), busy(), fauxAssistantMessage("never asked")]);
    await agent.prompt(userMessage("hello"));
    await settled();
    expect(contexts).toHaveLength(3);
    const assistants = agent.state.messages.filter((m) => m.role === "assistant");
    expect(assistants).toHaveLength(1);
    // It says the retries were made (its Retry asks again after them); the provider's words and wait stay readable.
    expect(assistants[0]).toMatchObject({ stopReason: "error", errorMessage: "503 Service Unavailable. Retry after 0.01 s. Paddock retried 2 times." });
    expect(retryAfterSeconds(assistants[0].role === "assistant" ? assistants[0].errorMessage ?? "" : "")).toBe(0.01);
    expect(shown.filter(Boolean).map((w) => w?.attempt)).toEqual([1, 2]);
    expect(journal.map((r) => (r.t === "message" && r.message.role === "assistant" ? r.message.errorMessage : r.t))).toEqual([
      "drop", "drop", "drop", "503 Service Unavailable. Retry after 0.01 s. Paddock retried 2 times.",
    ]);
  });

  it("a new message of the user's counts afresh", async () => {
    const busy = () => failure("", "503 busy. Retry after 0.01 s.");
    const { agent, contexts, settled } = session([busy(), busy(), busy(), busy(), busy(), fauxAssistantMessage("ok")]);
    await agent.prompt(userMessage("one"));
    await settled();
    await agent.prompt(userMessage("two"));
    await settled();
    expect(contexts).toHaveLength(6);
    expect(textOf(agent.state.messages.at(-1)!)).toBe("ok");
  });

  it("does not retry a 401, nor when Settings say no retries, nor a wait longer than allowed", async () => {
    for (const [text, limits] of [
      ["401 Incorrect API key provided", { attempts: 2, maxWaitMs: 60_000 }],
      ["503 Service Unavailable", { attempts: 0, maxWaitMs: 60_000 }],
      ["429 Slow down. Retry after 90 s.", { attempts: 2, maxWaitMs: 60_000 }],
    ] as const) {
      const { agent, shown, contexts, settled } = session([failure("", text), fauxAssistantMessage("no")], limits);
      await agent.prompt(userMessage("hello"));
      await settled();
      expect(contexts).toHaveLength(1);
      expect(shown).toEqual([]);
      expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: text }); // none made: as it was
    }
  });

  it("Stop during the wait ends the run as stopped, at once, and nothing is asked again", async () => {
    const { agent, shown, journal, contexts, settled } = session([failure("what it had said", "429 Slow down. Retry after 30 s."), fauxAssistantMessage("never")]);
    const run = agent.prompt(userMessage("hello"));
    while (shown.length === 0) await delay(5);
    expect(agent.state.isStreaming).toBe(true);
    expect(agent.state.messages.map((m) => m.role)).toEqual(["user"]);
    const stoppedAt = Date.now();
    agent.abort();
    await run;
    await settled();
    expect(Date.now() - stoppedAt).toBeLessThan(1_000);
    expect(contexts).toHaveLength(1);
    expect(shown.at(-1)).toBeUndefined();
    const last = agent.state.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(last && "errorMessage" in last).toBe(false);
    expect(textOf(last!)).toBe("what it had said");
    expect(journal.map((r) => r.t)).toEqual(["drop", "message"]);
  });
});
