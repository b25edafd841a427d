/**
 * Tool calls the user decides on, with real workers: a call Settings say to ask about waits ("waiting for you"),
 * and runs once, runs and is allowed for the rest of the chat, or is denied with a reason the model is told; a
 * question nobody can answer (no window on the chat) is denied after the timeout.
 */
import { describe, expect, it } from "vitest";
import { waitForView, type Harness } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { turnDirective } from "../../src/web-host/openai-test-server";
import type { SessionClient } from "../../src/renderer/store/session-client";
import type { BrokerEvent } from "../../src/main/broker/session-broker";

const harnesses = harnessPerTest();

/** A harness whose `calculate` tool asks first. */
const asking = (extra: { approvalTimeoutMs?: number; idleGraceMs?: number } = {}) =>
  harnesses.start({
    idleGraceMs: extra.idleGraceMs,
    settings: { toolApproval: { calculate: "ask", wait: "allow" }, ...(extra.approvalTimeoutMs ? { approvalTimeoutMs: extra.approvalTimeoutMs } : {}) },
  });

const calculate = (id: string, expression: string) => turnDirective({ toolCalls: [{ id, name: "calculate", arguments: { expression } }] });
const asked = (client: SessionClient) => waitForView(client, (v) => v.approvals.length > 0);
/** The text of the tool result the model was sent last. */
const lastToolResult = (harness: Harness) => {
  const messages = harness.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "tool").at(-1)?.content);
};

describe("approval of tool calls", () => {
  it("waits for the user (the chat counts as waiting), then runs the call once; the next call asks again", async () => {
    const h = await asking();
    const client = await h.client("once");
    const activities: string[] = [];
    h.broker.onEvent((e: BrokerEvent) => e.type === "activity" && activities.push(e.activity));
    void client.prompt(`Add ${calculate("c1", "2+3")}`).catch(() => {});
    await asked(client);
    const [request] = client.mirror.getView().approvals;
    expect(request).toMatchObject({ toolCallId: "c1", toolName: "calculate", scope: "calculate" });
    expect(request.summary).toContain("2+3");
    await expect.poll(() => h.broker.activity("once")).toBe("waiting"); // main hears it over its own channel
    expect(client.mirror.getView().toolRuns.c1?.status ?? "not started").not.toBe("done");

    await client.answerApproval("c1", "once");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 4);
    expect(lastToolResult(h)).toContain("2+3 = 5");
    await expect.poll(() => activities).toEqual(["running", "waiting", "running", "idle"]);

    void client.prompt(`Again ${calculate("c2", "4*4")}`).catch(() => {});
    await asked(client);
    await expect(client.answerApproval("nope", "once")).rejects.toThrow(/no longer waiting/);
    await client.answerApproval("c2", "once");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 8);
  });

  it("allowed for this chat: later calls run at once, also in a new worker (the grant is journaled)", async () => {
    const h = await asking({ idleGraceMs: 0 });
    const client = await h.client("grant", "window-1");
    void client.prompt(`One ${calculate("g1", "1+1")}`).catch(() => {});
    await asked(client);
    await client.answerApproval("g1", "chat");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 4);

    const closed = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "session-closed" && resolve()));
    client.close();
    h.broker.detach("grant", "window-1");
    await closed;
    const again = await h.client("grant", "window-2");
    await again.prompt(`Two ${calculate("g2", "2+2")}`);
    await waitForView(again, (v) => !v.state.isStreaming && v.state.messages.length === 8);
    expect(again.mirror.getView().approvals).toEqual([]);
    expect(lastToolResult(h)).toContain("2+2 = 4");
  });

  it("denied with a reason: the call is not made and the model is told why", async () => {
    const h = await asking();
    const client = await h.client("deny");
    void client.prompt(`Compute ${calculate("d1", "6*7")}`).catch(() => {});
    await asked(client);
    await client.answerApproval("d1", "deny", "use mental arithmetic");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 4);
    const result = lastToolResult(h);
    expect(result).toContain("The user denied this call: use mental arithmetic");
    expect(result).not.toContain("42");
    // The card says denied, not failed: the result's details carry the ending (pi's block would leave them {}).
    const denied = client.mirror.getView().state.messages.find((m) => m.role === "toolResult" && m.toolCallId === "d1");
    expect(denied).toMatchObject({ isError: true, details: { ending: "denied" } });
  });

  it("a question nobody can answer (no window on the chat) is denied after the timeout; the worker lived meanwhile", async () => {
    const h = await asking({ approvalTimeoutMs: 400, idleGraceMs: 0 });
    const client = await h.client("timeout", "window-1");
    void client.prompt(`Compute ${calculate("t1", "9-1")}`).catch(() => {});
    await asked(client);
    // With a window on the chat the question waits as long as it takes.
    await new Promise((r) => setTimeout(r, 700));
    expect(client.mirror.getView().approvals).toHaveLength(1);
    const pid = (await h.broker.attach("timeout", "probe")).worker.pid!;
    h.broker.detach("timeout", "probe");
    client.close();
    h.broker.detach("timeout", "window-1");
    const closed = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "session-closed" && resolve()));
    await closed; // denied, the run ended, and only then did the idle worker stop
    const back = await h.client("timeout", "window-2");
    const messages = back.mirror.getView().state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(JSON.stringify(messages[2])).toMatch(/Nobody answered within 0\.4 seconds/);
    expect(pid).toBeGreaterThan(0);
  });
});
