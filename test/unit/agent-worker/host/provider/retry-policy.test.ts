/** Which failures a run retries by itself, and how long it waits (agent-worker/host/provider/retry-policy.ts). */
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { RETRY_BASE_DELAY_MS, retryableFailure, retryDelayMs } from "../../../../../src/agent-worker/host/provider/retry-policy";
import { zeroUsage } from "../../../../../src/shared/agent/state";

function failed(errorMessage: string, stopReason: AssistantMessage["stopReason"] = "error"): AssistantMessage {
  return { role: "assistant", content: [], api: "openai-completions", provider: "p", model: "m", usage: zeroUsage(), stopReason, errorMessage, timestamp: 1 };
}

describe("which failures are retried", () => {
  it.each([
    ["429 Slow down. Retry after 20 s.", { reason: "rate-limit", status: 429 }],
    ["429 Rate limit reached for requests", { reason: "rate-limit", status: 429 }],
    ["500 upstream exploded", { reason: "server", status: 500 }],
    ["503 Service Unavailable", { reason: "server", status: 503 }],
    ["529 Overloaded", { reason: "server", status: 529 }],
    ["Overloaded", { reason: "server" }],
    ["Too many requests, slow down", { reason: "rate-limit" }],
    ["terminated", { reason: "connection" }],
    ["read ECONNRESET", { reason: "connection" }],
    ["socket hang up", { reason: "connection" }],
    ["Connection error.", { reason: "connection" }],
    ["Connection error. (ECONNRESET at http://127.0.0.1:9)", { reason: "connection" }],
    ["Connection error. (UND_ERR_SOCKET at http://127.0.0.1:9)", { reason: "connection" }],
  ])("%s: %o", (text, expected) => {
    expect(retryableFailure(failed(text))).toEqual(expected);
  });

  it.each([
    "400 This model's maximum context length is 8192 tokens",
    "401 Incorrect API key provided",
    "403 Forbidden",
    "404 The model `x` does not exist",
    "429 You exceeded your current quota, please check your plan and billing details.",
    "429 insufficient_quota",
    "Connection error. (ECONNREFUSED at http://127.0.0.1:9)",
    "Connection error. (ENOTFOUND at http://nowhere.invalid)",
    "Connection error. (bad port at http://127.0.0.1:6000)",
    "Request timed out: no response within 120 s.",
    "Request timed out: the provider sent nothing for 120 s.",
    "Interrupted: Paddock stopped before this reply finished.",
    "Context overflow: the chat does not fit even after compacting.",
    "",
  ])("not: %s", (text) => {
    expect(retryableFailure(failed(text))).toBeUndefined();
  });

  it("not a Stop, a finished reply or another kind of message", () => {
    expect(retryableFailure(failed("503 Service Unavailable", "aborted"))).toBeUndefined();
    expect(retryableFailure(failed("", "stop"))).toBeUndefined();
    expect(retryableFailure({ role: "user", content: "503", timestamp: 1 })).toBeUndefined();
    expect(retryableFailure(undefined)).toBeUndefined();
  });
});

describe("how long a retry waits", () => {
  it("backs off from 2 s, doubling, at most the longest wait", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, "503 Service Unavailable", 60_000))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(retryDelayMs(1, "503", 60_000)).toBe(RETRY_BASE_DELAY_MS);
    expect(retryDelayMs(10, "503", 60_000)).toBe(60_000);
    expect(retryDelayMs(5000, "503", 60_000)).toBe(60_000);
  });

  it("honours the provider's Retry-After (and its own words) in place of the backoff", () => {
    expect(retryDelayMs(1, "429 Slow down. Retry after 18 s.", 60_000)).toBe(18_000);
    expect(retryDelayMs(3, "429 Slow down. Retry after 1 s.", 60_000)).toBe(1_000);
    expect(retryDelayMs(1, "429 Slow down. Retry after 0.3 s.", 60_000)).toBe(300);
    expect(retryDelayMs(1, "429 Rate limit reached. Please try again in 20s.", 60_000)).toBe(20_000);
  });

  it("gives up at once when the provider asks for longer than the longest wait", () => {
    expect(retryDelayMs(1, "429 Slow down. Retry after 120 s.", 60_000)).toBeUndefined();
    expect(retryDelayMs(1, "429 Slow down. Retry after 60 s.", 60_000)).toBe(60_000);
  });
});
