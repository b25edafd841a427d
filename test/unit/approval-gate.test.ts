import { describe, expect, it, vi } from "vitest";
import { ApprovalGate, commandPrefix, grantFor, type GatePolicy } from "../../src/agent-worker/host/approval-gate";
import type { ApprovalRequest } from "../../src/shared/protocol/session-protocol";
import type { BeforeToolCallContext } from "../../src/shared/agent/types";

const call = (name: string, args: unknown, id = "c1") => ({ toolCall: { type: "toolCall", id, name, arguments: args }, args }) as unknown as BeforeToolCallContext;

function gate(grants: string[] = [], policy: Record<string, GatePolicy> = {}) {
  const published: ApprovalRequest[][] = [];
  const saved: string[] = [];
  const g = new ApprovalGate(
    {
      policy: (tool) => policy[tool] ?? "ask",
      describe: async (tool, args) => ({ summary: `${tool} ${JSON.stringify(args)}` }),
      changed: (pending) => published.push(pending),
      saveGrant: async (grant) => void saved.push(grant),
      timeoutMs: () => 1_000,
    },
    grants,
  );
  return { g, published, saved };
}

describe("what 'allow for this chat' covers", () => {
  it("a simple command by its name, and by its sub-command for tools that have them", () => {
    expect(commandPrefix("ls -la src")).toBe("ls");
    expect(commandPrefix("npm test -- --watch")).toBe("npm test");
    expect(commandPrefix("git status")).toBe("git status");
    expect(commandPrefix("git -C x status")).toBe("git");
    expect(grantFor("bash", { command: "  cargo build --release " })).toBe("bash:cargo build");
    expect(grantFor("edit", { path: "a" })).toBe("tool:edit");
  });

  it("nothing for a command that chains, pipes, substitutes or redirects: its first word says too little", () => {
    for (const command of ["npm test && rm -rf /", "ls | sh", "echo $(id)", "cat `x`", "ls > out", "a; b", "ls\nrm x", ""]) {
      expect(commandPrefix(command)).toBeUndefined();
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
    expect(grantFor("bash", { command: "  npm test\n" })).toBe("bash:npm test");
    expect(grantFor("bash", { command: "ls\tsrc" })).toBe("bash:ls");
  });
});

describe("the approval gate", () => {
  it("lets allowed tools and granted calls through without asking", async () => {
    const { g, published } = gate(["bash:npm test"], { read: "allow" });
    expect(await g.beforeToolCall(call("read", { path: "a" }))).toBeUndefined();
    expect(await g.beforeToolCall(call("bash", { command: "npm test -- -t x" }))).toBeUndefined();
    expect(published).toEqual([]);
  });

  it("'every-call' (a shell outside any sandbox) asks each time: earlier grants do not count and none can be made", async () => {
    const { g, published } = gate(["bash:npm test"], { bash: "every-call" });
    const result = g.beforeToolCall(call("bash", { command: "npm test" }));
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(published[0][0].scope).toBeUndefined();
    await expect(g.answer("c1", "chat")).rejects.toThrow(/only be allowed once/);
    await g.answer("c1", "once");
    expect(await result).toBeUndefined();
  });

  it("asks, and 'chat' is refused for a call that only 'once' can cover", async () => {
    const { g, published } = gate();
    const result = g.beforeToolCall(call("bash", { command: "make && make install" }));
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
    const newline = g.beforeToolCall(call("bash", { command: "echo Tests passed, cleaning up:\nrm -rf src" }, "c1"));
    const bidi = g.beforeToolCall(call("bash", { command: "cat notes\u202egnp.exe" }, "c2"));
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
    const result = g.beforeToolCall(call("write", { path: "x" }), stop.signal);
    await vi.waitFor(() => expect(g.pending()).toHaveLength(1));
    stop.abort();
    expect(await result).toEqual({ block: true, reason: "The run was stopped before the user answered." });
    expect(g.pending()).toEqual([]);
  });

  it("times out only while nobody views the chat", async () => {
    vi.useFakeTimers();
    try {
      const { g } = gate();
      g.setViewers(1);
      const result = g.beforeToolCall(call("edit", { path: "x" }));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(g.pending()).toHaveLength(1);
      g.setViewers(0);
      await vi.advanceTimersByTimeAsync(999);
      expect(g.pending()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toEqual({ block: true, reason: expect.stringMatching(/^Nobody answered within 1 second /) });
    } finally {
      vi.useRealTimers();
    }
  });
});
