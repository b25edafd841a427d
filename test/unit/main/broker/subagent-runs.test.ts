/**
 * Main's side of a subagent task, with a stand-in for the broker and the child's worker: what the child is told
 * (pi's `Task: <task>`), which model and thinking level it runs with (an agent without a model inherits the parent's
 * model and thinking level, as pi's dispatch defaults), and pi's text for an agent that does not exist.
 */
import { existsSync, realpathSync } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyToWorkspace } from "../../../../src/shared-node/git-worktrees/worktree-apply";
import { childWorkerSettings, SubagentRuns, type AgentCatalog, type SubagentBrokerHost } from "../../../../src/main/broker/subagent-runs";
import { recordedLaunch, storedLaunch, type ChildLaunch } from "../../../../src/main/broker/child-launch";
import { discoverAgents, type AgentDefinition } from "../../../../src/main/agents/agent-definitions";
import type { SubagentRequest, WorkerSettings } from "../../../../src/shared/protocol/control-protocol";
import type { WorkerHandle } from "../../../../src/main/broker/worker-handle";
import type { ModelRef } from "../../../../src/shared/protocol/app-api";
import { TempFolders } from "../../../../testkit/temp-folders";
import { git } from "../../../../testkit/git";

const folders = new TempFolders("paddock-subagent-runs-");
afterAll(() => folders.removeAll());

function agent(name: string, model?: string): AgentDefinition {
  return { name, description: `The ${name}`, tools: ["read"], systemPrompt: `You are ${name}.`, source: "builtin", contentHash: name, ...(model ? { model } : {}) };
}

/** SubagentRuns over a fake broker whose child worker answers every task at once; records what it was given. */
function rig(
  agents: AgentDefinition[],
  options: {
    knownModels?: string[];
    records?: boolean;
    files?: Record<string, string>;
    workspace?: string;
    worktreesDir?: string;
    work?: (folder: string, task: string) => Promise<void>;
    /** Settings' cap on subagents running at once (8). */
    max?: number;
    /** Held before discovery for a task run from that folder (by its name) ends: a slow check. */
    discovery?: (folder: string) => Promise<void>;
  } = {},
) {
  const workspace = options.workspace ?? folders.make(options.files ?? {});
  const launches: ChildLaunch[] = [];
  const recorded = new Map<string, ChildLaunch>();
  const tasks: string[] = [];
  const contracts: unknown[] = [];
  const workerFor = (launch?: ChildLaunch) => ({
    process: { exited: new Promise(() => {}) },
    call: (fn: (control: unknown) => Promise<unknown>) =>
      fn({
        runTask: async (task: string, contract?: unknown) => {
          tasks.push(task);
          contracts.push(contract);
          if (launch?.workspace) await options.work?.(launch.workspace, task);
          return { ok: true, output: "done", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 1 } };
        },
        subagentProgress: async () => {},
      }),
  }) as unknown as WorkerHandle<unknown>;
  const worker = workerFor();
  const host: SubagentBrokerHost = {
    workspaceOf: () => workspace,
    startChild: async (id) => (launches.push(recorded.get(id)!), workerFor(recorded.get(id))),
    releaseChild: () => {},
    close: async () => {},
    workerOf: () => worker,
    childCreated: (child) => {
      if (options.records !== false) recorded.set(child.sessionId, child.launch);
    },
    launchOf: (id) => (recorded.has(id) ? { launch: recorded.get(id)! } : undefined),
    resolveModel: (ref: ModelRef) => {
      if (!(options.knownModels ?? []).includes(`${ref.provider}/${ref.id}`)) throw new Error("unknown model");
      return {};
    },
    hasApiKey: async () => true,
    maxSubagents: () => options.max ?? 8,
    prewarm: () => {},
    tasksDone: () => {},
    ...(options.worktreesDir ? { worktreesDir: options.worktreesDir } : {}),
  };
  const catalog: AgentCatalog = {
    // With files: the agents found on disk (the project's, from the folder discovery is given), as main finds them.
    discover: async (scope, from) => (await options.discovery?.(basename(from ?? "")), options.files ? discoverAgents({ scope, dataDir: join(workspace, "no-data"), workspace: from }) : { agents, problems: [] }),
    folders: () => ({ paddock: "/data/agents", pi: "/home/.pi/agent/agents" }),
    isConfirmed: () => true,
    confirm: async () => {},
  };
  return { runs: new SubagentRuns(host, catalog), launches, tasks, contracts, workspace };
}

const parentModel = { provider: "openai", id: "gpt-4.1" };
const request = (agentName: string, extra: Partial<SubagentRequest> = {}): SubagentRequest => ({
  requestId: `r-${agentName}`,
  toolCallId: "c1",
  agent: agentName,
  task: "Find the tests",
  scope: "user",
  index: 0,
  parentModel,
  parentThinkingLevel: "high",
  ...extra,
});
const settings = { thinkingLevel: "off", defaultModel: { provider: "anthropic", id: "claude-sonnet-4-5" } } as WorkerSettings;

describe("a subagent task in main", () => {
  it("sends the child pi's `Task: <task>`, not the bare task", async () => {
    const { runs, tasks } = rig([agent("scout")]);
    const outcome = await runs.run("parent", request("scout"));
    expect(outcome.ok).toBe(true);
    expect(tasks).toEqual(["Task: Find the tests"]);
  });

  it("runs the task in Plan when its parent's run plans (the run's contract), and without a contract otherwise", async () => {
    const { runs, contracts } = rig([agent("scout")]);
    await runs.run("parent", request("scout", { requestId: "r-plan", parentProfile: "read-only", parentPlan: true }));
    await runs.run("parent", request("scout", { requestId: "r-act" }));
    expect(contracts).toEqual([{ plan: true }, undefined]);
    await expect(runs.run("parent", request("scout", { requestId: "r-bad", parentPlan: "yes" as never }))).rejects.toThrow(/invalid request/);
  });

  it("runs an agent without a model on the parent's model and thinking level", async () => {
    const { runs, launches } = rig([agent("scout")]);
    await runs.run("parent", request("scout"));
    expect(launches[0]).toMatchObject({ model: parentModel, thinkingLevel: "high" });
    expect(childWorkerSettings(settings, launches[0])).toMatchObject({ defaultModel: parentModel, thinkingLevel: "high" });
  });

  it("runs an agent with a usable model of its own on that model, at Settings' thinking level (pi sends no --thinking then)", async () => {
    const { runs, launches } = rig([agent("scout", "anthropic/claude-haiku-4-5")], { knownModels: ["anthropic/claude-haiku-4-5"] });
    await runs.run("parent", request("scout"));
    expect(launches[0].model).toEqual({ provider: "anthropic", id: "claude-haiku-4-5" });
    expect(launches[0].thinkingLevel).toBeUndefined();
    expect(childWorkerSettings(settings, launches[0])).toMatchObject({ defaultModel: { provider: "anthropic", id: "claude-haiku-4-5" }, thinkingLevel: "off" });
  });

  it("falls back to the parent's model, and with it its thinking level, when the agent's model cannot be used here", async () => {
    const { runs, launches } = rig([agent("scout", "nowhere/none")]);
    const outcome = await runs.run("parent", request("scout"));
    expect(outcome.notice).toBe('Model "nowhere/none" is not available here; used the chat\'s model instead.');
    expect(launches[0]).toMatchObject({ model: parentModel, thinkingLevel: "high" });
  });

  it("never launches a child wider than its parent's profile; an agent's own profile narrows it; a parent that does not say counts as Ask", async () => {
    const cases: [parent: SubagentRequest["parentProfile"], own: AgentDefinition["profile"], child: string][] = [
      ["read-only", "sandboxed-auto", "read-only"],
      ["edits", undefined, "edits"],
      ["sandboxed-auto", "read-only", "read-only"],
      ["ask", "edits", "ask"],
      [undefined, "sandboxed-auto", "ask"],
      [undefined, undefined, "ask"],
    ];
    for (const [i, [parentProfile, own, child]] of cases.entries()) {
      const { runs, launches } = rig([{ ...agent("scout"), ...(own ? { profile: own } : {}) }]);
      await runs.run("parent", request("scout", { requestId: `r-${i}`, ...(parentProfile ? { parentProfile } : {}) }));
      expect(launches[0].setup.profile, `${parentProfile} / ${own}`).toBe(child);
      // Kept in the index with the launch: a restarted child gets the same.
      expect(recordedLaunch({ id: "c", title: "", created: 0, updated: 0, parent: { sessionId: "parent", toolCallId: "c1", agent: "scout" }, launch: storedLaunch(launches[0]) } as never)?.launch.setup.profile).toBe(child);
    }
    const { runs } = rig([agent("scout")]);
    await expect(runs.run("parent", request("scout", { parentProfile: "yolo" as never }))).rejects.toThrow("runSubagent: invalid request");
  });

  it("refuses a thinking level that is not one", async () => {
    const { runs } = rig([agent("scout")]);
    await expect(runs.run("parent", request("scout", { parentThinkingLevel: "enormous" as never }))).rejects.toThrow("runSubagent: invalid request");
  });

  it("refuses an isolation that is not worktree", async () => {
    const { runs } = rig([agent("scout")]);
    await expect(runs.run("parent", request("scout", { isolation: "container" as never }))).rejects.toThrow("runSubagent: invalid request");
  });

  it("names an unknown agent in pi's words, listing the agents there are", async () => {
    const { runs, launches } = rig([agent("scout"), agent("worker")]);
    await expect(runs.run("parent", request("nobody"))).rejects.toThrow('Unknown agent: "nobody". Available agents: "scout", "worker".');
    await expect(rig([]).runs.run("parent", request("nobody"))).rejects.toThrow('Unknown agent: "nobody". Available agents: none.');
    expect(launches).toHaveLength(0);
  });

  it("finds a project's agents from the folder a task runs in (its cwd, confined to the workspace), for the list and the task alike", async () => {
    const definition = (name: string) => `---\nname: ${name}\ndescription: The ${name} agent\n---\nYou are ${name}.\n`;
    const { runs, launches, workspace } = rig([], {
      files: { ".pi/agents/top.md": definition("top"), "pkg/.pi/agents/local.md": definition("local"), "pkg/src/index.ts": "" },
    });
    const real = realpathSync(workspace);
    const names = (list: { agents: { name: string }[] }) => list.agents.map((a) => a.name);
    expect(names(await runs.listAgents("parent", "project"))).toEqual(["top"]);
    const fromCwd = await runs.listAgents("parent", "project", "pkg/src");
    expect(names(fromCwd)).toEqual(["local"]);
    expect(fromCwd.projectAgentsDir).toBe(join(real, "pkg", ".pi", "agents"));
    await runs.run("parent", request("local", { scope: "project", cwd: "pkg/src" }));
    expect(launches[0]).toMatchObject({ setup: { agent: "local", instructions: "You are local." }, workspace: join(real, "pkg", "src") });
    // Without a cwd, the workspace's.
    await expect(runs.run("parent", request("local", { scope: "project", requestId: "r-2" }))).rejects.toThrow('Unknown agent: "local". Available agents: "top".');
    await expect(runs.listAgents("parent", "project", "..")).rejects.toThrow('cwd ".." is outside the workspace; subagents work inside it.');
    await expect(runs.run("parent", request("top", { scope: "project", cwd: "..", requestId: "r-3" }))).rejects.toThrow("outside the workspace");
  });

  it("never starts a child whose launch main could not record (it would start as an ordinary chat)", async () => {
    const { runs, launches, tasks } = rig([agent("scout")], { records: false });
    await expect(runs.run("parent", request("scout"))).rejects.toThrow("The subagent's set-up could not be recorded, so it was not started.");
    expect(launches).toHaveLength(0);
    expect(tasks).toHaveLength(0);
  });
});

describe("tasks waiting their turn", () => {
  /** A rig whose children work until `finish` is called: `started` lists the tasks begun, in order. */
  function held(options: Parameters<typeof rig>[1]) {
    const finishers: (() => void)[] = [];
    const started: string[] = [];
    const r = rig([agent("scout"), agent("worker")], {
      ...options,
      work: (_folder, task) => {
        started.push(task.replace("Task: ", ""));
        return new Promise<void>((resolve) => finishers.push(resolve));
      },
    });
    const next = async (count: number) => {
      await expect.poll(() => started.length).toBe(count);
      finishers.shift()!();
    };
    return { ...r, started, next };
  }
  const task = (name: string, index: number, extra: Partial<SubagentRequest> = {}) =>
    request("scout", { requestId: `r-${name}`, task: name, cwd: name, index, ...extra });
  const gate = () => {
    let open!: () => void;
    return { promise: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
  };

  it("start in the call's order under a cap of one when the requests arrive swapped", async () => {
    const { runs, started, next } = held({ max: 1, files: { "zero/a": "", "one/a": "" }, discovery: undefined });
    const done = Promise.all([runs.run("parent", task("one", 1)), runs.run("parent", task("zero", 0))]);
    await next(1);
    await next(2);
    await done;
    expect(started).toEqual(["zero", "one"]);
  });

  it("start in the call's order when main's checks of them end the other way round (a slow look at the first's folder)", async () => {
    const slow = gate();
    const { runs, started, next } = held({
      max: 1,
      files: { "zero/a": "", "one/a": "" },
      discovery: async (folder) => {
        if (folder === "zero") await slow.promise;
      },
    });
    const done = Promise.all([runs.run("parent", task("zero", 0)), runs.run("parent", task("one", 1))]);
    // The second's checks are over; it still waits for the first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toEqual([]);
    slow.open();
    await next(1);
    await next(2);
    await done;
    expect(started).toEqual(["zero", "one"]);
  });

  it("a parent's call heard of first goes first; another parent's task is not held up by it", async () => {
    const { runs, started, next } = held({ max: 1, files: { "a/x": "", "b/x": "", "c/x": "", "d/x": "", "e/x": "" } });
    const done = Promise.all([
      runs.run("parent", task("a", 0, { toolCallId: "first" })),
      runs.run("other", task("b", 0, { toolCallId: "x" })),
      runs.run("parent", task("c", 1, { toolCallId: "second" })),
      runs.run("parent", task("d", 0, { toolCallId: "second" })),
      runs.run("parent", task("e", 1, { toolCallId: "first" })),
    ]);
    for (let i = 1; i <= 5; i++) await next(i);
    await done;
    // parent's: first's 0 and 1, then second's 0 and 1. Other's b goes when the cap has room once its checks are
    // done, wherever that falls (a parent waits for its own earlier tasks only, never for another parent's).
    expect(started.filter((name) => name !== "b")).toEqual(["a", "e", "d", "c"]);
    expect(started).toContain("b");
  });

  it("an earlier task whose checks fail holds nobody up", async () => {
    const { runs, started, next } = held({ max: 1, files: { "zero/x": "", "one/x": "" } });
    const done = Promise.allSettled([runs.run("parent", task("zero", 0, { agent: "ghost" })), runs.run("parent", task("one", 1))]);
    await next(1);
    const [ghost, one] = await done;
    expect(ghost).toMatchObject({ status: "rejected", reason: { message: expect.stringContaining('Unknown agent: "ghost"') } });
    expect(one).toMatchObject({ status: "fulfilled" });
    expect(started).toEqual(["one"]);
  });

  it("keeps four of a parent's tasks running at most, in order, under a larger cap", async () => {
    const names = ["t0", "t1", "t2", "t3", "t4", "t5"];
    const { runs, started, next } = held({ max: 8, files: Object.fromEntries(names.map((n) => [`${n}/a`, ""])) });
    const done = Promise.all(names.map((n, i) => runs.run("parent", task(n, i))).reverse());
    await expect.poll(() => started.length).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The first four by index hold the slots (they then start side by side: their launches may end in any order).
    expect([...started].sort()).toEqual(["t0", "t1", "t2", "t3"]);
    for (let i = 4; i <= 6; i++) await next(i);
    for (let i = 0; i < 3; i++) await next(6);
    await done;
    // Each later task took a slot a finished one freed, in order.
    expect(started.slice(4)).toEqual(["t4", "t5"]);
  });

  it("refuses a request without its place in the call", async () => {
    const { runs } = rig([agent("scout")]);
    for (const index of [undefined, -1, 1.5, "0"]) {
      await expect(runs.run("parent", request("scout", { index: index as never }))).rejects.toThrow("runSubagent: invalid request");
    }
  });
});

describe("an isolated task (isolation: worktree)", () => {
  async function repository(): Promise<string> {
    const root = await realpath(folders.make({ "a.txt": "one\ntwo\nthree\nfour\nfive\n", "sub/b.txt": "bee\n" }));
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "first");
    return root;
  }
  const worktreesDir = () => join(folders.make({}), "worktrees");

  it("runs in a worktree of its own, the workspace untouched, its outcome listing its changes, its launch keeping the worktree", async () => {
    const workspace = await repository();
    const { runs, launches } = rig([agent("worker")], {
      workspace,
      worktreesDir: worktreesDir(),
      work: async (folder) => {
        await writeFile(join(folder, "a.txt"), "one\ntwo\nTHREE\nfour\nfive\n");
        await writeFile(join(folder, "new.txt"), "new\n");
      },
    });
    const outcome = await runs.run("parent", request("worker", { isolation: "worktree", task: "Fix the parser" }));
    const worktree = launches[0].worktree!;
    expect(worktree.branch).toBe("paddock/worker-fix-the-parser");
    expect(launches[0].workspace).toBe(worktree.folder);
    expect(worktree.folder).not.toBe(workspace);
    expect(outcome.worktree).toEqual({
      path: worktree.path,
      branch: worktree.branch,
      base: git(workspace, "rev-parse", "HEAD").trim(),
      files: [
        { path: "a.txt", status: "modified", added: 1, removed: 1, binary: false },
        { path: "new.txt", status: "added", added: 1, removed: 0, binary: false },
      ],
      added: 2,
      removed: 1,
    });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\nthree\nfour\nfive\n");
    expect(existsSync(join(workspace, "new.txt"))).toBe(false);
    expect(await applyToWorkspace(worktree)).toMatchObject({ applied: true });
    expect(await readFile(join(workspace, "new.txt"), "utf8")).toBe("new\n");
  });

  it("is what an agent file's isolation: worktree asks for, in the counterpart of the task's cwd", async () => {
    const workspace = await repository();
    const { runs, launches } = rig([{ ...agent("worker"), isolation: "worktree" }], { workspace, worktreesDir: worktreesDir() });
    await runs.run("parent", request("worker", { cwd: "sub" }));
    expect(launches[0].workspace).toBe(join(launches[0].worktree!.path, "sub"));
  });

  it("two parallel isolated tasks writing the same file: both kept; the first applies, the second is refused with the conflict, then merges", async () => {
    const workspace = await repository();
    const { runs, launches } = rig([agent("worker")], {
      workspace,
      worktreesDir: worktreesDir(),
      work: async (folder, task) => {
        const text = await readFile(join(folder, "a.txt"), "utf8");
        await writeFile(join(folder, "a.txt"), task.includes("first") ? text.replace("one", "ONE") : text.replace("five", "FIVE"));
      },
    });
    const outcomes = await Promise.all([
      runs.run("parent", request("worker", { requestId: "r1", isolation: "worktree", task: "the first line" })),
      runs.run("parent", request("worker", { requestId: "r2", isolation: "worktree", task: "the last line" })),
    ]);
    expect(outcomes.map((outcome) => outcome.worktree?.files.map((file) => file.path))).toEqual([["a.txt"], ["a.txt"]]);
    const [first, second] = ["r1", "r2"].map((id) => launches.find((launch) => launch.worktree!.branch.includes(id === "r1" ? "first" : "last"))!.worktree!);
    expect(await applyToWorkspace(first)).toMatchObject({ applied: true });
    expect(await applyToWorkspace(second)).toMatchObject({ applied: false, conflicts: [{ path: "a.txt" }] });
    expect(await applyToWorkspace(second, { merge: true })).toMatchObject({ applied: true, withConflictMarkers: [] });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("ONE\ntwo\nthree\nfour\nFIVE\n");
  });

  it("is refused, in words, outside a git repository or where the app has no worktrees folder", async () => {
    const { runs, launches } = rig([agent("worker")], { worktreesDir: worktreesDir() });
    await expect(runs.run("parent", request("worker", { isolation: "worktree" }))).rejects.toThrow(
      /^isolation: worktree needs the workspace in a git repository with a commit: .* is not in a git repository$/,
    );
    await expect(rig([agent("worker")], { workspace: await repository() }).runs.run("parent", request("worker", { isolation: "worktree" }))).rejects.toThrow(
      "isolation: worktree is not available in this app: it has no folder for worktrees.",
    );
    expect(launches).toHaveLength(0);
  });
});
