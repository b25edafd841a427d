import { afterEach, describe, expect, it } from "vitest";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import { WorkerPool } from "../../src/main/broker/worker-pool";
import type { MainControlApi } from "../../src/shared/protocol/control-protocol";
import { WORKER_FILE } from "../../testkit/worker-harness";

/** A pool of real worker processes whose launches are counted, with the "subagent tasks are running" flag in hand. */
function countingPool() {
  const real = new NodeWorkerLauncher(WORKER_FILE);
  const state = { launched: 0, busy: false };
  const pool = new WorkerPool(
    { launch: () => (state.launched++, real.launch()) },
    () => ({}) as MainControlApi,
    true,
    { wanted: () => 1, warmUp: () => ({}), busy: () => state.busy },
  );
  return { pool, state };
}

let disposeLater: WorkerPool | undefined;
afterEach(async () => {
  await disposeLater?.dispose();
  disposeLater = undefined;
});

describe("the worker pool's subagent spares", () => {
  it("holds back a remembered call's extra spares while subagent tasks run, and starts them once they are done", async () => {
    const { pool, state } = countingPool();
    disposeLater = pool;
    pool.refill();
    expect(state.launched).toBe(2); // a chat's spare and one subagent spare

    // A call of 8 tasks starts while tasks run: only its first wave (4) is warmed now.
    state.busy = true;
    pool.prewarm(4, true, 8);
    expect(state.launched).toBe(1 + 4);
    pool.refill();
    expect(state.launched).toBe(1 + 4);

    // Its tasks are done: the pool keeps as many spares as the call had tasks, for the next call.
    state.busy = false;
    pool.refill();
    expect(state.launched).toBe(1 + 8);
  });

  it("hands the remembered spares out warm, and a call wider than 8 is remembered as 8", async () => {
    const { pool, state } = countingPool();
    disposeLater = pool;
    pool.prewarm(4, true, 12);
    state.busy = false;
    pool.refill();
    expect(state.launched).toBe(1 + 8);
    const workers = await Promise.all(Array.from({ length: 8 }, () => pool.take("subagent")));
    expect(state.launched).toBe(1 + 8); // every one came from a spare, none was started on demand
    expect(workers.every((w) => w.alive)).toBe(true);
    await Promise.all(workers.map((w) => w.stop(500)));
  });
});
