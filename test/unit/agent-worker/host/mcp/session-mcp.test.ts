/**
 * A session's MCP tools (agent-worker/host/mcp/session-mcp.ts): which of the tools main offers a chat or a subagent gets,
 * what the approval gate is told about them, and how a call travels (progress routed back, Stop cancels).
 */
import { describe, expect, it, vi } from "vitest";
import { MAX_TOOLS_PER_REQUEST, mcpToolsLeftOutText, SessionMcp, withMcpTools, type SessionMcpOptions } from "../../../../../src/agent-worker/host/mcp/session-mcp";
import type { McpCallOutcome, McpToolDescriptor } from "../../../../../src/shared/protocol/mcp-host-protocol";
import type { WorkerMcpCall } from "../../../../../src/shared/protocol/control-protocol";

const tool = (serverId: string, name: string, extra: Partial<McpToolDescriptor> = {}): McpToolDescriptor => ({
  serverId,
  serverName: serverId.toUpperCase(),
  name,
  agentName: `${serverId}__${name}`,
  label: name,
  description: `${name} things`,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  readOnly: false,
  trusted: false,
  ...extra,
});

const OFFERED = [tool("github", "search", { readOnly: true, trusted: true }), tool("github", "create_issue", { trusted: true }), tool("db", "query", { readOnly: true })];

function session(extra: Partial<SessionMcpOptions> = {}, chosen?: string[]) {
  const calls: WorkerMcpCall[] = [];
  const cancelled: string[] = [];
  let answer: (outcome: McpCallOutcome) => void = () => {};
  const main: SessionMcpOptions["main"] = {
    mcpTools: async () => OFFERED,
    mcpCall: (call) => {
      calls.push(call);
      return new Promise((resolve) => (answer = resolve));
    },
    mcpCancel: async (callId) => void cancelled.push(callId),
  };
  const changed = vi.fn();
  const mcp = new SessionMcp({ main, chosenServers: () => chosen, changed, ...extra });
  return { mcp, calls, cancelled, changed, answer: (o: McpCallOutcome) => answer(o) };
}

const names = (mcp: SessionMcp) => mcp.agentTools().map((t) => t.name);

describe("which MCP tools a session gets", () => {
  it("a chat: every offered server's, or only those of the servers it chose", async () => {
    const all = session();
    await all.mcp.load();
    expect(names(all.mcp)).toEqual(["github__search", "github__create_issue", "db__query"]);
    expect(all.changed).toHaveBeenCalled();

    const some = session({}, ["db"]);
    await some.mcp.load();
    expect(names(some.mcp)).toEqual(["db__query"]);
    const none = session({}, []);
    await none.mcp.load();
    expect(names(none.mcp)).toEqual([]);
  });

  it("a subagent: only those its definition lists, by name or by `<server>__*`", async () => {
    const byServer = session({ subagentTools: ["read", "github__*"] });
    await byServer.mcp.load();
    expect(names(byServer.mcp)).toEqual(["github__search", "github__create_issue"]);
    const byName = session({ subagentTools: ["read", "db__query"] });
    await byName.mcp.load();
    expect(names(byName.mcp)).toEqual(["db__query"]);
    const unlisted = session({ subagentTools: ["read", "bash"] });
    await unlisted.mcp.load();
    expect(names(unlisted.mcp)).toEqual([]);
  });

  it("follows main's changes to the tools on offer", async () => {
    const { mcp, changed } = session();
    await mcp.load();
    changed.mockClear();
    mcp.offer([tool("db", "query")]);
    expect(names(mcp)).toEqual(["db__query"]);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it("without main's answer a session simply has none", async () => {
    const { mcp } = session({ main: { mcpTools: () => Promise.reject(new Error("gone")), mcpCall: vi.fn(), mcpCancel: vi.fn() } });
    await mcp.load();
    expect(names(mcp)).toEqual([]);
  });
});

describe("what the approval gate is told", () => {
  it("asks, except for a read-only tool of a trusted server; Settings' own word wins; other names are not MCP's", async () => {
    const { mcp } = session();
    await mcp.load();
    expect(mcp.policy("github__search", {})).toBe("allow"); // trusted and read-only
    expect(mcp.policy("github__create_issue", {})).toBe("ask"); // trusted, but it writes
    expect(mcp.policy("db__query", {})).toBe("ask"); // read-only, but the server is not trusted
    expect(mcp.policy("db__query", { db__query: "allow" })).toBe("allow");
    expect(mcp.policy("github__search", { github__search: "ask" })).toBe("ask");
    expect(mcp.policy("bash", {})).toBeUndefined();
    expect(mcp.describe("db__query", { q: "select 1" })).toEqual({ summary: 'DB: query q="select 1"' });
  });

  it("the question shows every argument the server will get: none hides behind a path or a long value", async () => {
    const { mcp } = session();
    await mcp.load();
    expect(mcp.describe("db__query", { path: "x", url: "https://evil" })?.summary).toBe('DB: query path="x" url="https://evil"');
    const padded = mcp.describe("db__query", { path: "x", note: "a".repeat(5000), url: "https://evil" })!.summary;
    expect(padded).toContain('url="https://evil"');
    expect(padded).toContain("(5002 characters)");
    const many = mcp.describe("db__query", Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, "v".repeat(150)])))!.summary;
    expect(many).toMatch(/… and \d+ more arguments \(k\d+, .*k39\)$/);
  });

  it("judges any offered server's tool, also one the chat does not use (a subagent's call asked in its parent)", async () => {
    const { mcp } = session({}, []);
    await mcp.load();
    expect(mcp.policy("github__search", {})).toBe("allow");
  });
});

describe("a call", () => {
  it("goes to main with the server's own tool name, streams its progress, and gives the result", async () => {
    const s = session();
    await s.mcp.load();
    const search = s.mcp.agentTools()[0];
    const updates: unknown[] = [];
    const running = search.execute("tc1", { q: "paddock" }, undefined, (u) => updates.push(u.content));
    await vi.waitFor(() => expect(s.calls).toHaveLength(1));
    expect(s.calls[0]).toMatchObject({ serverId: "github", tool: "search", arguments: { q: "paddock" } });
    s.mcp.onProgress({ callId: s.calls[0].callId, progress: 1, total: 2 });
    s.mcp.onProgress({ callId: "someone-else", progress: 9 });
    s.answer({ isError: false, content: [{ type: "text", text: "3 results" }] });
    expect((await running).content).toEqual([{ type: "text", text: "3 results" }]);
    expect(updates).toEqual([[{ type: "text", text: "Progress: 1 of 2" }]]);
  });

  it("Stop cancels it at main and fails it as stopped", async () => {
    const s = session();
    await s.mcp.load();
    const controller = new AbortController();
    const running = s.mcp.agentTools()[2].execute("tc2", { q: "x" }, controller.signal);
    await vi.waitFor(() => expect(s.calls).toHaveLength(1));
    controller.abort();
    expect(s.cancelled).toEqual([s.calls[0].callId]);
    // Main answers the cancelled call with a rejection; the tool says it was stopped.
    s.answer({ isError: false, content: [] });
    await expect(running).rejects.toThrow("The call was stopped.");
  });
});

describe("a chat's tools with many MCP tools", () => {
  it("keeps every own tool and as many MCP tools as one request takes, and says how many were left out", () => {
    const own = ["read", "bash", "subagent"];
    const mcp = Array.from({ length: 130 }, (_, i) => `github__tool_${i}`);
    const { tools, leftOut } = withMcpTools(own, mcp);
    expect(tools).toHaveLength(MAX_TOOLS_PER_REQUEST);
    expect(tools.slice(0, 3)).toEqual(own);
    expect(leftOut).toBe(5);
    expect(mcpToolsLeftOutText(leftOut)).toBe("5 MCP tools were left out: models take at most 128 tools a request. Choose fewer servers in this chat's settings.");
    expect(withMcpTools(own, mcp.slice(0, 10))).toEqual({ tools: [...own, ...mcp.slice(0, 10)], leftOut: 0 });
  });
});

