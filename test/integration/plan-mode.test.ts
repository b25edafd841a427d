/**
 * Plan mode (issue 27 §1) in real workers (child_process.fork, the loopback model, the real tools): a planning run's
 * write is refused unasked and the model told why, its request carries the plan prompt, its marker says planning;
 * approving (the plan card's steps: back to the act profile, the plan quoted as the instruction) lets the next run
 * write under the act profile; a subagent launched from a planning run plans too (read-only); the mode survives the worker's
 * end and a reload.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Harness, toolCallTurn as call, repliedAndIdle as idle, nextEvent } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { turnDirective } from "../../src/web-host/openai-test-server";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { transcriptFileIn } from "../../src/shared-node/session-files/session-folder";
import { inPlanMode, pendingPlan, planInstruction, withPlan } from "../../src/shared/agent/plan-mode";

const harnesses = harnessPerTest();
const folders = harnesses.folders;

const lastRequest = (harness: Harness) => harness.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
const lastToolResult = (harness: Harness) => JSON.stringify(lastRequest(harness).filter((m) => m.role === "tool").at(-1)?.content);
const systemOf = (harness: Harness) => JSON.stringify(lastRequest(harness).filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content));
const markers = (client: SessionClient) =>
  client.mirror.getView().state.messages.filter((m) => m.role === "permissionProfile").map((m) => {
    const marker = m as { profile: string; plan?: boolean };
    return marker.plan ? `plan:${marker.profile}` : marker.profile;
  });

describe("plan mode in the worker", () => {
  it("refuses a planning run's write unasked, telling the model why; approving sends the plan and the next run writes under the act profile", async () => {
    const root = folders.make({ "notes.txt": "alpha\n" });
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { read: "allow", write: "allow" } } });
    const client = await h.client("plan");
    await client.setChatOptions({ profile: "edits", plan: true });
    const seen: number[] = [];
    const off = client.mirror.subscribe(() => seen.push(client.mirror.getView().approvals.length));

    await client.prompt(`Add out.txt ${call("w1", "write", { path: "out.txt", content: "x\n" })}`);
    await idle(client);
    expect(existsSync(join(root, "out.txt"))).toBe(false); // Settings and the act profile allow writes; Plan does not
    expect(lastToolResult(h)).toContain("This chat is in Plan mode (read-only): Writing and editing files are not allowed");
    expect(systemOf(h)).toContain("<plan_mode>");
    expect(systemOf(h)).toContain("<rules>"); // added to the coding prompt, not in its place
    expect(markers(client)).toEqual(["plan:read-only"]);
    // Reading runs in Plan mode.
    await client.prompt(`Look ${call("r1", "read", { path: "notes.txt" })}`);
    await idle(client);
    expect(lastToolResult(h)).toContain("alpha");
    expect(markers(client)).toEqual(["plan:read-only"]);

    // The reply awaits the user's word, as the plan card shows it.
    const view = client.mirror.getView();
    const plan = pendingPlan(view.state.messages, inPlanMode(view.chatOptions), view.state.isStreaming);
    expect(plan?.text).toBe("Received 1 tool result.");
    const briefing = await client.agentBriefing();
    expect(briefing.planMode).toContain("plan mode");

    // Approve, the plan edited first: back to the act profile, the plan as the instruction.
    await client.setChatOptions(withPlan(view.chatOptions, false));
    await client.prompt(planInstruction(`1. Write out.txt ${call("w2", "write", { path: "out.txt", content: "planned\n" })}`));
    await idle(client);
    off();
    expect(readFileSync(join(root, "out.txt"), "utf8")).toBe("planned\n");
    expect(Math.max(0, ...seen)).toBe(0); // nothing asked: refused in Plan mode, allowed under Edits allowed
    expect(systemOf(h)).not.toContain("<plan_mode>");
    expect(JSON.stringify(lastRequest(h).filter((m) => m.role === "user").at(-1)?.content)).toContain("Carry out this plan:");
    expect(markers(client)).toEqual(["plan:read-only", "edits"]);
    expect(pendingPlan(client.mirror.getView().state.messages, false, false)).toBeUndefined();
    const transcript = readFileSync(transcriptFileIn(join(h.dataDir, "sessions"), "plan"), "utf8");
    expect(transcript).toContain('"role":"permissionProfile","profile":"read-only","plan":true');
  });

  it("a subagent launched from a planning run plans too: read-only, its write refused unasked, asked for a plan", async () => {
    const root = folders.make({});
    const h = await harnesses.start({ workspaceOf: () => root });
    const client = await h.client("plan-parent");
    await client.setChatOptions({ profile: "edits", plan: true });
    const seen: number[] = [];
    const off = client.mirror.subscribe(() => seen.push(client.mirror.getView().approvals.length));
    const task = `Write sub.txt. ${turnDirective({ toolCalls: [{ name: "write", arguments: { path: "sub.txt", content: "sub\n" } }] })}`;
    await client.prompt(call("s1", "subagent", { agent: "worker", task }));
    await idle(client);
    off();
    expect(existsSync(join(root, "sub.txt"))).toBe(false);
    // The subagent plans too (its task's run contract): Read-only, and asked for a plan.
    expect(h.server.requests.some((r) => JSON.stringify(r.body.messages).includes("This chat is in Plan mode (read-only)"))).toBe(true);
    const subagentRequest = h.server.requests.find((r) => JSON.stringify(r.body.messages).includes("Task: Write sub.txt"));
    expect(JSON.stringify(subagentRequest?.body.messages)).toContain("<plan_mode>");
    expect(Math.max(0, ...seen)).toBe(0);
  });

  it("the mode survives the worker's end: reopened, the chat is still planning and its write still refused", async () => {
    const root = folders.make({});
    const h = await harnesses.start({ workspaceOf: () => root, idleGraceMs: 0, settings: { toolApproval: { write: "allow" } } });
    const first = await h.client("kept", "window-1");
    await first.setChatOptions({ plan: true });
    await first.prompt("What would you change?");
    await idle(first);
    const closed = nextEvent(h, (e) => e.type === "session-closed" && e.sessionId === "kept");
    first.close();
    h.broker.detach("kept", "window-1");
    await closed;

    const again = await h.client("kept", "window-2");
    const view = again.mirror.getView();
    expect(view.chatOptions).toEqual({ plan: true });
    expect(pendingPlan(view.state.messages, inPlanMode(view.chatOptions), false)?.text).toBe("What would you change?");
    await again.prompt(`Now ${call("w1", "write", { path: "late.txt", content: "x\n" })}`);
    await idle(again);
    expect(existsSync(join(root, "late.txt"))).toBe(false);
    expect(lastToolResult(h)).toContain("This chat is in Plan mode (read-only)");
    expect(markers(again)).toEqual(["plan:read-only"]);
  });
});
