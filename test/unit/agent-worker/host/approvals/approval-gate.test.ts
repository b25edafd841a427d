import { describe, expect, it, vi } from "vitest";
import { ApprovalGate, grantFor, RUN_ENDED, type ApprovalGateOptions, type GatePolicy } from "../../../../../src/agent-worker/host/approvals/approval-gate";
import type { ApprovalRequest } from "../../../../../src/shared/protocol/session-protocol";
import type { BeforeToolCallContext } from "../../../../../src/shared/agent/types";

const call = (name: string, args: unknown, id = "c1") => ({ toolCall: { type: "toolCall", id, name, arguments: args }, args }) as unknown as BeforeToolCallContext;

function gate(grants: string[] = [], policy: Record<string, GatePolicy> = {}, protection?: ApprovalGateOptions["protection"], project = true) {
  const published: ApprovalRequest[][] = [];
  const saved: string[] = [];
  const savedForProject: string[] = [];
  const g = new ApprovalGate(
    {
      policy: (tool) => policy[tool] ?? "ask",
      describe: async (tool, args) => ({ summary: `${tool} ${JSON.stringify(args)}` }),
      ...(protection ? { protection } : {}),
      changed: (pending) => published.push(pending),
      saveGrant: async (grant) => void saved.push(grant),
      saveProjectGrant: async (grant) => void savedForProject.push(grant),
      hasProject: () => project,
      timeoutMs: () => 1_000,
    },
    grants,
  );
  // A window shows the chat: questions wait for the user (parking, below, is for runs nobody watches).
  g.setViewers(1);
  return { g, published, saved, savedForProject };
}

describe("what 'allow for this chat' covers", () => {
  it("a tool's every call; for bash, the exact command and never a prefix of it", () => {
    expect(grantFor("edit", { path: "a" })).toBe("tool:edit");
    expect(grantFor("bash", { command: "ls -la src" })).toBe("bash=ls -la src");
    expect(grantFor("bash", { command: "npm run build" })).toBe("bash=npm run build");
    expect(grantFor("bash", { command: "rm -rf dist" })).toBe("bash=rm -rf dist");
    expect(grantFor("bash", { command: "  cargo build --release " })).toBe("bash=cargo build --release");
    expect(grantFor("bash", { command: "git -C x status" })).toBe("bash=git -C x status");
  });

  it("nothing for a command that chains, pipes, substitutes or redirects: its first word says too little", () => {
    for (const command of ["npm test && rm -rf /", "ls | sh", "echo $(id)", "cat `x`", "ls > out", "a; b", "ls\nrm x", "ls\rrm x", ""]) {
      expect(grantFor("bash", { command })).toBeUndefined();
    }
    expect(grantFor("bash", { command: "make; curl evil" })).toBeUndefined();
  });

  it("nothing for a command holding a character that does not show as itself: the question may read as another command", () => {
    for (const command of [
      "echo Tests passed, cleaning up:\nrm -rf src", "cat notes\u202egnp.exe", "ls \u2066x\u2069", "echo ok\u200b", "echo \ufeffok",
      "ls\u00a0-la", "rm -rf src\r", "ls\u2028rm x", "echo \x1b[2Kdone", "ls \u00adx", "ls x\u{e0041}", "ls\u3164x", " ls src\u2028",
    ]) {
      expect(grantFor("bash", { command }), JSON.stringify(command)).toBeUndefined();
    }
    // Plain whitespace around a simple command is not hidden: it still gets its grant.
    expect(grantFor("bash", { command: "  npm test\n" })).toBe("bash=npm test");
    expect(grantFor("bash", { command: "ls\tsrc" })).toBe("bash=ls\tsrc");
  });
});

describe("scopes shown exactly", () => {
  it("the buttons offer `npm run build` and `rm -rf dist` as themselves, for the chat and for the project", async () => {
    const { g, published, savedForProject } = gate();
    for (const [id, command] of [["b", "npm run build"], ["r", "rm -rf dist"], ["l", "ls -la"]]) void g.decideCall(call("bash", { command }, id));
    await vi.waitFor(() => expect(g.pending()).toHaveLength(3));
    expect(g.pending().map((r) => [r.scope, r.project])).toEqual([
      ["npm run build", "npm run build"],
      ["rm -rf dist", "rm -rf dist"],
      ["ls -la", "ls -la"],
    ]);
    await g.answer("b", "project");
    expect(savedForProject).toEqual(["bash=npm run build"]);
    // Exactly that command: another script of the same program asks.
    void g.decideCall(call("bash", { command: "npm run deploy" }, "d"));
    await vi.waitFor(() => expect(g.pending().map((r) => r.toolCallId)).toContain("d"));
    expect(await g.decideCall(call("bash", { command: "npm run build" }, "b2"))).toBeUndefined();
    expect(published.length).toBeGreaterThan(0);
    g.denyAll("done");
  });
});

describe("project grants", () => {
  it("main's list allows without asking, and a grant removed there asks again at once", async () => {
    const { g, published } = gate();
    g.setProjectGrants(["tool:edit", "bash=npm test", "net:registry.npmjs.org"]);
    expect(await g.decideCall(call("edit", { path: "a" }, "e1"))).toBeUndefined();
    expect(await g.decideCall(call("bash", { command: "npm test" }, "t1"))).toBeUndefined();
    expect(g.projectHosts()).toEqual(["registry.npmjs.org"]);
    g.setProjectGrants(["bash=npm test"]);
    void g.decideCall(call("edit", { path: "a" }, "e2"));
    await vi.waitFor(() => expect(published.at(-1)?.map((r) => r.toolCallId)).toEqual(["e2"]));
    expect(g.projectHosts()).toEqual([]);
    g.denyAll("done");
  });

  it("a prefix or malformed grant from main is ignored: a project grant is exact", async () => {
    const { g } = gate();
    g.setProjectGrants(["bash:ls", "bash:npm", "net:*.example.org", "net:evil.org:443", "tool:", 42 as unknown as string]);
    void g.decideCall(call("bash", { command: "ls -la" }, "l"));
    await vi.waitFor(() => expect(g.pending().map((r) => r.toolCallId)).toEqual(["l"]));
    expect(g.projectHosts()).toEqual([]);
    g.denyAll("done");
  });

  it("'for this project' is offered only with a workspace, and never for a call that can only be allowed once", async () => {
    const without = gate([], {}, undefined, false);
    void without.g.decideCall(call("bash", { command: "npm test" }, "n"));
    await vi.waitFor(() => expect(without.g.pending()).toHaveLength(1));
    expect(without.g.pending()[0].project).toBeUndefined();
    await expect(without.g.answer("n", "project")).rejects.toThrow(/cannot be allowed for the project/);
    without.g.denyAll("done");
    const { g } = gate([], { bash: "every-call" });
    void g.decideCall(call("bash", { command: "npm test" }, "x"));
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    expect(g.pending()[0].project).toBeUndefined();
    await expect(g.answer("x", "project")).rejects.toThrow(/cannot be allowed for the project/);
    g.denyAll("done");
  });
});

describe("network questions", () => {
  it("ask whatever Settings say, offer once, the project (the host exactly) or deny, never the chat", async () => {
    const { g, savedForProject } = gate([], { network: "allow" });
    const answer = g.ask({ id: "n1", toolName: "network", args: { host: "Registry.Example.org", port: 443 }, described: { summary: "npm wants registry.example.org" }, network: true });
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    expect(g.pending()[0]).toMatchObject({ network: true, project: "registry.example.org", summary: "npm wants registry.example.org" });
    expect(g.pending()[0].scope).toBeUndefined();
    await expect(g.answer("n1", "chat")).rejects.toThrow(/only be allowed once/);
    await g.answer("n1", "project");
    expect(await answer).toBeUndefined();
    expect(savedForProject).toEqual(["net:registry.example.org"]);
    expect(g.projectHosts()).toEqual(["registry.example.org"]);
    // Now allowed without asking; another host still asks, and a denial blocks.
    expect(await g.ask({ id: "n2", toolName: "network", args: { host: "registry.example.org" }, described: { summary: "s" }, network: true })).toBeUndefined();
    const other = g.ask({ id: "n3", toolName: "network", args: { host: "evil.example.org" }, described: { summary: "s" }, network: true });
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    await g.answer("n3", "deny");
    expect(await other).toMatchObject({ block: true });
  });

  it("a host that cannot be named exactly (an IPv6 literal) can only be allowed once", async () => {
    const { g } = gate();
    void g.ask({ id: "v6", toolName: "network", args: { host: "::1" }, described: { summary: "s" }, network: true });
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    expect(g.pending()[0].project).toBeUndefined();
    g.denyAll("done");
  });
});

describe("the approval gate", () => {
  it("lets allowed tools and granted calls through without asking", async () => {
    const { g, published } = gate(["bash:ls", "bash=npm test"], { read: "allow" });
    expect(await g.decideCall(call("read", { path: "a" }))).toBeUndefined();
    expect(await g.decideCall(call("bash", { command: "ls -la src" }))).toBeUndefined();
    expect(await g.decideCall(call("bash", { command: "npm test" }))).toBeUndefined();
    expect(published).toEqual([]);
  });

  it("a command allowed for the chat covers that command, not what its program can be made to run (sed's `e`)", async () => {
    const { g, published, saved } = gate();
    const first = g.decideCall(call("bash", { command: "sed -n 1p notes.txt" }, "s1"));
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(published[0][0].scope).toBe("sed -n 1p notes.txt");
    await g.answer("s1", "chat");
    expect(await first).toBeUndefined();
    expect(saved).toEqual(["bash=sed -n 1p notes.txt"]);
    expect(await g.decideCall(call("bash", { command: "sed -n 1p notes.txt" }, "s2"))).toBeUndefined();

    const hidden = g.decideCall(call("bash", { command: 'sed -n "1e touch PWNED" notes.txt' }, "s3"));
    await vi.waitFor(() => expect(g.pending().map((r) => r.toolCallId)).toEqual(["s3"]));
    expect(g.pending()[0].scope).toBe('sed -n "1e touch PWNED" notes.txt');
    await g.answer("s3", "deny");
    // The card of a call the user said no to says "denied" (its ending), not "failed".
    expect(await hidden).toMatchObject({ block: true, reason: "The user denied this call.", ending: "denied" });
  });

  it("an older transcript's prefix grant for a program that runs others allows nothing now", async () => {
    const { g } = gate(["bash:sed", "bash:npm test", "bash:ls"]);
    expect(await g.decideCall(call("bash", { command: "ls -la" }))).toBeUndefined();
    for (const [id, command] of [["a", 'sed -n "1e touch PWNED" f'], ["b", "npm test"]]) {
      void g.decideCall(call("bash", { command }, id));
      await vi.waitFor(() => expect(g.pending().map((r) => r.toolCallId)).toContain(id));
    }
    g.denyAll("done");
  });

  it("a change of a protected file asks every time, saying why, whatever Settings and grants say, and grants nothing", async () => {
    const judged: string[] = [];
    const protection = async (id: string, tool: string, args: unknown) => {
      judged.push(id);
      return tool === "write" && (args as { path: string }).path.startsWith(".git/hooks") ? ".git/hooks is protected: it runs outside the sandbox later (git hooks)" : undefined;
    };
    const { g, published } = gate(["tool:write"], { write: "allow" }, protection);
    expect(await g.decideCall(call("write", { path: "a.txt" }, "w0"))).toBeUndefined();
    const result = g.decideCall(call("write", { path: ".git/hooks/pre-commit" }, "w1"));
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(published[0][0].scope).toBeUndefined();
    expect(published[0][0].summary).toMatch(/pre-commit.* — \.git\/hooks is protected: it runs outside the sandbox later \(git hooks\)$/);
    await expect(g.answer("w1", "chat")).rejects.toThrow(/only be allowed once/);
    await g.answer("w1", "once");
    expect(await result).toBeUndefined();
    expect(judged).toEqual(["w0", "w1"]);
  });

  it("when finding out whether a call changes a protected file fails, it asks as for one", async () => {
    const { g, published } = gate([], { write: "allow" }, () => Promise.reject(new Error("broken")));
    void g.decideCall(call("write", { path: "a.txt" }));
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(published[0][0]).toMatchObject({ summary: expect.stringMatching(/could not be checked/) });
    expect(published[0][0].scope).toBeUndefined();
    g.denyAll("done");
  });

  it("'every-call' (a shell outside any sandbox) asks each time: earlier grants do not count and none can be made", async () => {
    const { g, published } = gate(["bash=npm test"], { bash: "every-call" });
    const result = g.decideCall(call("bash", { command: "npm test" }));
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(published[0][0].scope).toBeUndefined();
    await expect(g.answer("c1", "chat")).rejects.toThrow(/only be allowed once/);
    await g.answer("c1", "once");
    expect(await result).toBeUndefined();
  });

  it("asks, and 'chat' is refused for a call that only 'once' can cover", async () => {
    const { g, published } = gate();
    const result = g.decideCall(call("bash", { command: "make && make install" }));
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(published[0][0]).toMatchObject({ toolCallId: "c1", toolName: "bash" });
    expect(published[0][0].scope).toBeUndefined();
    await expect(g.answer("c1", "chat")).rejects.toThrow(/only be allowed once/);
    await g.answer("c1", "once");
    expect(await result).toBeUndefined();
    expect(published.at(-1)).toEqual([]);
  });

  it("offers no chat-wide grant for a command that hides a newline or a right-to-left override; only once", async () => {
    const { g, published, saved } = gate();
    const newline = g.decideCall(call("bash", { command: "echo Tests passed, cleaning up:\nrm -rf src" }, "c1"));
    const bidi = g.decideCall(call("bash", { command: "cat notes\u202egnp.exe" }, "c2"));
    await vi.waitFor(() => expect(g.pending()).toHaveLength(2));
    for (const request of g.pending()) expect(request.scope, request.toolCallId).toBeUndefined();
    await expect(g.answer("c1", "chat")).rejects.toThrow(/only be allowed once/);
    await expect(g.answer("c2", "chat")).rejects.toThrow(/only be allowed once/);
    expect(saved).toEqual([]);
    await g.answer("c1", "deny");
    await g.answer("c2", "deny");
    expect(await newline).toMatchObject({ block: true });
    expect(await bidi).toMatchObject({ block: true });
    expect(published.at(-1)).toEqual([]);
  });

  it("a stopped run answers its questions as denied", async () => {
    const { g } = gate();
    const stop = new AbortController();
    const result = g.decideCall(call("write", { path: "x" }), stop.signal);
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    stop.abort();
    // Its card says "stopped", not "denied" or "failed".
    expect(await result).toEqual({ block: true, reason: "The run was stopped before the user answered.", ending: "stopped" });
    expect(g.pending()).toEqual([]);
  });

  it("times out only while nobody views the chat", async () => {
    vi.useFakeTimers();
    try {
      const { g } = gate();
      g.setViewers(1);
      const result = g.decideCall(call("edit", { path: "x" }));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(g.pending()).toHaveLength(1);
      g.setViewers(0);
      await vi.advanceTimersByTimeAsync(999);
      expect(g.pending()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toEqual({ block: true, reason: expect.stringMatching(/^Nobody answered within 1 second /), ending: "denied" });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("parked questions (a run nobody watches)", () => {
  /** What the Agent gets back for a call: a decision now, or a parked one to wait for. */
  const parkedOf = async (result: ReturnType<ApprovalGate["decideCall"]>) => {
    const got = await result;
    expect(got).toEqual({ parked: expect.any(Promise) });
    if (!got || !("parked" in got)) throw new Error("not parked");
    return [got.parked] as const; // in an array: returned bare, an async function would wait for it
  };

  it("with no window on the chat the call is parked at once, shown as parked, and runs when answered in time", async () => {
    const { g } = gate();
    g.setViewers(0);
    const [parked] = await parkedOf(g.decideCall(call("edit", { path: "x" })));
    expect(g.pending()).toEqual([expect.objectContaining({ toolCallId: "c1", parked: true })]);
    await g.answer("c1", "once");
    expect(await parked).toBeUndefined();
    expect(g.pending()).toEqual([]);
  });

  it("an unattended run parks even with a window open; a watched chat outside one asks as before", async () => {
    const { g } = gate();
    g.setUnattended(true);
    const [parked] = await parkedOf(g.decideCall(call("edit", { path: "x" }, "u1")));
    await g.answer("u1", "deny", "not now");
    expect(await parked).toMatchObject({ block: true, reason: "The user denied this call: not now" });
    g.setUnattended(false);
    const asked = g.decideCall(call("edit", { path: "y" }, "w1"));
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    expect(g.pending()[0]!.parked).toBeUndefined();
    await g.answer("w1", "once");
    expect(await asked).toBeUndefined(); // the decision itself, not a parked one
  });

  it("with no answer before the run ends (stopped, a budget reached) it is denied with that reason", async () => {
    const { g } = gate();
    g.setUnattended(true);
    const run = new AbortController();
    const [parked] = await parkedOf(g.decideCall(call("bash", { command: "rm -rf build" }), run.signal));
    run.abort();
    expect(await parked).toEqual({ block: true, reason: RUN_ENDED, ending: "denied" });
    expect(RUN_ENDED).toMatch(/^Denied: no answer before the run ended/);
    expect(g.pending()).toEqual([]);
  });

  it("the worker closing denies a parked call as the run's end; a question asked while watched keeps its own reason", async () => {
    const { g } = gate();
    const watched = g.decideCall(call("edit", { path: "a" }, "w"));
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    g.setViewers(0);
    const [parked] = await parkedOf(g.decideCall(call("edit", { path: "b" }, "p")));
    g.denyAll("The chat was closed.");
    expect(await parked).toMatchObject({ block: true, reason: RUN_ENDED });
    expect(await watched).toMatchObject({ block: true, reason: "The chat was closed." });
  });

  it("an unattended run's timeout runs even while a window shows the chat, and says why", async () => {
    vi.useFakeTimers();
    try {
      const { g } = gate();
      g.setUnattended(true);
      const [parked] = await parkedOf(g.decideCall(call("edit", { path: "x" })));
      await vi.advanceTimersByTimeAsync(999);
      expect(g.pending()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await parked).toEqual({ block: true, reason: expect.stringMatching(/^Nobody answered within 1 second \(the run is unattended\)/), ending: "denied" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("questions that are not the Agent's own calls (a subagent's, the network's) are never parked: their asker waits", async () => {
    const { g } = gate();
    g.setViewers(0);
    const result = g.ask({ id: "n1", toolName: "network", args: { host: "example.com", port: 443 }, described: { summary: "curl → example.com" }, network: true });
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    expect(g.pending()[0]!.parked).toBeUndefined();
    await g.answer("n1", "once");
    expect(await result).toBeUndefined();
  });
});
