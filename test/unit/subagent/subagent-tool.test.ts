/**
 * The subagent tool's own decisions, with a stand-in for main: pi's texts for each mode, the 50 KB cap with its
 * marker, progress lines, a failed step, abort reaching every running task, and project agents asked about first.
 */
import { describe, expect, it } from "vitest";
import { capped, MAX_OUTPUT_BYTES, subagentTool, type SubagentRunner } from "../../../src/agent-worker/tools/subagent/subagent-tool";
import type { SubagentOutcome, SubagentRequest } from "../../../src/shared/protocol/control-protocol";
import { ToolFailure } from "../../../src/shared/agent/tool-failure";

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.001, turns: 1 };

function runner(answer: (request: SubagentRequest) => Partial<SubagentOutcome> | Promise<Partial<SubagentOutcome>>, extra: Partial<SubagentRunner> = {}) {
  const started: SubagentRequest[] = [];
  const stopped: string[] = [];
  let n = 0;
  const fake: SubagentRunner = {
    listAgents: async () => ({ agents: [{ name: "worker", description: "Does things", source: "builtin" }], problems: [] }),
    confirm: async () => true,
    confirmProjectAgents: async () => {},
    run: async (request, onProgress) => {
      started.push(request);
      onProgress({ requestId: request.requestId, sessionId: `s-${request.requestId}`, agent: request.agent, running: true, usage, latest: "→ read a.ts" });
      const outcome = await answer(request);
      return { requestId: request.requestId, agent: request.agent, sessionId: `s-${request.requestId}`, ok: true, output: "", usage, messages: [], ...outcome };
    },
    stop: async (id) => void stopped.push(id),
    parentModel: () => ({ provider: "openai", id: "gpt-4.1" }),
    newRequestId: () => `r${++n}`,
    ...extra,
  };
  return { fake, started, stopped };
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((c) => c.text ?? "").join("");

describe("the subagent tool", () => {
  it("single mode returns the subagent's final text, and the parent's model goes along", async () => {
    const { fake, started } = runner(() => ({ output: "All done." }));
    const updates: string[] = [];
    const result = await subagentTool(fake).execute("c1", { agent: "worker", task: "Do it" }, undefined, (u) => updates.push(text(u)));
    expect(text(result)).toBe("All done.");
    expect(started[0]).toMatchObject({ agent: "worker", task: "Do it", toolCallId: "c1", scope: "user", upcoming: 0, parentModel: { provider: "openai", id: "gpt-4.1" } });
    expect(updates[0]).toBe("worker: → read a.ts");
    expect(result.details.runs[0]).toMatchObject({ status: "done", sessionId: "s-r1" });
    expect(result.details.usage.turns).toBe(1);
  });

  it("a failed single task fails the call, naming the agent and why", async () => {
    const { fake } = runner(() => ({ ok: false, stopReason: "error", errorMessage: "rate limited" }));
    const call = subagentTool(fake).execute("c1", { agent: "worker", task: "Do it" });
    await expect(call).rejects.toThrow("Agent error (worker): rate limited");
    await expect(call).rejects.toBeInstanceOf(ToolFailure);
  });

  it("no mode, or two, lists the agents with their descriptions", async () => {
    const { fake, started } = runner(() => ({}));
    const result = await subagentTool(fake).execute("c1", { agent: "worker", task: "x", tasks: [{ agent: "worker", task: "y" }] });
    expect(text(result)).toContain("Invalid parameters. Provide exactly one mode.\nAvailable agents: worker (builtin)");
    expect(text(result)).toContain("- worker (builtin): Does things");
    expect(started).toHaveLength(0);
  });

  it("parallel: progress counts done and running, and the result says how many succeeded", async () => {
    const { fake } = runner((r) => (r.task === "b" ? { ok: false, errorMessage: "boom" } : { output: `out ${r.task}` }));
    const updates: string[] = [];
    const tasks = ["a", "b", "c"].map((task) => ({ agent: "worker", task }));
    const result = await subagentTool(fake).execute("c1", { tasks }, undefined, (u) => updates.push(text(u)));
    expect(text(result)).toBe("Parallel: 2/3 succeeded\n\n[worker] completed:\nout a\n\n[worker] failed:\nboom\n\n[worker] completed:\nout c");
    expect(updates.at(-1)).toBe("Parallel: 3/3 done, 0 running");
  });

  it("keeps what the parent sees under 50 KB, saying how much was left out", () => {
    const long = "é".repeat(40_000); // 80,000 bytes
    const cut = capped(long);
    expect(Buffer.byteLength(cut.split("\n\n[Output truncated")[0], "utf8")).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(cut).toMatch(/\[Output truncated: \d+ of 80000 bytes left out\. The full messages are in the tool result's details\.\]$/);
    expect(capped("short")).toBe("short");
  });

  it("stopping the call stops every running task", async () => {
    const controller = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { fake, stopped } = runner(async () => {
      await gate;
      return { ok: false, stopReason: "aborted", errorMessage: "Stopped." };
    });
    const call = subagentTool(fake).execute("c1", { tasks: [{ agent: "worker", task: "a" }, { agent: "worker", task: "b" }] }, controller.signal);
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    release();
    await call;
    expect(stopped.sort()).toEqual(["r1", "r2"]);
  });

  it("asks before a project agent runs; a no runs nothing", async () => {
    const asked: string[] = [];
    const { fake, started } = runner(() => ({ output: "x" }), {
      listAgents: async () => ({ agents: [{ name: "local", description: "d", source: "project", confirmed: false }], projectAgentsDir: "/repo/.pi/agents", problems: [] }),
      confirm: async (_id, question) => (asked.push(question), false),
    });
    const result = await subagentTool(fake).execute("c1", { agent: "local", task: "t", agentScope: "both" });
    expect(asked[0]).toContain("Run project-local agents local from /repo/.pi/agents?");
    expect(text(result)).toBe("Canceled: project-local agents not approved.");
    expect(started).toHaveLength(0);
  });
});
