/** What the page says while a run waits to retry (shared/protocol/retry-wait.ts). */
import { describe, expect, it } from "vitest";
import { retryWaitText, secondsLeft } from "../../../../src/shared/protocol/retry-wait";

describe("the retry wait in words", () => {
  const now = 1_000_000;
  it("names the reason and counts whole seconds down", () => {
    expect(retryWaitText({ reason: "rate-limit", status: 429, until: now + 17_200 }, now)).toBe("Rate limited: retrying in 18 s…");
    expect(retryWaitText({ reason: "server", status: 503, until: now + 4_000 }, now)).toBe("Server error 503: retrying in 4 s…");
    expect(retryWaitText({ reason: "server", until: now + 1 }, now)).toBe("Server error: retrying in 1 s…");
    expect(retryWaitText({ reason: "connection", until: now + 2_000 }, now)).toBe("Connection dropped: retrying in 2 s…");
  });

  it("says only that it retries once the wait is over", () => {
    expect(retryWaitText({ reason: "connection", until: now }, now)).toBe("Connection dropped: retrying…");
    expect(secondsLeft({ until: now - 5_000 }, now)).toBe(0);
  });
});
