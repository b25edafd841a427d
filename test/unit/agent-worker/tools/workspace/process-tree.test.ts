/**
 * Ending commands' trees when the worker goes: which commands (those still running), and how (a process-group kill
 * on POSIX; on Windows taskkill /T /F, waited for, since the worker exits right after and the lifeline's path there
 * is what ends orphans). Windows cannot run here: `process.platform` and `spawn` are stood in for.
 */
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";

const spawned: { command: string; args: string[]; child: EventEmitter }[] = [];
vi.mock("node:child_process", () => ({
  spawn: (command: string, args: string[]) => {
    const child = new EventEmitter();
    spawned.push({ command, args, child });
    return child;
  },
}));

const { endRunningCommands, killProcessTree, trackCommand } = await import("../../../../../src/agent-worker/tools/workspace/process-tree");

const realPlatform = process.platform;
const onPlatform = (platform: NodeJS.Platform) => Object.defineProperty(process, "platform", { value: platform, configurable: true });

afterEach(() => {
  onPlatform(realPlatform);
  spawned.length = 0;
  vi.restoreAllMocks();
});

describe("endRunningCommands", () => {
  it("on POSIX kills the process group of each command still running, not of one that finished", async () => {
    onPlatform("linux");
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    trackCommand(101);
    const finished = trackCommand(102);
    trackCommand(103);
    finished();
    await endRunningCommands();
    expect(kill.mock.calls).toEqual([
      [-101, "SIGKILL"],
      [-103, "SIGKILL"],
    ]);
    kill.mockClear();
    await endRunningCommands(); // each is ended once
    expect(kill).not.toHaveBeenCalled();
  });

  it("on Windows runs taskkill /T /F for each tree and resolves only when every taskkill has exited", async () => {
    onPlatform("win32");
    trackCommand(201);
    trackCommand(202);
    let done = false;
    const ending = endRunningCommands().then(() => (done = true));
    expect(spawned.map((s) => [s.command, ...s.args])).toEqual([
      ["taskkill", "/T", "/F", "/PID", "201"],
      ["taskkill", "/T", "/F", "/PID", "202"],
    ]);
    spawned[0].child.emit("exit", 0);
    await Promise.resolve();
    expect(done).toBe(false);
    spawned[1].child.emit("error", new Error("taskkill missing")); // a taskkill that cannot start does not hang the exit
    await ending;
    expect(done).toBe(true);
  });

  it("a group that is already gone is no error", async () => {
    onPlatform("linux");
    vi.spyOn(process, "kill").mockImplementation(() => {
      throw Object.assign(new Error("ESRCH"), { code: "ESRCH" });
    });
    await expect(killProcessTree(301)).resolves.toBeUndefined();
  });
});
