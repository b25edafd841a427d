/** The words the worker adds to a provider's error text, and how the page reads them back (shared/error-text.ts). */
import { describe, expect, it } from "vitest";
import { networkCode, parseTimeout, retryAfterSeconds, timeoutText, waitInWords, withNetworkCause, withRetryAfter } from "../../../../../src/shared/error-text";
import { retryAfter } from "../../../../../src/agent-worker/host/provider/provider-call";

describe("the worker's notes on a failed request", () => {
  it("a Retry-After note reads back as its seconds, whatever the text before it", () => {
    expect(withRetryAfter("429 Slow down", 20)).toBe("429 Slow down. Retry after 20 s.");
    expect(withRetryAfter("429 Slow down.", 2.5)).toBe("429 Slow down. Retry after 2.5 s.");
    expect(retryAfterSeconds(withRetryAfter("429 Slow down", 20))).toBe(20);
  });

  it("reads the providers' own phrasings of a wait", () => {
    expect(retryAfterSeconds("Please try again in 20s.")).toBe(20);
    expect(retryAfterSeconds("Please try again in 1m30s.")).toBe(90);
    expect(retryAfterSeconds("Please try again in 250ms.")).toBe(0.25);
    expect(retryAfterSeconds("retry after 3 seconds")).toBe(3);
    expect(retryAfterSeconds("try again in 2 minutes")).toBe(120);
    expect(retryAfterSeconds("429 Slow down")).toBeUndefined();
  });

  it("timeouts carry their kind and seconds", () => {
    expect(timeoutText("stalled", 0.3)).toBe("Request timed out: the provider sent nothing for 0.3 s.");
    expect(timeoutText("no-response", 120)).toBe("Request timed out: no response within 120 s.");
    expect(parseTimeout(timeoutText("no-response", 120))).toEqual({ kind: "no-response", seconds: 120 });
    expect(parseTimeout(timeoutText("stalled", 5))).toEqual({ kind: "stalled", seconds: 5 });
    expect(parseTimeout("Request timed out.")).toBeUndefined();
  });

  it("a request that never got there names why and where", () => {
    const text = withNetworkCause("Connection error.", "ENOTFOUND", "https://llm.example");
    expect(text).toBe("Connection error. (ENOTFOUND at https://llm.example)");
    expect(networkCode(text)).toBe("ENOTFOUND");
    expect(networkCode("terminated")).toBeUndefined();
  });

  it("says waits as a person would", () => {
    expect(waitInWords(1)).toBe("1 second");
    expect(waitInWords(0.2)).toBe("1 second");
    expect(waitInWords(20)).toBe("20 seconds");
    expect(waitInWords(600)).toBe("about 10 minutes");
  });
});

describe("retryAfter, from a response's headers", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("takes seconds, an HTTP date, or OpenAI's retry-after-ms", () => {
    expect(retryAfter(new Headers({ "retry-after": "20" }), now)).toBe(20);
    expect(retryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:01:00 GMT" }), now)).toBe(60);
    expect(retryAfter(new Headers({ "retry-after-ms": "1500", "retry-after": "2" }), now)).toBe(1.5);
  });
  it("ignores what is missing or makes no sense", () => {
    expect(retryAfter(new Headers(), now)).toBeUndefined();
    expect(retryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfter(new Headers({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }), now)).toBe(0);
  });
});
