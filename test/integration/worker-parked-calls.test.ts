/**
 * Parked calls, with real workers and the loopback model: in an unattended run (a schedule's: `prompt`'s run contract)
 * a call that needs an answer does not hold up the run: the turn's other calls run, the question waits parked (the
 * chat counts as waiting, so main notifies), and it is denied with the reason when the run ends without an answer,
 * the denial journaled; answered in time, it runs. A chat's own run with a window on it asks as before.
 */
import { describe, expect, it } from "vitest";
import { waitForView } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { turnDirective } from "../../src/web-host/openai-test-server";
import { toolEnding } from "../../src/shared/protocol/tool-ending";

const harnesses = harnessPerTest();

/** `calculate` asks; `wait` runs at once. */
const asking = (approvalTimeoutMs?: number) =>
  harnesses.start({ idleGraceMs: 0, settings: { toolApproval: { calculate: "ask", wait: "allow" }, ...(approvalTimeoutMs ? { approvalTimeoutMs } : {}) } });

/** One turn: `calculate` (asks) first, then `wait` (allowed). */
const twoCalls = (c: string, w: string) =>
  turnDirective({
    toolCalls: [
      { id: c, name: "calculate", arguments: { expression: "6*7" } },
      { id: w, name: "wait", arguments: { seconds: 0.05 } },
    ],
  });

describe("parked calls in an unattended run", () => {
  it("the turn's other call runs while the question is parked; with no answer when the run ends it is denied, journaled", async () => {
    const h = await asking();
    const client = await h.client("parked", "window-1");
    await client.prompt(`Work ${twoCalls("c1", "w1")}`, [], { unattended: true });
    // The allowed call ran to its end although the one before it waits for an answer.
    await waitForView(client, (v) => v.approvals.length === 1 && v.toolRuns.w1?.status === "done");
    const [request] = client.mirror.getView().approvals;
    expect(request).toMatchObject({ toolCallId: "c1", parked: true });
    expect(client.mirror.getView().toolRuns.c1?.status).not.toBe("done");
    await expect.poll(() => h.broker.activity("parked")).toBe("waiting"); // what main's notifier asks from

    await client.abort(); // the run ends (Stop; a budget reached does the same)
    await waitForView(client, (v) => !v.state.isStreaming && v.approvals.length === 0);
    // Its card says denied, not failed, live (the end event and the result message)...
    const live = client.mirror.getView();
    expect(toolEnding((live.toolRuns.c1?.result as { details?: unknown } | undefined)?.details)).toBe("denied");
    const liveResult = live.state.messages.find((m) => m.role === "toolResult" && m.toolCallId === "c1");
    expect(liveResult).toMatchObject({ isError: true, details: { ending: "denied" } });
    const closed = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "session-closed" && resolve()));
    client.close();
    h.broker.detach("parked", "window-1");
    await closed;
    // Opened again from the transcript: the denial and its reason were journaled; the other call's result too.
    const back = await h.client("parked", "window-2");
    const results = back.mirror.getView().state.messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => (m as { toolCallId: string }).toolCallId)).toEqual(["c1", "w1"]);
    expect(JSON.stringify(results[0])).toContain("Denied: no answer before the run ended");
    // ...and as journaled.
    expect(results[0]).toMatchObject({ isError: true, details: { ending: "denied" } });
    // Its content is the denial alone: the call never ran (6 * 7 = 42 never computed). Not the whole JSON, whose
    // timestamp may hold "42".
    expect(JSON.stringify((results[0] as { content: unknown }).content)).not.toContain("42");
    expect(JSON.stringify(results[1])).toContain("Waited");
  });

  it("answered in time, the parked call runs and the run goes on", async () => {
    const h = await asking();
    const client = await h.client("answered", "window-1");
    await client.prompt(`Work ${twoCalls("c2", "w2")}`, [], { unattended: true });
    await waitForView(client, (v) => v.approvals.length === 1 && v.toolRuns.w2?.status === "done");
    await client.answerApproval("c2", "once");
    // The run's marker (its contract: unattended) leads its user message, then the calls and the reply.
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 6);
    expect(client.mirror.getView().state.messages[0]).toMatchObject({ role: "permissionProfile", run: { unattended: true } });
    const results = client.mirror.getView().state.messages.filter((m) => m.role === "toolResult");
    expect(JSON.stringify(results[0])).toContain("6*7 = 42");
    expect(client.mirror.getView().state.messages.at(-1)?.role).toBe("assistant");
  });

  it("the approval timeout denies a parked call even while a window shows the chat, saying the run is unattended", async () => {
    const h = await asking(400);
    const client = await h.client("timeout", "window-1");
    await client.prompt(`Work ${twoCalls("c3", "w3")}`, [], { unattended: true });
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 6);
    const results = client.mirror.getView().state.messages.filter((m) => m.role === "toolResult");
    expect(JSON.stringify(results[0])).toMatch(/Nobody answered within 0\.4 seconds \(the run is unattended\)/);
  });

  it("a watched chat's own run (no contract) asks as before: the turn's later call waits for the answer", async () => {
    const h = await asking();
    const client = await h.client("watched", "window-1");
    await client.prompt(`Work ${twoCalls("c4", "w4")}`);
    await waitForView(client, (v) => v.approvals.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(client.mirror.getView().approvals[0]?.parked).toBeUndefined();
    expect(client.mirror.getView().toolRuns.w4?.status ?? "not started").not.toBe("done");
    await client.answerApproval("c4", "once");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 5);
  });
});
