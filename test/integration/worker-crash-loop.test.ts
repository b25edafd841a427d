/**
 * A worker that keeps crashing right after it starts is not started again forever: real processes, the real broker.
 * The first crash is restarted at once, the next ones after a (here shortened) backoff, and after the limit the
 * chat's attaches are refused with the worker's last stderr lines, launching nothing, until Retry. Both ways a
 * worker can crash right after start: before it takes its session (an entry that exits at once, a broken install),
 * and just after (killed as it comes up, with a page viewing the chat, whose view says so and offers Retry).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import type { WorkerLauncher } from "../../src/main/broker/worker-process";
import type { BrokerEvent } from "../../src/main/broker/session-broker";
import { WORKER_KEEPS_CRASHING } from "../../src/shared/protocol/worker-failure";
import { waitForView } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";

const harnesses = harnessPerTest("paddock-crash-loop-");
const folders = harnesses.folders;

/** A launcher that counts its launches, and notes when each was launched and when each process was seen to exit. */
function counting(launcher: WorkerLauncher): WorkerLauncher & { launches: number; launchedAt: number[]; exitedAt: number[] } {
  const counted = {
    launches: 0,
    launchedAt: [] as number[],
    exitedAt: [] as number[],
    launch: (env?: NodeJS.ProcessEnv) => {
      counted.launches++;
      counted.launchedAt.push(Date.now());
      const child = launcher.launch(env);
      void child.exited.then(() => counted.exitedAt.push(Date.now()));
      return child;
    },
  };
  return counted;
}

const crashLoop = { limit: 2, schedule: { firstMs: 100, maxMs: 200 } };

describe("a worker that exits as it starts", () => {
  it("is started at once, then after the backoff, then not at all: the attach names the crashes and its stderr, until Retry", async () => {
    const entry = join(folders.make(), "crashing-worker.mjs");
    writeFileSync(entry, `process.stderr.write("loading the worker\\nError: the native module could not load (test)\\n"); process.exit(3);\n`);
    const launcher = counting(new NodeWorkerLauncher(entry));
    const h = await harnesses.start({ launcher, crashLoop });
    const failed: BrokerEvent[] = [];
    h.broker.onEvent((e) => e.type === "worker-failed" && failed.push(e));

    const attempt = async () => {
      const at = Date.now();
      const error = await h.broker.attach("crashing", "window-1").then(() => undefined, (e: Error) => e);
      return { message: error?.message ?? "(attached)", tookMs: Date.now() - at };
    };
    const first = await attempt();
    expect(first.message).not.toContain(WORKER_KEEPS_CRASHING); // a first crash: the next attach starts one again
    const second = await attempt();
    expect(second.message).not.toContain(WORKER_KEEPS_CRASHING);
    const third = await attempt();
    // The first crash was restarted at once; the second waited out the backoff (100 ms) before the third launch.
    // Measured from the crash, not from an attach: on a loaded machine an attach may come well after the crash.
    expect(launcher.launchedAt[2]! - launcher.exitedAt[1]!).toBeGreaterThanOrEqual(90);
    expect(third.message).toContain(`${WORKER_KEEPS_CRASHING} (3 times in a row; the last time the process exited with code 3)`);
    expect(third.message).toContain("Error: the native module could not load (test)");
    expect(failed).toHaveLength(1);

    // Given up: the next attaches are refused at once, and nothing is launched.
    const launches = h.broker ? launcher.launches : 0;
    const fourth = await attempt();
    expect(fourth.message).toBe(third.message);
    expect(launcher.launches).toBe(launches);

    // Retry: a worker is started again.
    h.broker.retry("crashing");
    const afterRetry = await attempt();
    expect(launcher.launches).toBeGreaterThan(launches);
    expect(afterRetry.message).not.toContain(WORKER_KEEPS_CRASHING);
  }, 30_000);
});

describe("a worker that crashes right after it took its chat", () => {
  it("the page's view turns to 'failed' with the reason, and its Retry brings a working worker back", async () => {
    const h = await harnesses.start({ crashLoop });
    const harness = h;
    const client = await harness.client("crash-after", "window-1", { retryWorker: async () => harness.broker.retry("crash-after") });
    // Each worker that takes the chat is killed as soon as it has: limit + 1 quick crashes in a row.
    let kills = 0;
    const gaveUp = new Promise<void>((resolve) => harness.broker.onEvent((e) => e.type === "worker-failed" && resolve()));
    const killNext = async () => {
      const pid = (await harness.broker.attach("crash-after", "probe")).worker.pid!;
      harness.broker.detach("crash-after", "probe");
      kills++;
      process.kill(pid, "SIGKILL");
    };
    await killNext();
    const restarted = () => new Promise<void>((resolve) => harness.broker.onEvent((e) => e.type === "worker-restarted" && resolve()));
    for (let i = 0; i < crashLoop.limit; i++) {
      await restarted();
      await killNext();
    }
    await gaveUp;
    expect(kills).toBe(crashLoop.limit + 1);

    await waitForView(client, (v) => v.connection === "failed");
    expect(client.mirror.getView().failure).toMatch(new RegExp(`^${WORKER_KEEPS_CRASHING} \\(3 times in a row; the last time the process was killed \\(SIGKILL\\)\\)`));

    await client.retryWorker();
    await waitForView(client, (v) => v.connection === "ready", 15_000);
    expect(client.mirror.getView().failure).toBeUndefined();
    harness.server.enqueue({ text: "back again" });
    await client.prompt("are you there?");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 2);
  }, 60_000);
});
