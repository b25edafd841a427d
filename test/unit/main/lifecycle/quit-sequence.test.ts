/**
 * How the app ends: a user's quit may ask and waits up to 6 s for its cleanup; a quit the system asks for
 * (shutdown, logout, SIGTERM) never asks and exits within 1 s; Windows' session end saves main's state.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QuitSequence, type QuitSequenceOptions } from "../../../../src/main/lifecycle/quit-sequence";

interface Rig {
  sequence: QuitSequence;
  calls: string[];
  reports: string[];
  /** Resolves the cleanup `cleanUp` started (it never settles on its own). */
  finishCleanup(): void;
  /** Resolves the pending saves, in order. */
  finishSave(): void;
}

function rig(overrides: Partial<QuitSequenceOptions> = {}): Rig {
  const calls: string[] = [];
  const reports: string[] = [];
  let finishCleanup = () => {};
  const saves: Array<() => void> = [];
  const sequence = new QuitSequence({
    cleanUp: () => {
      calls.push("cleanUp");
      return new Promise<void>((resolve) => (finishCleanup = resolve));
    },
    saveState: () => {
      calls.push("saveState");
      return new Promise<void>((resolve) => saves.push(resolve));
    },
    quit: () => calls.push("quit"),
    exit: () => calls.push("exit"),
    report: (text) => reports.push(text),
    ...overrides,
  });
  return { sequence, calls, reports, finishCleanup: () => finishCleanup(), finishSave: () => saves.shift()?.() };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("a quit the user asks for", () => {
  it("asks about working agents, and exits once the cleanup is done", async () => {
    const { sequence, calls, finishCleanup } = rig();
    expect(sequence.agentsToConfirm(() => 2)).toBe(2);
    sequence.cleanUp();
    sequence.cleanUp(); // Electron's will-quit again (a quit during the cleanup): one cleanup
    expect(calls).toEqual(["cleanUp"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(["cleanUp"]);
    finishCleanup();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["cleanUp", "exit"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual(["cleanUp", "exit"]);
  });

  it("exits after 6 s whatever the cleanup does, and a failed cleanup still exits, reported", async () => {
    const slow = rig();
    slow.sequence.cleanUp();
    await vi.advanceTimersByTimeAsync(5_999);
    expect(slow.calls).toEqual(["cleanUp"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(slow.calls).toEqual(["cleanUp", "exit"]);

    const failing = rig({ cleanUp: () => Promise.reject(new Error("disk full")) });
    failing.sequence.cleanUp();
    await vi.advanceTimersByTimeAsync(0);
    expect(failing.calls).toEqual(["exit"]);
    expect(failing.reports).toEqual(["cleanup before quitting failed"]);
  });
});

describe("a quit the system asks for", () => {
  it("powerMonitor's shutdown quits without asking, saves main's state beside the cleanup, and exits within 1 s", async () => {
    const { sequence, calls } = rig();
    sequence.systemEnds("shutdown");
    expect(sequence.systemEnding).toBe("shutdown");
    expect(calls).toEqual(["quit"]);
    // The close guard's question: nothing to ask now, and the busy count is not even read.
    const busy = vi.fn(() => 3);
    expect(sequence.agentsToConfirm(busy)).toBe(0);
    expect(busy).not.toHaveBeenCalled();
    sequence.cleanUp();
    expect(calls).toEqual(["quit", "saveState", "cleanUp"]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).not.toContain("exit");
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.at(-1)).toBe("exit");
  });

  it("exits as soon as both the save and the cleanup are done", async () => {
    const { sequence, calls, finishCleanup, finishSave } = rig();
    sequence.systemEnds("terminate");
    sequence.cleanUp();
    finishCleanup();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).not.toContain("exit");
    finishSave();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.at(-1)).toBe("exit");
  });

  it("a SIGTERM during a user's quit (its question answered, the 6 s cleanup running) cuts the wait to 1 s", async () => {
    const { sequence, calls } = rig();
    sequence.cleanUp();
    await vi.advanceTimersByTimeAsync(2_000);
    sequence.systemEnds("terminate");
    expect(calls).toEqual(["cleanUp"]); // no second quit
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toEqual(["cleanUp"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(["cleanUp", "exit"]);
  });

  it("a shutdown near the end of a user's cleanup does not push its exit back", async () => {
    const { sequence, calls } = rig();
    sequence.cleanUp();
    await vi.advanceTimersByTimeAsync(5_500);
    sequence.systemEnds("shutdown");
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toEqual(["cleanUp", "exit"]);
  });

  it("a second SIGTERM exits at once", () => {
    const { sequence, calls } = rig();
    sequence.systemEnds("terminate");
    sequence.systemEnds("terminate");
    expect(calls).toEqual(["quit", "exit"]);
    sequence.systemEnds("shutdown");
    sequence.cleanUp();
    expect(calls).toEqual(["quit", "exit"]);
  });
});

describe("Windows' session end", () => {
  it("query-session-end saves main's state and changes nothing else: the quit question still stands", async () => {
    const { sequence, calls, finishSave } = rig();
    const saved = sequence.sessionMayEnd();
    expect(calls).toEqual(["saveState"]);
    finishSave();
    await saved;
    expect(sequence.systemEnding).toBeUndefined();
    expect(sequence.agentsToConfirm(() => 1)).toBe(1);
    expect(calls).toEqual(["saveState"]);
  });

  it("session-end saves again, and nothing asks from then on; it does not quit (Windows ends the process)", async () => {
    const { sequence, calls, finishSave } = rig();
    const saved = sequence.sessionEnds();
    finishSave();
    await saved;
    expect(sequence.systemEnding).toBe("session-end");
    expect(sequence.agentsToConfirm(() => 1)).toBe(0);
    expect(calls).toEqual(["saveState"]);
  });

  it("every window's event at once: one save runs, one more after it for all who asked meanwhile", async () => {
    const { sequence, calls, finishSave } = rig();
    const first = sequence.sessionMayEnd();
    const second = sequence.sessionMayEnd();
    const third = sequence.sessionEnds();
    expect(calls).toEqual(["saveState"]);
    finishSave();
    await vi.advanceTimersByTimeAsync(0);
    await first;
    expect(calls).toEqual(["saveState", "saveState"]);
    finishSave();
    await Promise.all([second, third]);
    expect(calls).toEqual(["saveState", "saveState"]);
  });

  it("a failed save is reported, never thrown: the session ends anyway", async () => {
    const { sequence, reports } = rig({ saveState: () => Promise.reject(new Error("read-only")) });
    await expect(sequence.sessionEnds()).resolves.toBeUndefined();
    expect(reports).toEqual(["could not save before the session ended"]);
  });
});
