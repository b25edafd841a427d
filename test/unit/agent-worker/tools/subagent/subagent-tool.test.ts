/**
 * The subagent tool's own decisions, with a stand-in for main, as pi 1.6.0's subagent tool makes them: its texts for
 * each mode, per-task statuses (pending, running, completed, failed, aborted), the 50 KB cap per parallel task and
 * pi's output limit for the others, progress lines, a failed step, abort reaching every running task, the parent's
 * model and thinking level going along, `agentScope` as a string enum, and project agents asked about first.
 */
import { describe, expect, it } from "vitest";
import {
  PER_TASK_OUTPUT_CAP,
  subagentDescription,
  subagentTool,
  truncateModelOutput,
  truncateParallelOutput,
  type SubagentDetails,
  type SubagentRunner,
} from "../../../../../src/agent-worker/tools/subagent/subagent-tool";
import { validateToolArguments } from "../../../../../src/agent-worker/agent/tool-validation";
import type { SubagentOutcome, SubagentRequest } from "../../../../../src/shared/protocol/control-protocol";
import { ToolFailure } from "../../../../../src/shared/agent/tool-failure";

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
      return { requestId: request.requestId, agent: request.agent, sessionId: `s-${request.requestId}`, ok: true, output: "", usage, ...outcome };
    },
    stop: async (id) => void stopped.push(id),
    parentModel: () => ({ provider: "openai", id: "gpt-4.1" }),
    parentThinkingLevel: () => "high",
    newRequestId: () => `r${++n}`,
    ...extra,
  };
  return { fake, started, stopped };
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((c) => c.text ?? "").join("");

describe("the subagent tool", () => {
  it("single mode returns the subagent's final text, and the parent's model and thinking level go along", async () => {
    const { fake, started } = runner(() => ({ output: "All done." }));
    const updates: string[] = [];
    const result = await subagentTool(fake).execute("c1", { agent: "worker", task: "Do it" }, undefined, (u) => updates.push(text(u)));
    expect(text(result)).toBe("All done.");
    expect(started[0]).toMatchObject({ agent: "worker", task: "Do it", toolCallId: "c1", scope: "user", index: 0, upcoming: 0, parentModel: { provider: "openai", id: "gpt-4.1" }, parentThinkingLevel: "high" });
    expect(updates.slice(0, 2)).toEqual(["worker: working…", "worker: → read a.ts"]);
    expect(result.details.runs[0]).toMatchObject({ status: "completed", sessionId: "s-r1" });
    expect(result.details.usage.turns).toBe(1);
  });

  it("isolation: worktree goes to main with each task that asks, a task's own word before the call's", async () => {
    const { fake, started } = runner(() => ({ output: "ok" }));
    await subagentTool(fake).execute("c1", { agent: "worker", task: "Do it", isolation: "worktree" });
    await subagentTool(fake).execute("c2", {
      tasks: [
        { agent: "worker", task: "a" },
        { agent: "worker", task: "b", isolation: "worktree" },
      ],
    });
    await subagentTool(fake).execute("c3", { agent: "worker", task: "plain" });
    expect(started.map((request) => request.isolation)).toEqual(["worktree", undefined, "worktree", undefined]);
    const schema = JSON.parse(JSON.stringify(subagentTool(fake).parameters)) as { properties: Record<string, { enum?: string[] }> };
    expect(schema.properties.isolation.enum).toEqual(["worktree"]);
  });

  it("an isolated task's result tells the parent where it worked and what it changed there, and the details keep it", async () => {
    const worktree = {
      path: "/data-worktrees/project-fix-abc123",
      branch: "paddock/worker-fix",
      base: "0123456",
      files: [
        { path: "a.txt", status: "modified" as const, added: 2, removed: 1, binary: false },
        { path: "img.png", status: "added" as const, added: 0, removed: 0, binary: true },
        { path: "new.ts", oldPath: "old.ts", status: "renamed" as const, added: 0, removed: 0, binary: false },
      ],
      added: 2,
      removed: 1,
    };
    const { fake } = runner(() => ({ output: "Fixed.", worktree }));
    const result = await subagentTool(fake).execute("c1", { agent: "worker", task: "Fix it", isolation: "worktree" });
    expect(text(result)).toBe(
      [
        "Fixed.",
        "",
        "Worked in its own git worktree /data-worktrees/project-fix-abc123 (branch paddock/worker-fix): 3 files changed, +2 −1:",
        "- modified a.txt (+2 −1)",
        "- added img.png (binary)",
        "- renamed old.ts → new.ts (+0 −0)",
        "These changes are on branch paddock/worker-fix, not in the workspace, until they are applied.",
      ].join("\n"),
    );
    expect(result.details.runs[0].worktree).toEqual(worktree);
    const none = runner(() => ({ output: "Nothing to do.", worktree: { ...worktree, files: [], added: 0, removed: 0 } }));
    expect(text(await subagentTool(none.fake).execute("c2", { agent: "worker", task: "x" }))).toBe(
      "Nothing to do.\n\nWorked in its own git worktree /data-worktrees/project-fix-abc123 (branch paddock/worker-fix): no files changed.",
    );
  });

  it("in a chat with the worktree tool, an isolated task's result says to use it, with the task's session id", async () => {
    const worktree = {
      path: "/data-worktrees/project-fix-abc123",
      branch: "paddock/worker-fix",
      base: "0123456",
      files: [{ path: "a.txt", status: "modified" as const, added: 1, removed: 0, binary: false }],
      added: 1,
      removed: 0,
    };
    const { fake } = runner(() => ({ output: "Fixed.", worktree }));
    const result = await subagentTool(fake, { worktreeTool: true }).execute("c1", { agent: "worker", task: "Fix it", isolation: "worktree" });
    expect(text(result).split("\n").at(-1)).toBe('To apply them to the workspace, keep the branch or discard it, call the worktree tool with sessionId "s-r1".');
    const parallel = await subagentTool(fake, { worktreeTool: true }).execute("c2", { tasks: [{ agent: "worker", task: "a" }, { agent: "worker", task: "b" }], isolation: "worktree" });
    expect(text(parallel)).toContain('call the worktree tool with sessionId "s-r2"');
    expect(text(parallel)).toContain('call the worktree tool with sessionId "s-r3"');
    const plain = runner(() => ({ output: "Fixed." }));
    expect(text(await subagentTool(plain.fake, { worktreeTool: true }).execute("c3", { agent: "worker", task: "x" }))).toBe("Fixed.");
  });

  it("a failed single task fails the call with pi's text: the stop reason, then the evidence", async () => {
    const { fake } = runner(() => ({ ok: false, stopReason: "error", errorMessage: "rate limited", output: "half an answer" }));
    const call = subagentTool(fake).execute("c1", { agent: "worker", task: "Do it" });
    await expect(call).rejects.toThrow("Agent error: Error: rate limited\n\nAssistant output: half an answer");
    await expect(call).rejects.toBeInstanceOf(ToolFailure);
    const failure = (await call.catch((e: ToolFailure<SubagentDetails>) => e)) as ToolFailure<SubagentDetails>;
    expect(failure.details.runs[0].status).toBe("failed");
  });

  it("an agent main does not know is pi's unstarted failure: 'Agent failed: Error: Unknown agent: ...'", async () => {
    const { fake } = runner(() => ({}), {
      run: async () => {
        throw new Error('Unknown agent: "nobody". Available agents: "scout", "worker".');
      },
    });
    const call = subagentTool(fake).execute("c1", { agent: "nobody", task: "x" });
    await expect(call).rejects.toThrow('Agent failed: Error: Unknown agent: "nobody". Available agents: "scout", "worker".');
  });

  it("no mode, or two, is pi's error listing the agents there are", async () => {
    const { fake, started } = runner(() => ({}));
    const call = subagentTool(fake).execute("c1", { agent: "worker", task: "x", tasks: [{ agent: "worker", task: "y" }] });
    await expect(call).rejects.toBeInstanceOf(ToolFailure);
    await expect(call).rejects.toThrow(/^Invalid parameters\. Provide exactly one mode\.\nAvailable agents: worker \(builtin\)$/);
    expect(started).toHaveLength(0);
  });

  it("parallel: pi's summary, a section per task with its status, and any failure makes the call an error", async () => {
    const { fake, started } = runner((r) => (r.task === "b" ? { ok: false, stopReason: "error", errorMessage: "boom" } : { output: `out ${r.task}` }));
    const updates: string[] = [];
    const tasks = ["a", "b", "c"].map((task) => ({ agent: "worker", task }));
    const failure = (await subagentTool(fake)
      .execute("c1", { tasks }, undefined, (u) => updates.push(text(u)))
      .catch((e: ToolFailure<SubagentDetails>) => e)) as ToolFailure<SubagentDetails>;
    expect(failure).toBeInstanceOf(ToolFailure);
    expect(failure.message).toBe(
      "Parallel: 2/3 succeeded\n\n### [worker] completed\n\nout a\n\n---\n\n### [worker] failed (error)\n\nError: boom\n\n---\n\n### [worker] completed\n\nout c",
    );
    expect(failure.details.runs.map((r) => r.status)).toEqual(["completed", "failed", "completed"]);
    // Each request says its place in the call, by which main starts them in order under a cap.
    expect(started.map((r) => [r.task, r.index, r.upcoming])).toEqual([["a", 0, 2], ["b", 1, 1], ["c", 2, 0]]);
    expect(updates[0]).toBe("Parallel: 0/3 done, 0 running, 3 pending...");
    expect(updates.at(-1)).toBe("Parallel: 3/3 done, 0 running, 0 pending...");
  });

  it("parallel: every task is listed pending from the start, runs when its turn comes, and ends completed", async () => {
    const gates = new Map<string, () => void>();
    const { fake } = runner((r) => new Promise((resolve) => gates.set(r.task, () => resolve({ output: r.task }))));
    const seen: string[][] = [];
    const tasks = ["a", "b", "c", "d", "e"].map((task) => ({ agent: "worker", task }));
    const call = subagentTool(fake).execute("c1", { tasks }, undefined, (u) => seen.push(u.details!.runs.map((r) => r.status)));
    await new Promise((r) => setTimeout(r, 10));
    // Four at once (pi's MAX_CONCURRENCY): the fifth waits its turn, pending.
    expect(seen.at(-1)).toEqual(["running", "running", "running", "running", "pending"]);
    gates.get("a")!();
    await new Promise((r) => setTimeout(r, 10));
    expect(seen.at(-1)).toEqual(["completed", "running", "running", "running", "running"]);
    for (const task of ["b", "c", "d", "e"]) gates.get(task)!();
    const result = await call;
    expect(result.details.runs.map((r) => r.status)).toEqual(Array(5).fill("completed"));
  });

  it("parallel: each task's output is capped at 50 KB with a notice saying where the rest is; the others are whole", async () => {
    const long = "é".repeat(30_000); // 60,000 bytes
    const { fake } = runner((r) => ({ output: r.task === "long" ? long : "short answer" }));
    const tasks = ["long", "short"].map((task) => ({ agent: "worker", task }));
    const result = await subagentTool(fake).execute("c1", { tasks });
    const [first, second] = text(result).split("\n\n---\n\n");
    const body = first.split("### [worker] completed\n\n")[1];
    expect(Buffer.byteLength(body.split("\n\n[Output truncated")[0], "utf8")).toBe(PER_TASK_OUTPUT_CAP);
    expect(body.endsWith(`[Output truncated: ${60_000 - PER_TASK_OUTPUT_CAP} bytes omitted. The whole output is in the subagent's own session, where the user can read it; ask the subagent for a shorter answer if you need the rest.]`)).toBe(true);
    expect(second).toBe("### [worker] completed\n\nshort answer");
    expect(result.details.runs[0].output).toBe(long); // all of it, in the details
  });

  it("pi's per-task cap cuts at a whole character and leaves anything under it alone", () => {
    expect(truncateParallelOutput("short")).toBe("short");
    const cut = truncateParallelOutput(`a${"€".repeat(20_000)}`); // 60,001 bytes; "€" is 3
    expect(cut.split("\n\n[Output truncated")[0]).toBe(`a${"€".repeat(17_066)}`);
    expect(cut).toContain("[Output truncated: 8802 bytes omitted.");
  });

  it("a single or chain result keeps pi's limits (2,000 lines, 50 KB), and its notice never points the model at details it cannot see", () => {
    expect(truncateModelOutput("short")).toBe("short");
    const lines = Array.from({ length: 2_500 }, (_, i) => `line ${i}`).join("\n");
    const cut = truncateModelOutput(lines);
    expect(cut.split("\n").slice(0, -2)).toHaveLength(1_998);
    expect(cut).toMatch(/\n\n\[Output truncated: \d+ bytes omitted\. The whole output is in the subagent's own session, where the user can read it; ask the subagent for a shorter answer if you need the rest\.\]$/);
    expect(cut).not.toContain("details");
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
    const failure = (await call.catch((e: ToolFailure<SubagentDetails>) => e)) as ToolFailure<SubagentDetails>;
    expect(stopped.sort()).toEqual(["r1", "r2"]);
    expect(failure.details.runs.map((r) => r.status)).toEqual(["aborted", "aborted"]);
    expect(failure.message).toContain("### [worker] aborted (aborted)");
  });

  it("chain: each step appears as it starts; a stopped call leaves the step aborted and runs no more", async () => {
    const controller = new AbortController();
    const { fake, started } = runner(async (r) => {
      if (r.task === "one") return { output: "first" };
      controller.abort();
      return { ok: false, stopReason: "aborted", errorMessage: "Stopped." };
    });
    const seen: string[][] = [];
    const chain = ["one", "two", "three"].map((task) => ({ agent: "worker", task }));
    const failure = (await subagentTool(fake)
      .execute("c1", { chain }, controller.signal, (u) => seen.push(u.details!.runs.map((r) => r.status)))
      .catch((e: ToolFailure<SubagentDetails>) => e)) as ToolFailure<SubagentDetails>;
    expect(seen[0]).toEqual(["pending"]);
    expect(seen).toContainEqual(["completed", "running"]);
    expect(failure.message).toBe("Chain stopped at step 2 (worker): Error: Stopped.");
    expect(failure.details.runs.map((r) => r.status)).toEqual(["completed", "aborted"]);
    expect(started).toHaveLength(2);
  });

  it("a task not yet started when the call is stopped is aborted before starting, as pi says", async () => {
    const controller = new AbortController();
    controller.abort();
    const { fake, started } = runner(() => ({}));
    const call = subagentTool(fake).execute("c1", { agent: "worker", task: "x" }, controller.signal);
    await expect(call).rejects.toThrow("Agent aborted: Error: Subagent was aborted before starting");
    expect(started).toHaveLength(0);
  });

  it("agentScope is pi-ai's string enum (the form Google accepts), and validation still refuses other values", () => {
    const tool = subagentTool(runner(() => ({})).fake);
    expect(JSON.parse(JSON.stringify(tool.parameters)).properties.agentScope).toEqual({
      type: "string",
      enum: ["user", "project", "both"],
      description: 'Which agent directories to use. Default: "user". Use "both" to include project-local agents.',
      default: "user",
    });
    const validate = (args: unknown) => validateToolArguments(tool, { name: "subagent", arguments: args });
    expect(validate({ agent: "worker", task: "x", agentScope: "both" })).toMatchObject({ agentScope: "both" });
    expect(() => validate({ agent: "worker", task: "x", agentScope: "everywhere" })).toThrow("agentScope: must be equal to one of the allowed values");
  });

  it("describes itself as pi 1.6.0 does, naming the folders user agents come from", () => {
    expect(subagentDescription({ piAgents: "/h/.pi/agent/agents", paddockAgents: "/d/agents" })).toBe(
      "Delegate tasks to specialized subagents with isolated context. " +
        "Modes: single (agent + task), parallel (tasks array), chain (sequential with {previous} placeholder). " +
        'Default agent scope is "user" (from /h/.pi/agent/agents and /d/agents, and the built-in agents). ' +
        'To enable project-local agents in .pi/agents, set agentScope: "both" (or "project").',
    );
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

  it("asks about a task's project agents as found from its cwd, and confirms each for the folder it was found from", async () => {
    const asked: string[] = [];
    const listed: (string | undefined)[] = [];
    const confirmed: [string[], string | undefined][] = [];
    const { fake, started } = runner(() => ({ output: "x" }), {
      listAgents: async (_scope, cwd) => {
        listed.push(cwd);
        return cwd === "pkg"
          ? { agents: [{ name: "local", description: "d", source: "project", confirmed: false }], projectAgentsDir: "/repo/pkg/.pi/agents", problems: [] }
          : { agents: [{ name: "top", description: "d", source: "project", confirmed: false }], projectAgentsDir: "/repo/.pi/agents", problems: [] };
      },
      confirm: async (_id, question) => (asked.push(question), true),
      confirmProjectAgents: async (names, cwd) => void confirmed.push([names, cwd]),
    });
    await subagentTool(fake).execute("c1", { tasks: [{ agent: "top", task: "a" }, { agent: "local", task: "b", cwd: "pkg" }], agentScope: "both" });
    expect(listed).toEqual([undefined, "pkg"]);
    expect(asked).toEqual([expect.stringContaining("Run project-local agents top, local from /repo/.pi/agents, /repo/pkg/.pi/agents?")]);
    expect(confirmed).toEqual([[["top"], undefined], [["local"], "pkg"]]);
    expect(started.map((r) => [r.agent, r.cwd])).toEqual([["top", undefined], ["local", "pkg"]]);
  });
});
