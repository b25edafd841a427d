/**
 * When a process that died is started again, on a clock the test moves: the MCP host's backoff (doubling to a
 * cap, forever) and a worker's crash loop (at once, then the backoff, then giving up; a worker that had lived a
 * while starts the count afresh; Retry too).
 */
import { describe, expect, it } from "vitest";
import { CrashLoopGuard, QUICK_CRASH_MS, RESTART_BACKOFF, RestartBackoff, WORKER_CRASH_LIMIT } from "../../../../src/main/broker/restart-backoff";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("RestartBackoff", () => {
  it("waits 1 s, doubling, at most 30 s, and from 1 s again after a reset", () => {
    const backoff = new RestartBackoff();
    expect(Array.from({ length: 8 }, () => backoff.failed())).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoff.failures).toBe(8);
    backoff.reset();
    expect(backoff.failed()).toBe(RESTART_BACKOFF.firstMs);
  });
});

describe("CrashLoopGuard", () => {
  it("restarts the first quick crash at once, the next ones after 1, 2, 4, 8 s, and gives up on the sixth", () => {
    const time = clock();
    const guard = new CrashLoopGuard({ now: time.now });
    const waits: unknown[] = [];
    for (let crash = 1; crash <= WORKER_CRASH_LIMIT + 1; crash++) {
      const startedAt = time.now();
      time.advance(300); // dies 0.3 s after it started
      const decision = guard.crashed(startedAt);
      waits.push(decision.action === "restart" ? decision.afterMs : decision);
      if (decision.action === "restart") {
        expect(guard.waitMs()).toBe(decision.afterMs);
        time.advance(decision.afterMs / 2);
        expect(guard.waitMs()).toBe(decision.afterMs / 2); // the next start waits out the rest
        time.advance(decision.afterMs / 2);
        expect(guard.waitMs()).toBe(0);
      }
    }
    expect(waits).toEqual([0, 1_000, 2_000, 4_000, 8_000, { action: "give-up", crashes: 6 }]);
  });

  it("a worker that lived QUICK_CRASH_MS or longer before it crashed starts the count afresh", () => {
    const time = clock();
    const guard = new CrashLoopGuard({ now: time.now, limit: 2 });
    expect(guard.crashed(time.now())).toEqual({ action: "restart", afterMs: 0 });
    expect(guard.crashed(time.now())).toEqual({ action: "restart", afterMs: 1_000 });
    const startedAt = time.now();
    time.advance(QUICK_CRASH_MS);
    expect(guard.crashed(startedAt)).toEqual({ action: "restart", afterMs: 0 });
    expect(guard.crashed(time.now())).toEqual({ action: "restart", afterMs: 1_000 });
    expect(guard.crashed(time.now())).toEqual({ action: "give-up", crashes: 3 });
  });

  it("Retry (reset) starts again from a first crash, restarted at once, with nothing to wait for", () => {
    const time = clock();
    const guard = new CrashLoopGuard({ now: time.now, limit: 1, schedule: { firstMs: 50, maxMs: 100 } });
    guard.crashed(time.now());
    expect(guard.crashed(time.now())).toEqual({ action: "give-up", crashes: 2 });
    guard.reset();
    expect(guard.waitMs()).toBe(0);
    expect(guard.crashed(time.now())).toEqual({ action: "restart", afterMs: 0 });
  });
});
