/**
 * Main's relay of one worker's MCP calls (main/mcp/worker-mcp-calls.ts): a worker runs tools, so what it asks is
 * checked; progress goes back under the worker's own call id; cancelling, and the worker's end, abort its calls.
 */
import { describe, expect, it } from "vitest";
import { WorkerMcpCalls, type McpGateway } from "../../../../src/main/mcp/worker-mcp-calls";
import type { McpCallProgress } from "../../../../src/shared/protocol/mcp-host-protocol";

function relay() {
  const signals: AbortSignal[] = [];
  const progress: McpCallProgress[] = [];
  const gateway: McpGateway = {
    status: () => [
      { id: "everything", state: "ready", tools: [], stderrTail: "", restarts: 0 },
      { id: "crashed", state: "restarting", tools: [], stderrTail: "", restarts: 1 },
      { id: "off", state: "disabled", tools: [], stderrTail: "", restarts: 0 },
    ],
    currentTools: () => [{ serverId: "everything", name: "echo" } as never],
    call: (_call, options) =>
      new Promise((resolve, reject) => {
        signals.push(options.signal!);
        options.onProgress?.({ progress: 1, total: 2 });
        options.signal?.addEventListener("abort", () => reject(new Error("The call was cancelled.")));
        setTimeout(() => resolve({ isError: false, content: [{ type: "text", text: "ok" }] }), 20);
      }),
  };
  return { calls: new WorkerMcpCalls(gateway, (p) => progress.push(p)), signals, progress };
}

const echo = (callId: string, extra: object = {}) => ({ callId, serverId: "everything", tool: "echo", arguments: { message: "hi" }, ...extra });

describe("a worker's MCP calls, as main relays them", () => {
  it("runs a call of a tool on offer, with progress under the worker's call id", async () => {
    const r = relay();
    await expect(r.calls.call(echo("w1"))).resolves.toMatchObject({ content: [{ text: "ok" }] });
    expect(r.progress).toEqual([{ callId: "w1", progress: 1, total: 2 }]);
  });

  it("refuses a ready server's tool that is not on offer, a disabled or unknown server, bad arguments, and an id already running", async () => {
    const r = relay();
    await expect(r.calls.call(echo("w1", { tool: "rm-rf" }))).rejects.toThrow(/is not available/);
    await expect(r.calls.call(echo("w2", { serverId: "off" }))).rejects.toThrow(/is not available/);
    await expect(r.calls.call(echo("w2", { serverId: "other" }))).rejects.toThrow(/is not available/);
    await expect(r.calls.call(echo("w3", { arguments: [1] }))).rejects.toThrow("arguments must be an object");
    await expect(r.calls.call(echo(""))).rejects.toThrow("invalid call id");
    const first = r.calls.call(echo("dup"));
    await expect(r.calls.call(echo("dup"))).rejects.toThrow(/already running/);
    await first;
  });

  it("passes a call for a server that is restarting on, so the caller hears why from the host", async () => {
    const r = relay();
    await expect(r.calls.call(echo("w1", { serverId: "crashed" }))).resolves.toBeDefined();
  });

  it("cancels one call, or all of them when the worker is gone", async () => {
    const r = relay();
    const one = r.calls.call(echo("a"));
    const two = r.calls.call(echo("b"));
    r.calls.cancel("a");
    await expect(one).rejects.toThrow("cancelled");
    r.calls.cancelAll();
    await expect(two).rejects.toThrow("cancelled");
    expect(r.signals.every((s) => s.aborted)).toBe(true);
  });
});
