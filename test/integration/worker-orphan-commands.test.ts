/**
 * A worker whose parent is gone ends the commands it is running, each with its whole tree, before it exits: they
 * run detached (their own process group) and would otherwise outlive it. This is the lifeline's path (worker-main.ts,
 * exitAsOrphan): on Windows the one that ends orphans of a dead main, under Node the one for a dead web host. Here a
 * real worker runs `bash` without a sandbox (the worst case: no PID namespace to die with), its command leaving a
 * background grandchild, and main's end of its channel is closed; neither `sleep` may survive.
 */
import { afterEach, describe, expect, it } from "vitest";
import { turnDirective } from "../../src/web-host/openai-test-server";
import { waitForView } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { isAlive, processesRunning } from "../../testkit/processes";

const harnesses = harnessPerTest();
const folders = harnesses.folders;

const savedNoSandbox = process.env.PADDOCK_NO_SANDBOX;

afterEach(async () => {
  if (savedNoSandbox === undefined) delete process.env.PADDOCK_NO_SANDBOX;
  else process.env.PADDOCK_NO_SANDBOX = savedNoSandbox;
});

describe.skipIf(process.platform !== "linux")("a worker whose parent's channel drops", () => {
  it("ends its running command's tree, a background grandchild included, and exits", async () => {
    process.env.PADDOCK_NO_SANDBOX = "1"; // the workers started from now on run commands without a sandbox
    const root = folders.make();
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { bash: "allow" } } });
    const client = await h.client("orphan-commands");
    await waitForView(client, (v) => v.workspace?.sandboxChecking !== true);
    const background = `sleep 41.${process.pid}`;
    const foreground = `sleep 42.${process.pid}`;
    void client.prompt(turnDirective({ toolCalls: [{ id: "c1", name: "bash", arguments: { command: `${background} & ${foreground}; wait` } }] })).catch(() => {});
    await waitForView(client, (v) => v.approvals.length > 0);
    await client.answerApproval("c1", "once");
    await expect.poll(() => processesRunning(background).length + processesRunning(foreground).length, { timeout: 10_000, interval: 50 }).toBe(2);

    const worker = (await h.broker.attach("orphan-commands", "probe")).worker;
    const pid = worker.pid!;
    // Main's end of the channel goes, as when main dies: the worker hears the disconnect (under Electron on Windows,
    // the lifeline's close) and runs its orphan exit.
    worker.process.control.close();

    await expect.poll(() => isAlive(pid), { timeout: 3_000, interval: 50 }).toBe(false);
    await expect.poll(() => [...processesRunning(background), ...processesRunning(foreground)], { timeout: 1_000, interval: 50 }).toEqual([]);
  }, 30_000);
});
