/**
 * Main's side of the control channel checks what a worker asks of it (MAIN_CONTROL_SCHEMAS, in WorkerHandle) the
 * way a session's worker checks its session channel: a worker-side fake sends malformed calls (wrong types, extra
 * fields, an unknown method, a property read) and each is refused in words, while main's callbacks never run.
 */
import * as Comlink from "comlink";
import { afterEach, describe, expect, it } from "vitest";
import type { MainControlApi, WorkerStatus } from "../../../../src/shared/protocol/control-protocol";
import { WorkerHandle } from "../../../../src/main/broker/worker-handle";
import type { WorkerExit, WorkerProcess } from "../../../../src/main/broker/worker-process";
import { rpcEndpoint } from "../../../../src/shared/transport/comlink-endpoint";
import { BaseTransport } from "../../../../src/shared/transport/transport";

/** One end of an in-memory channel; messages arrive on the other end a microtask later, as a copy. */
class MemoryEnd extends BaseTransport {
  peer: MemoryEnd | undefined;
  protected deliver(message: unknown): void {
    const copy = structuredClone(message);
    queueMicrotask(() => this.peer?.receive(copy));
  }
  protected closeUnderlying(): void {}
  override receive(message: unknown): void {
    super.receive(message);
  }
}

const handles: WorkerHandle[] = [];
afterEach(() => handles.splice(0).forEach((h) => h.process.kill()));

/** A WorkerHandle over a fake process, main's callbacks recording their calls, and the worker's view of main. */
function connected() {
  const mainEnd = new MemoryEnd();
  const workerEnd = new MemoryEnd();
  mainEnd.peer = workerEnd;
  workerEnd.peer = mainEnd;
  let exit: (e: WorkerExit) => void = () => {};
  const process: WorkerProcess = {
    pid: 1,
    control: mainEnd,
    exited: new Promise((resolve) => (exit = resolve)),
    kill: () => exit({ code: null, signal: "SIGKILL" } as WorkerExit),
    transferPort: () => {},
  };
  const calls: string[] = [];
  const record =
    (name: string, result?: unknown) =>
    async (..._args: unknown[]) => {
      calls.push(name);
      return result;
    };
  const callbacks = {
    getApiKey: record("getApiKey", "sk-test"),
    resolveModel: record("resolveModel"),
    report: (() => void calls.push("report")) as MainControlApi["report"],
    listAgents: record("listAgents", { agents: [], problems: [] }),
    confirmProjectAgents: record("confirmProjectAgents"),
    runSubagent: record("runSubagent"),
    stopSubagent: record("stopSubagent"),
    askParent: record("askParent", { block: false }),
    mcpTools: record("mcpTools", []),
    mcpCall: record("mcpCall"),
    mcpCancel: record("mcpCancel"),
    listSkills: record("listSkills"),
    getProviderConfig: record("getProviderConfig"),
  } as unknown as MainControlApi;
  handles.push(new WorkerHandle(process, callbacks));
  // The fake worker calls untyped, as a compromised worker could.
  const main = Comlink.wrap<Record<string, (...args: unknown[]) => Promise<unknown>>>(rpcEndpoint(workerEnd, { lane: "w2c" }));
  return { main, calls, workerEnd };
}

const status: WorkerStatus = { sessionId: "s1", running: false, messageCount: 2, updated: 1, title: "Hi", model: { provider: "openai", id: "gpt" } };

describe("the control channel's frame guard (main's side)", () => {
  it("lets well-formed calls through to main", async () => {
    const { main, calls } = connected();
    await expect(main.getApiKey!("openai")).resolves.toBe("sk-test");
    await main.report!(status);
    // A usage total may be NaN (a message without its usage field): such a status went through before, and still does.
    await main.report!({ ...status, waiting: undefined, sandbox: { available: false, reason: "no bwrap ".repeat(200) }, subagent: { usage: { input: 1, output: NaN, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 1 } } });
    await main.askParent!({ toolCallId: "t1", toolName: "bash", args: { command: "ls" }, summary: "ls" });
    await main.mcpCall!({ callId: "c1", serverId: "everything", tool: "echo", arguments: { message: "hi" } });
    expect(calls).toEqual(["getApiKey", "report", "report", "askParent", "mcpCall"]);
  });

  it("refuses wrong types, extra fields and unknown methods in words, and runs nothing", async () => {
    const { main, calls } = connected();
    await expect(main.getApiKey!(42)).rejects.toThrow(/^getApiKey: invalid arguments at \/0: /);
    await expect(main.getApiKey!()).rejects.toThrow(/^getApiKey: invalid arguments/);
    await expect(main.getApiKey!("openai", "extra")).rejects.toThrow(/^getApiKey: invalid arguments/);
    await expect(main.report!({ ...status, running: "yes" })).rejects.toThrow(/^report: invalid arguments at \/0\/running: /);
    await expect(main.report!({ ...status, admin: true })).rejects.toThrow(/^report: invalid arguments/);
    await expect(main.report!({ ...status, sandbox: { available: true, kind: "none" } })).rejects.toThrow(/^report: invalid arguments at \/0\/sandbox/);
    await expect(main.listAgents!("everyone")).rejects.toThrow(/^listAgents: invalid arguments at \/0/);
    await expect(
      main.runSubagent!({ requestId: "r1", toolCallId: "t1", agent: "scout", task: "look", scope: "user", workspace: "/" }),
    ).rejects.toThrow(/^runSubagent: invalid arguments/);
    // A task's place in its call: a whole number from 0, always said.
    for (const index of [undefined, -1, 0.5, "1"]) {
      await expect(main.runSubagent!({ requestId: "r1", toolCallId: "t1", agent: "scout", task: "look", scope: "user", ...(index === undefined ? {} : { index }) })).rejects.toThrow(
        /^runSubagent: invalid arguments/,
      );
    }
    await expect(main.mcpCall!({ callId: "c1", serverId: "everything", tool: "echo", arguments: "rm -rf" })).rejects.toThrow(/^mcpCall: invalid arguments at \/0\/arguments/);
    await expect(main.shutdownMain!()).rejects.toThrow("Unknown method: shutdownMain");
    await expect(main.constructor!()).rejects.toThrow("Unknown method: constructor");
    expect(calls).toEqual([]);
  });

  it("takes a subagent task's cwd with the agents asked for, a text or nothing", async () => {
    const { main, calls } = connected();
    await main.listAgents!("project");
    await main.listAgents!("both", "pkg/src");
    await main.confirmProjectAgents!(["local"], "pkg/src");
    await expect(main.listAgents!("both", 42)).rejects.toThrow(/^listAgents: invalid arguments/);
    await expect(main.confirmProjectAgents!(["local"], "pkg", "extra")).rejects.toThrow(/^confirmProjectAgents: invalid arguments/);
    expect(calls).toEqual(["listAgents", "listAgents", "confirmProjectAgents"]);
  });

  it("refuses what is not a plain method call, and drops a message with no id", async () => {
    const { main, calls, workerEnd } = connected();
    const remote = main as unknown as { report: Promise<unknown> };
    const read = new Promise((resolve, reject) => void remote.report.then(resolve, reject));
    await expect(read).rejects.toThrow(/^Only method calls are allowed \(got GET\)/);
    workerEnd.send({ ch: "w2c", m: { type: "APPLY", path: ["report"], argumentList: [{ type: "RAW", value: status }] } });
    workerEnd.send({ ch: "w2c", m: "report" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(main.getApiKey!("openai")).resolves.toBe("sk-test");
    expect(calls).toEqual(["getApiKey"]);
  });
});
