import { describe, expect, it } from "vitest";
import { WORKER_KEEPS_CRASHING, workerCrashLoopMessage, workerCrashLoopText } from "../../../../src/shared/protocol/worker-failure";

describe("the keeps-crashing refusal", () => {
  it("says how often and how it last ended, with at most the last 12 non-empty stderr lines", () => {
    const tail = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\r\n") + "\n\n";
    const text = workerCrashLoopText(6, "the process exited with code 3", tail);
    expect(text.startsWith(`${WORKER_KEEPS_CRASHING} (6 times in a row; the last time the process exited with code 3)`)).toBe(true);
    expect(text.split("\n").slice(1)).toEqual(Array.from({ length: 12 }, (_, i) => `line ${i + 8}`));
    expect(workerCrashLoopText(2, "x", " \n")).toMatch(/It wrote nothing to stderr\.$/);
  });

  it("is recognised inside an error wrapped by IPC, and not elsewhere", () => {
    const text = workerCrashLoopText(3, "x", "boom");
    expect(workerCrashLoopMessage(`Error invoking remote method 'connect': Error: ${text}`)).toBe(text);
    expect(workerCrashLoopMessage("The agent process could not start")).toBeUndefined();
  });
});
