/**
 * Settings' automatic retries (issue 25): pi's defaults (3 retries, a minute's longest wait), bounded, merged by a
 * page's patch, filled in for files written before they existed, and handed to workers in milliseconds.
 */
import { describe, expect, it } from "vitest";
import { applySettingsPatch, DEFAULT_SETTINGS, MAX_RETRY_ATTEMPTS, MAX_RETRY_WAIT_SECONDS, migrateSettings } from "../../../../src/shared/settings/schema";
import { toWorkerSettings } from "../../../../src/main/broker/app-service";

describe("the retry settings", () => {
  it("retry 3 times, waiting at most a minute, by default", () => {
    expect(DEFAULT_SETTINGS.abort).toMatchObject({ retryAttempts: 3, retryMaxWaitSeconds: 60 });
    expect(toWorkerSettings(DEFAULT_SETTINGS).retry).toEqual({ attempts: 3, maxWaitMs: 60_000 });
  });

  it("merge a page's change, 0 turning retries off", () => {
    const off = applySettingsPatch(DEFAULT_SETTINGS, { abort: { retryAttempts: 0 } });
    expect(off.abort).toEqual({ ...DEFAULT_SETTINGS.abort, retryAttempts: 0 });
    expect(toWorkerSettings(applySettingsPatch(off, { abort: { retryMaxWaitSeconds: 5 } })).retry).toEqual({ attempts: 0, maxWaitMs: 5_000 });
  });

  it("refuse counts and waits out of bounds or fractional, naming the field", () => {
    for (const abort of [{ retryAttempts: -1 }, { retryAttempts: MAX_RETRY_ATTEMPTS + 1 }, { retryAttempts: 1.5 }]) {
      expect(() => applySettingsPatch(DEFAULT_SETTINGS, { abort })).toThrow(/abort\.retryAttempts/);
    }
    for (const abort of [{ retryMaxWaitSeconds: 0 }, { retryMaxWaitSeconds: MAX_RETRY_WAIT_SECONDS + 1 }]) {
      expect(() => applySettingsPatch(DEFAULT_SETTINGS, { abort })).toThrow(/abort\.retryMaxWaitSeconds/);
    }
  });

  it("are filled in for a file written before they existed, keeping its other choices", () => {
    const older = { ...DEFAULT_SETTINGS, abort: { escAction: "nothing", clearQueuesOnAbort: true, confirmCloseWhileRunning: false, requestTimeoutMs: 30_000 } };
    expect(migrateSettings(older).abort).toEqual({ escAction: "nothing", clearQueuesOnAbort: true, confirmCloseWhileRunning: false, requestTimeoutMs: 30_000, retryAttempts: 3, retryMaxWaitSeconds: 60 });
  });
});
