/** The page's mirror keeps the worker's retry wait (issue 25): from a snapshot, and as stream items start and end it. */
import { describe, expect, it } from "vitest";
import { SessionMirror } from "../../../../src/renderer/store/session-mirror";
import { createAgentStateData } from "../../../../src/shared/agent/state";
import type { SessionSnapshot } from "../../../../src/shared/protocol/session-protocol";
import type { RetryWait } from "../../../../src/shared/protocol/retry-wait";

const wait: RetryWait = { reason: "rate-limit", status: 429, attempt: 1, attempts: 3, delayMs: 18_000, until: 1_018_000, error: "429 Slow down. Retry after 18 s." };
const snapshot = (extra: Partial<SessionSnapshot> = {}): SessionSnapshot => ({
  sessionId: "s", seq: 5, state: { ...createAgentStateData(), pendingToolCalls: [] },
  steering: [], followUp: [], steeringMode: "all", followUpMode: "all", toolExecution: "parallel", toolRuns: {}, approvals: [], ...extra,
});

describe("the mirror's retry wait", () => {
  it("comes with a snapshot taken while a run waits, and goes with one taken after", () => {
    const mirror = new SessionMirror("s", createAgentStateData());
    mirror.loadSnapshot(snapshot({ retry: wait }));
    expect(mirror.getView().retry).toEqual(wait);
    mirror.loadSnapshot(snapshot());
    expect(mirror.getView().retry).toBeUndefined();
  });

  it("starts and ends with the worker's retry items, in order with its state events", () => {
    const mirror = new SessionMirror("s", createAgentStateData());
    mirror.loadSnapshot(snapshot());
    expect(mirror.applyBatch({ seq: 6, items: [{ k: "s", e: { type: "run_start" } }, { k: "retry", wait }] })).toBe("applied");
    const waiting = mirror.getView();
    expect(waiting.retry).toEqual(wait);
    expect(mirror.applyBatch({ seq: 7, items: [{ k: "retry" }] })).toBe("applied");
    expect(mirror.getView().retry).toBeUndefined();
    expect(mirror.getView()).not.toBe(waiting);
  });
});
